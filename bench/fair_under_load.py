"""Fair under load (issue 21): the built-in bots' ladder on a quiet machine and under a CPU hog, compared.

    python bench/fair_under_load.py [--seconds 600] [--workers 2] [--hog-per-core 4]

A Thebes 2-player ladder of built-in Python bots (random, greedy, mcts-level1: the search bot thinks by its CPU
clock), real sandboxed matches on `--workers` Celery worker processes (solo pools, admission on: matches
wait for a host match slot), PostgreSQL (DATABASE_URL, default database arena_bench_fair) and Redis on a private
queue. This process plays Celery beat's part (matchmaking every 0.5 s). Two runs of `--seconds` each, the same
ladder from scratch: "quiet" (whatever else the machine runs: the load is reported) and "loaded", under a
hog of `--hog-per-core` busy processes per core (bounded by `timeout`, so it stops by itself even if this
process dies). Reported for each run: matches finished, host-void matches (queued again or failed), bot faults
by kind, start-up disqualifications, rated matches with a disqualified seat, the 1-minute load average (min /
median / max, sampled every 5 s), and the fitted ratings with their 95 % intervals; then each bot's drift
between the runs and whether each run's rating lies within the other's interval.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
import uuid
from collections import Counter

os.environ.setdefault("CELERY_BROKER_URL", "redis://127.0.0.1:6379/1")
os.environ.setdefault("ARENA_CELERY_QUEUE", f"arena-bench-{uuid.uuid4().hex[:8]}")
os.environ.setdefault("ARENA_MAX_PENDING", "4")

from _platform_setup import ROOT, enroll_house_bot, reset_platform_tables, setup_django  # noqa: E402
from platform_throughput import _forget_queue, start_workers  # noqa: E402

BOTS = ("random", "greedy", "mcts-level1")


def make_ladder():
    from ladders.models import Ladder

    reset_platform_tables()
    ladder = Ladder.objects.create(slug="thebes-2p", name="Thebes 2p", game="thebes", players=2)
    for name in BOTS:
        enroll_house_bot(f"python-{name}", ROOT / "bots" / "python" / name)
    return ladder


def start_hog(per_core: int, seconds: float) -> list[subprocess.Popen]:
    """`per_core` busy processes per core, each ended by `timeout` after `seconds` whatever happens here."""
    n = per_core * (os.cpu_count() or 1)
    return [subprocess.Popen(["timeout", str(int(seconds)), sys.executable, "-c", "while True: pass"])
            for _ in range(n)]


def run(label: str, seconds: float, workers: int, hog_per_core: int) -> dict:
    from arena_site.celery import app
    from ladders.models import Rating
    from matches.models import Match, Participant
    from matches.ratings import refit_ratings
    from matchmaking.services import matchmake

    ladder = make_ladder()
    app.control.purge()
    hog = start_hog(hog_per_core, seconds + 30) if hog_per_core else []
    processes = start_workers(workers)
    loads = []
    try:
        t0 = time.monotonic()
        next_sample = t0
        while time.monotonic() - t0 < seconds:
            matchmake()
            if time.monotonic() >= next_sample:
                loads.append(os.getloadavg()[0])
                next_sample += 5
            time.sleep(0.5)
    finally:
        for p in processes + hog:
            p.terminate()
        for p in processes + hog:
            try:
                p.wait(timeout=60)
            except subprocess.TimeoutExpired:
                p.kill()
        app.control.purge()
    refit_ratings(ladder.pk, force=True)
    finished = Match.objects.filter(status="finished")
    faults: Counter = Counter()
    startup_dq = 0
    for p in Participant.objects.filter(match__in=finished):
        faults.update(f["kind"] for f in p.faults)
        startup_dq += any(f["kind"] == "startup" for f in p.faults)
    report = {
        "label": label, "finished": finished.count(),
        "void_requeued": sum(Match.objects.values_list("host_voids", flat=True)),
        "failed": Match.objects.filter(status="failed").count(),
        "faults": dict(faults), "startup_dq": startup_dq,
        "rated_with_dq": finished.filter(rated=True, participants__disqualified=True).distinct().count(),
        "load": (min(loads), statistics.median(loads), max(loads)) if loads else None,
        "ratings": {r.bot.name: (r.rating, r.rating_interval or 0.0, r.games)
                    for r in Rating.objects.filter(ladder=ladder).select_related("bot")},
    }
    print(f"{label}: {report['finished']} matches finished in {seconds:.0f} s; host-void (queued again) "
          f"{report['void_requeued']}, failed {report['failed']}; bot faults {report['faults'] or 'none'}; "
          f"start-up disqualifications {startup_dq}; rated matches with a disqualified seat "
          f"{report['rated_with_dq']}; load average (1 min) min/median/max "
          f"{'/'.join(f'{x:.1f}' for x in report['load'] or ())} on {os.cpu_count()} cores", flush=True)
    for name, (rating, interval, games) in sorted(report["ratings"].items()):
        print(f"  {name:20s} {rating:7.0f} ± {interval:4.0f}  ({games} games)", flush=True)
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=600)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--hog-per-core", type=int, default=4)
    args = parser.parse_args()
    setup_django("arena_bench_fair")
    try:
        quiet = run("quiet", args.seconds, args.workers, 0)
        loaded = run(f"loaded ({args.hog_per_core} hog processes per core)", args.seconds, args.workers,
                     args.hog_per_core)
    finally:
        _forget_queue()
    print("drift, loaded - quiet (Elo):")
    for name, (q, qi, _) in sorted(quiet["ratings"].items()):
        if name not in loaded["ratings"]:
            continue
        lo, li, _ = loaded["ratings"][name]
        within = abs(lo - q) <= max(qi, li)
        print(f"  {name:20s} {lo - q:+6.0f}  {'within' if within else 'OUTSIDE'} the intervals (± {qi:.0f} / ± {li:.0f})")


if __name__ == "__main__":
    main()
