"""Live watching, server side: from a decision made to its entry read by a spectator's stream reader, and what
publishing costs the match's worker per decision (matches.live.Broadcast: the public view and each seat's own,
as JSON, into Redis streams).

    python bench/live_latency.py [--games 3] [--redis redis://127.0.0.1:6379/0] [--no-story] [--pace-ms 0]

Plays random Thebes 4p and Minos 4p games in-process, publishing each decision as the match task does, while a
reader thread blocks on the public stream as `web.watch` does; prints the median and p95 of (a) the publisher's
cost per decision (with the live narration: the worker's copy of the game redacts, plays and tells each
decision in three languages on its writer's thread; `--no-story` without it) and (b) the latency from the start
of publishing a decision to the reader holding it. `--pace-ms` waits that long before each decision, as a match
waits for its bots (~1-2 ms a decision through the sandbox): without it the games go at the engine's pace, far
faster than any match, and the telling (on the writer's thread) falls behind — (b) then measures that queue.
Not measured here: the browser's side (EventSource → drawing) and many watchers at once (see platform/README).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import threading
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "platform"), str(ROOT)]


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/0")
    parser.add_argument("--no-story", action="store_true", help="publish without the live narration")
    parser.add_argument("--pace-ms", type=float, default=0.0, help="a wait before each decision (a bot's time)")
    args = parser.parse_args()

    from django.conf import settings

    settings.configure(CELERY_BROKER_URL=args.redis, CELERY_TASK_DEFAULT_QUEUE=f"bench-{uuid.uuid4().hex[:8]}")
    from arena import games
    from matches import live

    for name in ("thebes", "minos"):
        costs: list[float] = []
        latencies: list[float] = []
        for g in range(args.games):
            match_id = 10_000 + g
            sent: dict[int, float] = {}
            got: dict[int, float] = {}
            done = threading.Event()

            def reader(match_id: int = match_id, sent: dict = sent, got: dict = got, done=done) -> None:
                import json
                conn = live.client(timeout_s=30)
                last = "0"
                while True:
                    for entry_id, fields in live.read(match_id, last, 5000, conn):
                        last = entry_id
                        if "end" in fields:
                            done.set()
                            return
                        got[json.loads(fields["frame"])["index"]] = time.perf_counter()

            state = games.load(name, players=4).new_state(100 + g)
            out = live.Broadcast(match_id, names=[f"seat {s + 1}" for s in range(4)])
            out.start(state)
            thread = threading.Thread(target=reader, daemon=True)
            thread.start()
            pick = random.Random(g)
            i = 0
            while not state.is_terminal():
                if args.pace_ms:
                    time.sleep(args.pace_ms / 1000)
                seat = state.current_player()
                action = pick.choice(state.legal_actions())
                events = state.apply(action)
                sent[i + 1] = t0 = time.perf_counter()
                if not args.no_story:  # as the match task does: the decision's record, for the live narration
                    out.recorded(i, {"seat": seat, "action": str(action), "events": events, "fault": None,
                                     "substitute": False})
                out.decided(i, state)
                costs.append((time.perf_counter() - t0) * 1000)
                i += 1
            out.end()
            done.wait(60)
            latencies += [(got[k] - sent[k]) * 1000 for k in sent if k in got]
            out.redis and out.redis.delete(live.key(match_id), *(live.key(match_id, s) for s in range(4)))
        print(f"{name} 4p, {len(costs)} decisions: publishing costs the worker median {statistics.median(costs):.2f} ms,"
              f" p95 {pct(costs, 0.95):.2f} ms per decision; decision → reader median "
              f"{statistics.median(latencies):.2f} ms, p95 {pct(latencies, 0.95):.2f} ms")


if __name__ == "__main__":
    main()
