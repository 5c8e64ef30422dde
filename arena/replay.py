"""Replays: one gzip-compressed JSON file per match (`*.replay.json.gz`), enough to re-run the game bit for bit.

```
{"format": "arena-replay", "version": 1,
 "header": {"game", "params", "engine_version", "arena_version", "seed", "time_control",
            "seats": [{"seat", "name", "sha256", "time_control"?}], "bot_seed_key"},
 "decisions": [{"seat", "action", "ms", "fault": null | {"kind", "message"}, "forced", "substitute",
                "events": [...]}],
 "result": MatchResult.to_json() without replay_path}
```
`action` is the canonical text of the action applied (the bot's choice, or the fallback after a fault); `ms` is
the time the bot took (0 for a disqualified seat's fallback); `forced` is true when the decision had exactly one
legal action and the referee applied it without asking the bot (`TimeControl.auto_single_action`; absent in
replays written before the option, read as false); `substitute` is true when the action is the referee's
fallback, not the bot's choice: the seat was out (disqualified) or its call faulted without a usable answer (a
forced decision is never a substitute; absent in replays written before it was recorded: `frames` then reads
a faulted decision as one, the only case those replays can tell);
`events` are what `State.apply` returned. A seat's `time_control` is there when the seat played on a clock of its own
(a person's preset beside the bots' ladder clock: `run_match(seat_time_controls=)`); the others played on the
header's.
`bot_seed_key` (hex; absent from self-play replays) is the per-match secret that keyed each bot's `bot_seed`
(`arena.match.protocol.bot_seed`): kept from the bots while they play, written here once the match is over, so
that anyone can re-derive every bot's seed and re-run the bots to their recorded choices
(`run_match(..., bot_seed_key=bytes.fromhex(...))`). `verify` does not need it.

`verify` re-simulates from the seed and the actions and raises `ReplayMismatch` at the first difference;
`frames` gives the positions for viewers, from one seat's view or omniscient.
"""

from __future__ import annotations

import gzip
import json
import os
import random
from pathlib import Path
from typing import Any

from arena import __version__ as ARENA_VERSION
from arena import games
from arena.games.base import Action, ActionParseError, Event, Game, IllegalAction, State
from arena.games.policy import Policy, play_game
from arena.match.ranking import final_ranks
from arena.match.types import MatchResult, SeatResult

FORMAT = "arena-replay"
VERSION = 1
SUFFIX = ".replay.json.gz"


class ReplayMismatch(Exception):
    """The replay does not re-simulate to what it records. The message names the first differing decision."""


def build(game: Game, seed: int, seats: list[dict[str, Any]], decisions: list[dict[str, Any]],
          result: MatchResult, time_control: dict[str, Any], bot_seed_key: bytes | None = None
          ) -> dict[str, Any]:
    """The replay document of a played game: `seats` are `{"seat", "name", "sha256"}`, `decisions` the records
    described above, in order."""
    recorded = result.to_json()
    recorded.pop("replay_path", None)
    key = {"bot_seed_key": bot_seed_key.hex()} if bot_seed_key is not None else {}
    return {"format": FORMAT, "version": VERSION,
            "header": {"game": game.name, "params": game.params, "engine_version": game.engine_version,
                       "arena_version": ARENA_VERSION, "seed": seed, "time_control": time_control,
                       "seats": seats, **key},
            "decisions": decisions, "result": recorded}


def of_selfplay(game: Game, seed: int, policies: list[Policy], rngs: list[random.Random],
                names: list[str]) -> dict[str, Any]:
    """The replay of one game between in-process policies, shaped exactly like a match's (hashes empty, no
    time used): for demos, tests and the viewer."""
    decisions: list[dict[str, Any]] = []

    def record(seat: int, action: Action, events: list[Event]) -> None:
        decisions.append({"seat": seat, "action": str(action), "ms": 0.0, "fault": None, "forced": False,
                          "substitute": False, "events": events})

    state, _ = play_game(game, seed, policies, rngs, on_decision=record)
    return of_played(game, seed, state, decisions, names)


