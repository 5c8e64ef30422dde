"""Ladder throughput: finished matches per minute with one and with two Celery worker processes.

    python bench/platform_throughput.py [--seconds 60] [--bots 8] [--workers 1 2] [--decide-ms 0]

A Thebes 2-player ladder of `--bots` copies of the built-in Python random bot (house bots, so any two may
meet), real sandboxed matches (when the host can sandbox), PostgreSQL (DATABASE_URL, default database
arena_bench_throughput) and Redis (CELERY_BROKER_URL, default redis://127.0.0.1:6379/1) on a private queue.
This process plays Celery beat's part, calling matchmaking every 0.5 s. Each worker process is a solo pool
(one match at a time), so N processes = N matches at once. After a warm-up (first match finished) it counts
the matches finished during the window. `--decide-ms N`: the bots sleep N ms before each decision (bots that
think without using the CPU: what more workers buy when the machine's cores are not the limit).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
import uuid

os.environ.setdefault("CELERY_BROKER_URL", "redis://127.0.0.1:6379/1")
os.environ.setdefault("ARENA_CELERY_QUEUE", f"arena-bench-{uuid.uuid4().hex[:8]}")
os.environ.setdefault("ARENA_MAX_PENDING", "4")

from _platform_setup import ROOT, enroll_house_bot, reset_platform_tables, setup_django  # noqa: E402


def thinking_bot(decide_ms: int):
    """The Python random bot, sleeping `decide_ms` before each decision, in a folder of its own."""
    import shutil
    import tempfile
    from pathlib import Path

    folder = Path(tempfile.mkdtemp(prefix="arena-bench-thinking-")) / "bot"
    shutil.copytree(ROOT / "bots" / "python" / "random", folder, ignore=shutil.ignore_patterns("__pycache__"))
    (folder / "bot.py").write_text(
        "import time\nfrom arena_bot import Bot, run\n\n\nclass Thinking(Bot):\n    def decide(self, request):\n"
        f"        time.sleep({decide_ms / 1000})\n        return self.rng.randrange(len(request.legal_actions))\n\n\n"
        "run(Thinking())\n")
    folder.chmod(0o755)
    folder.parent.chmod(0o755)  # readable by the sandboxed bot's uid
    return folder


def make_ladder(bots: int, decide_ms: int = 0):
    from ladders.models import Ladder

    reset_platform_tables()
    ladder = Ladder.objects.create(slug="thebes-2p", name="Thebes 2p", game="thebes", players=2)
    folder = thinking_bot(decide_ms) if decide_ms else ROOT / "bots" / "python" / "random"
    for i in range(bots):
        enroll_house_bot(f"random-{i}", folder)
    return ladder


def start_workers(n: int) -> list[subprocess.Popen]:
    from django.conf import settings

    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "platform"), str(ROOT)])}
    return [subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "arena_site", "worker", "--pool=solo", "--loglevel=WARNING",
         "-Q", settings.CELERY_TASK_DEFAULT_QUEUE, "-n", f"bench{i}-{uuid.uuid4().hex[:6]}@%h",
         "--without-gossip", "--without-mingle"],
        cwd=ROOT / "platform", env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for i in range(n)]


def run(workers: int, seconds: float, bots: int, decide_ms: int = 0) -> float:
    from arena_site.celery import app
    from matches.models import Match
    from matchmaking.services import matchmake

    make_ladder(bots, decide_ms)
    app.control.purge()
    processes = start_workers(workers)
    try:
        deadline = time.monotonic() + 120
        while not Match.objects.filter(status="finished").exists():  # warm-up: workers up, first match done
            if time.monotonic() > deadline:
                raise SystemExit("no match finished within 120 s: is the worker able to run bots?")
            matchmake()
            time.sleep(0.5)
        start_count, t0 = Match.objects.filter(status="finished").count(), time.monotonic()
        while time.monotonic() - t0 < seconds:
            matchmake()
            time.sleep(0.5)
        finished = Match.objects.filter(status="finished").count() - start_count
        elapsed = time.monotonic() - t0
        failed = Match.objects.filter(status="failed").count()
        durations = sorted((m.finished_at - m.started_at).total_seconds()
                           for m in Match.objects.filter(status="finished"))
    finally:
        for p in processes:
            p.terminate()
        for p in processes:
            try:
                p.wait(timeout=60)
            except subprocess.TimeoutExpired:
                p.kill()
        app.control.purge()
    rate = finished * 60 / elapsed
    print(f"{workers} worker process(es): {finished} matches in {elapsed:.0f} s = {rate:.1f} matches/min; "
          f"one match takes {durations[len(durations) // 2]:.2f} s (median)"
          + (f" ({failed} failed)" if failed else ""), flush=True)
    return rate


def _forget_queue() -> None:
    """Remove the private queue's keys from Redis."""
    import redis
    from django.conf import settings

    queue = settings.CELERY_TASK_DEFAULT_QUEUE
    redis.Redis.from_url(settings.CELERY_BROKER_URL).delete(
        queue, f"_kombu.binding.{queue}", f"_kombu.binding_permanent.{queue}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--bots", type=int, default=8)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--decide-ms", type=int, default=0, help="bots sleep this long before each decision")
    args = parser.parse_args()
    setup_django("arena_bench_throughput")
    from arena_site.sandbox_mode import unavailable_reason
    print(f"sandbox: {'on' if unavailable_reason() is None else 'OFF: ' + str(unavailable_reason())}; "
          f"cores: {os.cpu_count()}", flush=True)
    try:
        rates = {n: run(n, args.seconds, args.bots, args.decide_ms) for n in args.workers}
    finally:
        _forget_queue()
    if 1 in rates and len(rates) > 1:
        for n, rate in rates.items():
            if n != 1:
                print(f"scaling {n} vs 1 worker: x{rate / rates[1]:.2f}")


if __name__ == "__main__":
    main()
