"""The bots' own logs of a match: what each bot printed, split by decision, and its debug annotations.

Kept beside the replay (`logs_path(replay)`: `X.replay.json.gz` → `X.logs.json.gz`), never inside it: a replay is
public, a bot's output belongs to its owner. One gzip JSON document for the match:

```
{"format": "arena-bot-logs", "version": 1,
 "seats": [{"seat", "name",
            "startup": text,                     # printed before the first decision
            "decisions": [{"decision", "turn", "output", "annotation"}],   # only the decisions the bot was asked
            "end": text,                         # printed after its last decision (EndMatch, shutting down)
            "printed_bytes", "cut_bytes"}]}
```
`decision` is the index in the replay's decisions, `turn` the viewer's turn number (`turn_of(decision)`).
`output` is what the bot printed from that Decide call until its next one (the referee freezes a bot between its
decisions, so that is what it printed while thinking about this one); bounded by
`arena.sandbox.output.SEGMENT_BYTES` a decision and `LOG_BYTES` a match, the rest counted in `cut_bytes` and
shown by a marker line. `annotation` is `DecideResponse.annotation`, cut to `ANNOTATION_CHARS` characters.

`write_text_files` renders one plain text file per seat (`seat1-<name>.log`), the same text the platform's
"download" gives; `arena play --logs DIR` writes both.
"""

from __future__ import annotations

import gzip
import json
import os
import re
from pathlib import Path
from typing import Any

FORMAT = "arena-bot-logs"
VERSION = 1
SUFFIX = ".logs.json.gz"
#: The longest annotation kept; longer ones are cut (and end with "…").
ANNOTATION_CHARS = 256


def turn_of(decision: int) -> int:
    """The viewer's turn number of a decision: turn 0 is the start position, decision 0 makes turn 1."""
    return decision + 1


def clean_annotation(text: str) -> str:
    """An annotation as kept: at most ANNOTATION_CHARS characters (the last one "…" when cut), control
    characters other than newline and tab replaced by spaces."""
    text = "".join(c if c in "\n\t" or c.isprintable() else " " for c in text)
    if len(text) > ANNOTATION_CHARS:
        text = text[:ANNOTATION_CHARS - 1] + "…"
    return text


def logs_path(replay_path: str | os.PathLike) -> Path:
    """Where the logs of the replay at `replay_path` are kept."""
    path = Path(replay_path)
    name = path.name
    stem = name[:-len(".replay.json.gz")] if name.endswith(".replay.json.gz") else name
    return path.with_name(stem + SUFFIX)


def document(seats: list[dict[str, Any]]) -> dict[str, Any]:
    return {"format": FORMAT, "version": VERSION, "seats": seats}


def write(path: str | os.PathLike, doc: dict[str, Any]) -> Path:
    """Write atomically, readable by the owner only (the logs are private to each bot's owner)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".part")
    data = gzip.compress(json.dumps(doc, separators=(",", ":"), sort_keys=True).encode(), mtime=0)
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:  # a full or failing disk: no `.part` left behind
        tmp.unlink(missing_ok=True)
        raise
    return path


def load(path: str | os.PathLike) -> dict[str, Any]:
    with gzip.open(path, "rb") as f:
        doc = json.loads(f.read())
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ValueError(f"{path}: not the bot logs of an Arena match")
    return doc


def seat_text(seat: dict[str, Any]) -> str:
    """One seat's log as plain text, a header line per stretch ("== turn 8 (decision 7) ==")."""
    parts = [f"# {seat.get('name', '')} (seat {seat['seat'] + 1}): printed {seat.get('printed_bytes', 0)} bytes, "
             f"{seat.get('cut_bytes', 0)} cut\n"]
    if seat.get("startup"):
        parts.append("== start-up ==\n" + _line_end(seat["startup"]))
    for d in seat.get("decisions", []):
        if not d.get("output") and not d.get("annotation"):
            continue
        parts.append(f"== turn {d['turn']} (decision {d['decision']}) ==\n")
        if d.get("annotation"):
            parts.append(f"[annotation] {d['annotation']}\n")
        if d.get("output"):
            parts.append(_line_end(d["output"]))
    if seat.get("end"):
        parts.append("== end ==\n" + _line_end(seat["end"]))
    return "".join(parts)


def _line_end(text: str) -> str:
    return text if text.endswith("\n") else text + "\n"


def text_file_name(seat: dict[str, Any], first: int = 0) -> str:
    """`seatN-<name>.log`, N counted from `first`: 0 on the command line (as `arena play`'s result table and
    `arena replay show --seat` count seats), 1 on the web (as its seats tables do)."""
    name = re.sub(r"[^A-Za-z0-9._-]+", "_", str(seat.get("name", ""))).strip("._")[:60] or "bot"
    return f"seat{seat['seat'] + first}-{name}.log"


def write_text_files(directory: str | os.PathLike, doc: dict[str, Any]) -> list[Path]:
    """One `seatN-<name>.log` per seat in `directory`, N 0-based as everywhere on the command line (the result
    table, `arena replay show --seat N`); returns the paths."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    for seat in doc["seats"]:
        path = directory / text_file_name(seat)
        path.write_text(seat_text(seat), encoding="utf-8")
        paths.append(path)
    return paths