def of_played(game: Game, seed: int, state: State, decisions: list[dict[str, Any]],
              names: list[str]) -> dict[str, Any]:
    """The replay of an in-process game already played to the terminal `state` (as `of_selfplay` makes it),
    for a caller that ran `play_game` itself with an `on_decision` that recorded `decisions`."""
    scores, ranks = state.scores(), state.ranking()
    seats = [{"seat": i, "name": name, "sha256": ""} for i, name in enumerate(names)]
    result = MatchResult(game=game.name, params=game.params, seed=seed, engine_version=game.engine_version,
                         seats=[SeatResult(seat=i, name=name, sha256="", score=scores[i], rank=ranks[i])
                                for i, name in enumerate(names)],
                         engine_opponents=state.engine_opponent_results())
    replay: dict[str, Any] = _normal(build(game, seed, seats, decisions, result, time_control={}))
    return replay


def write(path: str | os.PathLike[str], replay: dict[str, Any]) -> Path:
    """Write atomically (a reader never sees half a file). Returns the path. On an error (a full or failing
    disk) the `.part` file is removed and the error raised."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".part")
    try:
        with open(tmp, "wb") as raw:
            raw.write(to_bytes(replay))
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return path


def to_bytes(replay: dict[str, Any]) -> bytes:
    """The replay file's bytes: gzipped canonical JSON, mtime 0, so the same match gives the same bytes."""
    data = json.dumps(replay, separators=(",", ":"), sort_keys=True).encode()
    return gzip.compress(data, mtime=0)


def load(path: str | os.PathLike[str]) -> dict[str, Any]:
    with gzip.open(path, "rb") as f:
        replay = json.loads(f.read())
    if not isinstance(replay, dict) or replay.get("format") != FORMAT:
        raise ValueError(f"{path}: not an Arena replay")
    if replay.get("version") != VERSION:
        raise ValueError(f"{path}: replay format version {replay.get('version')}, this Arena reads {VERSION}")
    return replay


def _normal(value: Any) -> Any:
    """The JSON form of a value (tuples become lists, ...), as it reads back from a replay file."""
    return json.loads(json.dumps(value, sort_keys=True))


def _new_state(replay: dict[str, Any], *, check_version: bool) -> State:
    header = replay["header"]
    game = games.load(header["game"], **header["params"])
    if check_version and game.engine_version != header["engine_version"]:
        raise ReplayMismatch(f"the replay was played with {header['game']} engine {header['engine_version']}, "
                             f"this Arena has engine {game.engine_version}: it cannot be re-simulated faithfully")
    return game.new_state(header["seed"])


def verify(replay: dict[str, Any]) -> None:
    """Re-simulate the game from its seed and recorded actions; raise ReplayMismatch at the first difference
    (whose turn it was, an action that is not legal, a decision marked forced that had a choice, different events,
    a different end or result)."""
    state = _new_state(replay, check_version=True)
    game = state.game
    for i, d in enumerate(replay["decisions"]):
        where = f"decision {i} (seat {d['seat']}, {d['action']!r})"
        if state.is_terminal():
            raise ReplayMismatch(f"{where}: the game was already over")
        if state.current_player() != d["seat"]:
            raise ReplayMismatch(f"{where}: it was seat {state.current_player()}'s turn, not seat {d['seat']}'s")
        if d.get("forced") and len(state.legal_actions()) != 1:
            raise ReplayMismatch(f"{where}: marked forced, but {len(state.legal_actions())} actions were legal")
        if d.get("forced") and d.get("substitute"):
            raise ReplayMismatch(f"{where}: marked both forced and played by the referee as a substitute")
        try:
            events = state.apply(game.parse_action(d["action"]))
        except (ActionParseError, IllegalAction) as exc:
            raise ReplayMismatch(f"{where}: {exc}") from None
        if _normal(events) != _normal(d["events"]):
            raise ReplayMismatch(f"{where}: events differ: recorded {d['events']!r}, re-simulated {events!r}")
    if not state.is_terminal():
        raise ReplayMismatch(f"the replay ends after {len(replay['decisions'])} decisions, before the game did")
    result = replay.get("result")
    if result is None:
        return
    seats = result["seats"]
    scores = _normal(state.scores())
    if [s["score"] for s in seats] != scores:
        raise ReplayMismatch(f"final scores differ: recorded {[s['score'] for s in seats]}, "
                             f"re-simulated {scores}")
    ranks = final_ranks(state.ranking(), [s["disqualified"] for s in seats], game.engine_opponents)
    if [s["rank"] for s in seats] != ranks:
        raise ReplayMismatch(f"final ranks differ: recorded {[s['rank'] for s in seats]}, re-simulated {ranks}")
    opponents = _normal(state.engine_opponent_results())
    if "engine_opponents" in result and _normal(result["engine_opponents"]) != opponents:
        raise ReplayMismatch(f"the engine's opponents differ: recorded {result['engine_opponents']}, "
                             f"re-simulated {opponents}")


