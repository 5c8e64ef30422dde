"""What keeping the bots' output by decision costs the referee (arena.sandbox.output, arena.botlogs).

    python bench/output_capture.py [--matches 6] [--marks 20000] [--no-sandbox] [--json]

In one run:
1. `OutputTail.mark` on a real pipe: with nothing to read (a quiet bot) and with one log line waiting (a bot that
   printed while deciding): median and p99 in µs;
2. whole sandboxed 2-player Thebes matches of a bot that prints two lines and annotates every decision
   (tests/arena/match/bots/chatty) against the Python random bot, alternating capture on and off
   (`run_match(..., capture_output=...)`) over the same seeds: the referee's own time per decision (the wall
   time from the end of the first decision to the end of the last, less the time the bots took to answer, divided
   by those decisions; start-up and shutdown excluded) on vs off, medians, and the difference, which is the
   capture's per-decision overhead (the two are within the noise of a loaded machine: the figure to trust is
   the cost of the referee's `mark` calls inside those matches, timed where they happen).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from arena.match import BotSpec, run_match  # noqa: E402
from arena.sandbox.output import OutputTail  # noqa: E402

CHATTY = ROOT / "tests" / "arena" / "match" / "bots" / "chatty"
RANDOM = ROOT / "bots" / "python" / "random"


def _pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def bench_marks(n: int) -> dict[str, float]:
    r, w = os.pipe()
    out = OutputTail(r)
    quiet, line = [], []
    for i in range(n):
        t0 = time.perf_counter()
        out.mark(i)
        quiet.append((time.perf_counter() - t0) * 1e6)
        os.write(w, b"eval +0.35, searched 1234 nodes\n")
        t0 = time.perf_counter()
        out.mark(i)
        line.append((time.perf_counter() - t0) * 1e6)
    os.close(w)
    out.join(5)
    return {"mark_quiet_median_us": statistics.median(quiet), "mark_quiet_p99_us": _pct(quiet, 0.99),
            "mark_line_median_us": statistics.median(line), "mark_line_p99_us": _pct(line, 0.99)}


def bench_matches(matches: int, sandbox: bool) -> dict[str, float]:
    from arena import replay as replays
    from arena.match import referee

    marks: list[float] = []  # the referee's own calls, timed where they happen
    plain_mark = referee._Seat.mark_output

    def timed_mark(seat, label):
        t0 = time.perf_counter()
        plain_mark(seat, label)
        marks.append((time.perf_counter() - t0) * 1e6)

    referee._Seat.mark_output = timed_mark
    per = {True: [], False: []}
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(matches):
            for capture in ((True, False) if k % 2 == 0 else (False, True)):  # alternate which goes first
                stamps: list[float] = []
                path = Path(tmp) / f"{k}-{capture}.replay.json.gz"
                run_match("thebes", {"players": 2}, 100 + k, [BotSpec(str(CHATTY)), BotSpec(str(RANDOM))],
                          sandbox=sandbox, capture_output=capture, replay_path=str(path),
                          progress=lambda i, state, stamps=stamps: stamps.append(time.perf_counter()))
                # from the end of decision 0 to the end of the last: start-up and shutdown are not per decision
                decisions = replays.load(path)["decisions"][1:]
                bots_ms = sum(d["ms"] for d in decisions)
                per[capture].append(((stamps[-1] - stamps[0]) * 1000 - bots_ms) / len(decisions))
    referee._Seat.mark_output = plain_mark
    on, off = statistics.median(per[True]), statistics.median(per[False])
    return {"mark_in_matches_median_us": statistics.median(marks), "mark_in_matches_p99_us": _pct(marks, 0.99),
            "referee_ms_per_decision_capture_on": on, "referee_ms_per_decision_capture_off": off,
            "overhead_ms_per_decision": on - off, "matches_each": matches}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--matches", type=int, default=6, help="matches with capture on, and as many with it off")
    ap.add_argument("--marks", type=int, default=20000)
    ap.add_argument("--no-sandbox", action="store_true")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    figures = {**bench_marks(args.marks), **bench_matches(args.matches, not args.no_sandbox)}
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key:40s} {value:10.3f}" if isinstance(value, float) else f"{key:40s} {value:10d}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
