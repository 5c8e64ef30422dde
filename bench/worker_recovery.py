"""Recovery after a worker is killed mid-match: seconds from the SIGKILL to the match running again on another
worker, and to its finish (issue 12's target: running again within ~20 s of the kill).

    python bench/worker_recovery.py [--kills 3] [--judge-by pid|heartbeat]

Two real Celery worker processes (solo pools: one match each at a time), PostgreSQL (DATABASE_URL, default
database arena_bench_recovery), Redis (CELERY_BROKER_URL, default redis://127.0.0.1:6379/1) on a private queue,
real sandboxed matches (when the host can sandbox) on a Thebes 2-player ladder of four house bots that take
50 ms a decision (so a match lasts long enough to be killed in the middle). This process plays Celery beat's
part on beat's own schedule (matchmaking every ARENA_MATCHMAKE_EVERY, recovery every ARENA_RECOVER_EVERY: the
production defaults, heartbeat 2 s, stale after 10 s, recovery every 5 s), sending the tasks as beat does. Each round kills the worker of a
match that has been running for 2 s with SIGKILL (it and its bots die at once, releasing nothing) and starts a
replacement worker at once, as compose's restart policy or Celery's prefork pool would.

`--judge-by pid` (default): the recovery task runs on a worker in the killed worker's pid namespace, so the dead
worker is known dead and its match re-sent on the next recovery tick (`arena_site.workers.known_dead`).
`--judge-by heartbeat`: as if recovery ran in another container or machine (here: in this process, with the pid
check off), the match is re-sent only once its heartbeat is stale.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

os.environ.setdefault("CELERY_BROKER_URL", "redis://127.0.0.1:6379/1")
os.environ.setdefault("ARENA_CELERY_QUEUE", f"arena-bench-{uuid.uuid4().hex[:8]}")
os.environ.setdefault("ARENA_MAX_PENDING", "2")

from _platform_setup import ROOT, reset_platform_tables, setup_django  # noqa: E402

SLOW_DECIDE = '''
import time
from arena_bot import Bot, run


class SlowRandomBot(Bot):
    def decide(self, request):
        time.sleep(0.05)
        return self.rng.randrange(len(request.legal_actions))


if __name__ == "__main__":
    run(SlowRandomBot())
'''


def slow_bot() -> Path:
    folder = Path(tempfile.mkdtemp(prefix="arena-bench-slow-")) / "slow"
    shutil.copytree(ROOT / "bots" / "python" / "random", folder, ignore=shutil.ignore_patterns("__pycache__"))
    (folder / "bot.py").write_text(SLOW_DECIDE)
    folder.chmod(0o755)
    folder.parent.chmod(0o755)  # the sandboxed bot's uid must be able to read it
    return folder


def make_ladder(folder: Path):
    from arena.botpkg import load_manifest, package_sha256
    from botregistry.models import Bot, BotVersion
    from botregistry.services import house_user, manifest_dict
    from ladders.models import Ladder
    from ladders.services import enroll

    reset_platform_tables()
    ladder = Ladder.objects.create(slug="thebes-2p", name="Thebes 2p", game="thebes", players=2)
    manifest, sha = load_manifest(folder), package_sha256(folder)
    for i in range(4):  # a bot plays one match at a time: four keep both workers busy
        bot = Bot.objects.create(owner=house_user(), name=f"slow-{i}", game="thebes", builtin=True)
        version = BotVersion.objects.create(bot=bot, number=1, sha256=sha, package_dir=str(folder),
                                            status="ready", runtime="python", manifest=manifest_dict(manifest))
        Bot.objects.filter(pk=bot.pk).update(active_version=version)
        enroll(bot)
    return ladder


def start_worker(logs: Path) -> subprocess.Popen:
    from django.conf import settings

    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "platform"), str(ROOT)])}
    name = f"bench-{uuid.uuid4().hex[:6]}"
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "arena_site", "worker", "--pool=solo", "--loglevel=INFO",
         "-Q", settings.CELERY_TASK_DEFAULT_QUEUE, "-n", f"{name}@%h", "--without-gossip", "--without-mingle"],
        cwd=ROOT / "platform", env=env, stdout=open(logs / f"{name}.log", "wb"), stderr=subprocess.STDOUT,
        start_new_session=True)


class Beat(threading.Thread):
    """Celery beat's two ticks that matter here, on beat's schedule, sent as beat sends them (so they wait in
    the queue behind matches as they would). `in_process`: the recovery tick runs here instead, judging workers
    by their heartbeat only (a beat and worker in another container cannot see the killed worker's pid)."""

    def __init__(self, in_process: bool) -> None:
        super().__init__(daemon=True)
        self.stopped = threading.Event()
        self.in_process = in_process

    def run(self) -> None:
        from django.conf import settings
        from django.db import connection

        from matches import services
        from matches.tasks import recover_stale_matches
        from matchmaking.tasks import matchmake

        schedule = settings.CELERY_BEAT_SCHEDULE
        every = {"matchmake": schedule["matchmake"]["schedule"],
                 "recover": schedule["recover-stale-matches"]["schedule"]}
        due = {name: time.monotonic() for name in every}
        while not self.stopped.wait(0.05):
            for name, at in due.items():
                if time.monotonic() >= at:
                    due[name] = at + every[name]
                    try:
                        if name == "matchmake":
                            matchmake.apply_async(expires=30)
                        elif self.in_process:
                            services.recover_stale()
                        else:
                            recover_stale_matches.apply_async(expires=30)
                    except Exception as exc:
                        print(f"beat {name}: {exc}", file=sys.stderr)
        connection.close()


def one_round(workers: list[subprocess.Popen], logs: Path) -> tuple[float, float]:
    from django.utils import timezone

    from matches.models import Match

    pids = {str(p.pid): p for p in workers if p.poll() is None}
    deadline = time.monotonic() + 180
    while True:
        running = [m for m in Match.objects.filter(status="running", attempts=1)
                   if m.worker.rpartition(":")[2] in pids and m.started_at is not None
                   and (timezone.now() - m.started_at).total_seconds() >= 2.0]
        if running:
            break
        if time.monotonic() > deadline:
            raise SystemExit(f"no match ran for 2 s within 180 s; worker logs in {logs}")
        time.sleep(0.1)
    match = running[0]
    victim = pids[match.worker.rpartition(":")[2]]
    os.killpg(victim.pid, signal.SIGKILL)  # the worker and its sandboxed bots
    killed_at = timezone.now()
    victim.wait()
    workers.remove(victim)
    workers.append(start_worker(logs))  # compose restarts it; a prefork pool replaces a lost child at once
    deadline = time.monotonic() + 180
    while True:
        match.refresh_from_db()
        if match.status == "finished":
            break
        if match.status == "failed" or time.monotonic() > deadline:
            raise SystemExit(f"match {match.pk} did not finish again: {match.status} {match.status_reason}")
        time.sleep(0.2)
    return ((match.started_at - killed_at).total_seconds(), (match.finished_at - killed_at).total_seconds())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=3)
    parser.add_argument("--judge-by", choices=["pid", "heartbeat"], default="pid")
    args = parser.parse_args()
    setup_django("arena_bench_recovery")
    from django.conf import settings

    from arena_site.celery import app
    from arena_site.sandbox_mode import unavailable_reason
    from matches import services

    if args.judge_by == "heartbeat":  # recovery elsewhere: it cannot see the worker's pid
        services.known_dead = lambda worker: False
    recover_every = settings.CELERY_BEAT_SCHEDULE["recover-stale-matches"]["schedule"]
    print(f"sandbox: {'on' if unavailable_reason() is None else 'OFF: ' + str(unavailable_reason())}; "
          f"cores: {os.cpu_count()}; heartbeat {settings.ARENA_HEARTBEAT_SECONDS:g} s, stale after "
          f"{settings.ARENA_STALE_AFTER_SECONDS:g} s, recovery every {recover_every:g} s; "
          f"dead worker judged by its {args.judge_by}", flush=True)
    logs = Path(tempfile.mkdtemp(prefix="arena-bench-recovery-"))
    make_ladder(slow_bot())
    app.control.purge()
    workers = [start_worker(logs) for _ in range(2)]
    beat = Beat(in_process=args.judge_by == "heartbeat")
    beat.start()
    results = []
    try:
        for i in range(args.kills):
            again, done = one_round(workers, logs)
            results.append((again, done))
            print(f"kill {i + 1}: running again {again:.1f} s after the kill, finished {done:.1f} s after it",
                  flush=True)
    finally:
        beat.stopped.set()
        for p in workers:
            os.killpg(p.pid, signal.SIGTERM)
        for p in workers:
            try:
                p.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
        app.control.purge()
        import redis
        queue = settings.CELERY_TASK_DEFAULT_QUEUE
        redis.Redis.from_url(settings.CELERY_BROKER_URL).delete(
            queue, f"_kombu.binding.{queue}", f"_kombu.binding_permanent.{queue}")
    print(f"median over {len(results)} kills: running again after "
          f"{statistics.median(r[0] for r in results):.1f} s (max {max(r[0] for r in results):.1f}), "
          f"finished after {statistics.median(r[1] for r in results):.1f} s")


if __name__ == "__main__":
    main()