def _out_after(replay: dict[str, Any]) -> dict[int, int]:
    """Each disqualified seat -> the decision index of its `disqualified` fault (-1: out before the first)."""
    out: dict[int, int] = {}
    for s in (replay.get("result") or {}).get("seats") or []:
        if s.get("disqualified"):
            marks = [f.get("decision") for f in s.get("faults") or [] if f.get("kind") == "disqualified"]
            out[int(s["seat"])] = marks[0] if marks and marks[0] is not None else -1
    return out


def frames(replay: dict[str, Any], seat: int | None = None) -> list[dict[str, Any]]:
    """Frame 0 is the initial position, frame i the position after decision i (1-based):
    `{"index", "seat", "action", "events", "observation", "ms", "fault", "forced", "substitute"}`, the observation
    from `seat`'s
    view (None: omniscient). Raises ReplayMismatch if an action does not apply.

    From a seat's view, another seat's decisions are shown as the game allows (`State.redact_decision`, asked
    of the state before the decision): `action` is None when the seat may not know what was chosen, and the
    events are those it may see. A fault of such a hidden decision keeps its kind but not its message, which can
    quote the bot's answer, and such a decision is never shown as forced (a single legal action can tell what
    the seat holds). The seat's own decisions and the omniscient view are shown whole."""
    state = _new_state(replay, check_version=False)
    out: list[dict[str, Any]] = [{"index": 0, "seat": None, "action": None, "events": [], "ms": None,
                                  "fault": None, "forced": False, "substitute": False,
                                  "observation": state.observation(seat)}]
    out_after = _out_after(replay)
    for i, d in enumerate(replay["decisions"], start=1):
        actor, text, fault = d["seat"], d["action"], d.get("fault")
        if "substitute" in d:
            substitute = bool(d["substitute"])
        else:  # written before it was recorded: what the referee did then (a fault, or a seat out of the game)
            substitute = fault is not None or (actor in out_after and i - 1 > out_after[actor]
                                               and not d.get("forced"))
        before = state.clone() if seat is not None and actor != seat else None
        try:
            events = _normal(state.apply(state.game.parse_action(text)))
        except (ActionParseError, IllegalAction) as exc:
            raise ReplayMismatch(f"decision {i - 1}: {exc}") from None
        forced = bool(d.get("forced"))
        ms = d.get("ms")
        if before is not None and seat is not None:
            text, events = before.redact_decision(actor, seat, text, events)
            if text is None:
                # that the seat had a single legal action can depend on what it holds: hidden too, and so is the
                # time taken (a forced decision takes 0 ms)
                forced = False
                ms = None
                if fault:
                    fault = {"kind": fault["kind"], "message": ""}
        out.append({"index": i, "seat": actor, "action": text, "events": events,
                    "ms": ms, "fault": fault, "forced": forced, "substitute": substitute,
                    "observation": state.observation(seat)})
    return out
