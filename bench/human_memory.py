"""Memory of matches waiting for a person (issue 25): N Thebes 2p matches run in one process, one thread each (as
the `people` worker's thread pool runs them), each with a person (matches.people.BrowserPerson over Redis) who
never answers and the random bot; once every match waits on its person's first decision, prints the resident
memory of the process and of the bots' processes, before and after, and per waiting match.

    python bench/human_memory.py [--matches 8] [--redis redis://127.0.0.1:6379/0]

Bots run unsandboxed here (the sandbox's own processes — bubblewrap, its init — add a little per bot); the
person's decision limit is long enough that no match moves on while it is measured.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "platform"), str(ROOT)]


def rss_mb(proc) -> tuple[float, float]:
    """(this process's RSS, the sum of its descendants' RSS), in MiB."""
    own = proc.memory_info().rss
    kids = 0
    for child in proc.children(recursive=True):
        try:
            kids += child.memory_info().rss
        except Exception:  # exited meanwhile
            pass
    return own / 2**20, kids / 2**20


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--matches", type=int, default=8)
    ap.add_argument("--redis", default="redis://127.0.0.1:6379/0")
    args = ap.parse_args()
    from django.conf import settings
    settings.configure(CELERY_BROKER_URL=args.redis, CELERY_TASK_DEFAULT_QUEUE=f"bench-{uuid.uuid4().hex[:8]}")
    import psutil

    from arena.match import BotSpec, TimeControl, run_match
    from matches import live, people

    proc = psutil.Process()
    tmp = Path(tempfile.mkdtemp())
    tc = TimeControl(decision_ms=3000, bank_ms=0, startup_ms=60_000, max_faults=0)
    # warm up the imports and the engine with one match, so that the figures are per match, not one-off costs
    run_match("thebes", {}, 1, [BotSpec("", name="p"), BotSpec(str(ROOT / "bots/python/random"))],
              people={0: people.BrowserPerson(0, 0, 1)}, time_control=tc, sandbox=False,
              replay_path=str(tmp / "warm.replay.json.gz"))
    before = rss_mb(proc)
    tc = TimeControl(decision_ms=600_000, bank_ms=0, startup_ms=60_000, max_faults=0)
    threads = []
    for i in range(1, args.matches + 1):
        t = threading.Thread(target=run_match, daemon=True, args=(
            "thebes", {}, 100 + i, [BotSpec("", name="p"), BotSpec(str(ROOT / "bots/python/random"))]),
            kwargs={"people": {0: people.BrowserPerson(i, 0, 1)}, "time_control": tc, "sandbox": False,
                    "replay_path": str(tmp / f"{i}.replay.json.gz")})
        t.start()
        threads.append(t)
    conn = live.client()
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        if all(conn.exists(people.turn_key(i, 0)) for i in range(1, args.matches + 1)):
            break
        time.sleep(0.2)
    else:
        sys.exit("not every match reached its person's decision")
    time.sleep(1)
    after = rss_mb(proc)
    n = args.matches
    print(f"{n} matches waiting for a person (machine loaded: one run)")
    print(f"  worker process: {before[0]:.1f} → {after[0]:.1f} MiB ({(after[0] - before[0]) / n:.2f} MiB a match)")
    print(f"  bots' processes: {before[1]:.1f} → {after[1]:.1f} MiB ({(after[1] - before[1]) / n:.2f} MiB a match)")
    sys.stdout.flush()
    # the waiting referees hold their threads for minutes: stop their bots, then leave at once
    for child in proc.children(recursive=True):
        child.kill()
    import os
    os._exit(0)


if __name__ == "__main__":
    main()
