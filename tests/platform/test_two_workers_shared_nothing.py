"""Arena on many machines (issue 12): two real Celery workers that share nothing but the database, the broker
and object storage (a real S3 endpoint: moto's server mode) — each its own storage folder, working folder,
package cache, sandbox state and uid range — validate uploads and play a ladder; the web (this test process)
stores uploads in and serves replays from the bucket."""

from __future__ import annotations

import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import pytest
from object_storage import use_s3
from platform_helpers import PLATFORM, ROOT, bot_files, upload, wait_for, zip_bytes

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.sandbox, pytest.mark.timeout(300)]


class Worker:
    """One `celery worker` process (solo pool) with its own folders under `home`."""

    def __init__(self, home: Path, env: dict[str, str]):
        self.home, self.env = home, env
        self.log_path = home / "worker.log"
        self.name = f"two-{uuid.uuid4().hex[:8]}@%h"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "arena_site", "worker", "--pool=solo", "--loglevel=INFO",
             "-Q", env["ARENA_CELERY_QUEUE"], "-n", self.name, "--without-gossip", "--without-mingle"],
            cwd=PLATFORM, env=env, stdout=open(self.log_path, "wb"), stderr=subprocess.STDOUT,
            start_new_session=True)

    def wait_ready(self) -> None:
        from arena_site.celery import app

        hostname = self.name.replace("%h", __import__("socket").gethostname())
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the worker exited: {self.log_path.read_text(errors='replace')[-3000:]}")
            if app.control.ping(destination=[hostname], timeout=0.5):
                return
        raise RuntimeError("the worker did not start")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, 9)
                self.process.wait()


def _database_url() -> str:
    from django.db import connection

    d = connection.settings_dict
    password = f":{d['PASSWORD']}" if d.get("PASSWORD") else ""
    return f"postgres://{d.get('USER') or 'postgres'}{password}@{d.get('HOST') or '127.0.0.1'}:{d.get('PORT') or 5432}/{d['NAME']}"


@pytest.fixture
def two_workers(celery_worker, s3_endpoint, settings, tmp_path):
    """Two workers on one new bucket; the session's own worker (shared storage folder) is stopped meanwhile, so
    that only these two take the queue's tasks."""
    from arena_site.celery import app

    celery_worker.stop()
    bucket = s3_endpoint.bucket()
    use_s3(settings, s3_endpoint, bucket)
    settings.STORAGE_DIR = tmp_path / "web" / "storage"  # the web's own disk: nothing may land there
    settings.ARENA_LOCAL_DIR = tmp_path / "web" / "local"
    settings.ARENA_SANDBOX = "worker"  # the web accepts uploads; the workers sandbox them
    base = {k: v for k, v in os.environ.items() if not k.startswith(("ARENA_S3_", "ARENA_STORAGE", "ARENA_LOCAL"))}
    workers = []
    homes = []
    for index in (1, 2):
        # outside pytest's 0700 folders: the sandboxed bots' uids reach their packages and sandbox state here
        home = Path(tempfile.mkdtemp(prefix=f"arena-two-workers-{index}-"))
        home.chmod(0o755)
        homes.append(home)
        env = {**base, **s3_endpoint.env(bucket),
               "DATABASE_URL": _database_url(), "CELERY_BROKER_URL": settings.CELERY_BROKER_URL,
               "ARENA_CELERY_QUEUE": settings.CELERY_TASK_DEFAULT_QUEUE,
               "ARENA_STORAGE_DIR": str(home / "storage"), "ARENA_LOCAL_DIR": str(home / "local"),
               "ARENA_PACKAGE_CACHE_DIR": str(home / "cache"), "ARENA_SANDBOX_DIR": str(home / "sandbox"),
               "ARENA_SANDBOX_UID_BASE": str(2_910_000 + 100_000 * index),
               "ARENA_HEARTBEAT_SECONDS": "1", "ARENA_STALE_AFTER_SECONDS": "8",
               # matchmaking (run by a worker) queues several matches at once, so both workers have one to take
               "ARENA_MAX_PENDING": "6",
               "PYTHONPATH": os.pathsep.join([str(PLATFORM), str(ROOT)])}
        workers.append(Worker(home, env))
    try:
        for worker in workers:
            worker.wait_ready()
        yield bucket, workers
    finally:
        for worker in workers:
            worker.stop()
        app.control.purge()
        celery_worker.start()
        for home in homes:
            shutil.rmtree(home, ignore_errors=True)


def files_under(folder: Path, pattern: str) -> list[Path]:
    return [p for p in folder.rglob(pattern) if p.is_file()] if folder.exists() else []


def test_two_workers_sharing_only_database_broker_and_s3_play_a_ladder(two_workers, s3_endpoint, client_for,
                                                                      make_user, anon, tmp_path):
    from botregistry.models import BotVersion
    from ladders.models import Ladder
    from matches.models import Match
    from matchmaking.tasks import matchmake

    bucket, workers = two_workers
    Ladder.objects.create(slug="thebes-2p", name="Thebes 2p", game="thebes", players=2)
    versions = []
    for owner in ("ann", "ben", "cat", "dan"):  # four bots: two matches of a 2p ladder at once
        client = client_for(make_user(owner))
        bot = client.post("/api/bots/", {"name": f"{owner}-bot", "game": "thebes"}, format="json").json()
        response = upload(client, bot["id"], zip_bytes(bot_files(name=f"{owner}-bot")))
        assert response.status_code == 201, response.content
        versions.append(response.json()["id"])

    wait_for(lambda: not BotVersion.objects.filter(pk__in=versions, status__in=["pending", "validating"]).exists(),
             150, 0.5, "validation")
    ready = list(BotVersion.objects.filter(pk__in=versions))
    assert all(v.status == "ready" and v.package_hash for v in ready), [(v.status, v.status_reason) for v in ready]
    assert all(f"packages/{v.package_hash}.tar.gz" in s3_endpoint.keys(bucket, "packages/") for v in ready)

    def both_played():
        matches = Match.objects.filter(ladder__slug="thebes-2p")
        workers_seen = {w.rsplit(":", 1)[-1] for w in matches.filter(status="finished").values_list("worker", flat=True)}
        if len(workers_seen) >= 2 and matches.filter(status="finished").count() >= 6:
            return True
        if not matches.filter(status__in=["queued", "running"]).exists():
            matchmake.delay()  # what beat does every few seconds
        return False

    try:
        wait_for(both_played, 180, 1.0, "both workers to play ladder matches")
    except AssertionError:
        seen = list(Match.objects.values_list("pk", "status", "worker", "status_reason"))
        logs = "\n".join(w.log_path.read_text(errors="replace")[-3000:] for w in workers)
        raise AssertionError(f"matches: {seen}\n{logs}") from None
    wait_for(lambda: not Match.objects.filter(ladder__slug="thebes-2p", status__in=["queued", "running"]).exists(),
             90, 0.5, "the last matches to end")
    matches = list(Match.objects.filter(ladder__slug="thebes-2p").prefetch_related("participants__version"))
    assert matches and all(m.status == "finished" and m.replay_path and m.attempts == 1 for m in matches), \
        [(m.pk, m.status, m.status_reason) for m in matches]

    # every replay is in the bucket and downloads through the web (streamed from S3)
    assert set(s3_endpoint.keys(bucket, "replays/")) >= {m.replay_path for m in matches}
    for m in matches[:4]:
        response = anon.get(f"/api/matches/{m.pk}/replay/")
        assert response.status_code == 200
        replay = json.loads(gzip.decompress(b"".join(response.streaming_content)))
        assert replay["header"]["seed"] == m.seed
    # the viewer's frames and the bots' logs (the owner's) are read from the bucket too
    m = matches[0]
    frames = anon.get(f"/matches/{m.pk}/frames.json?seat=all")
    assert frames.status_code == 200 and json.loads(frames.content)["frames"]
    owner = m.participants.all()[0].bot.owner
    logs = client_for(owner).get(f"/api/matches/{m.pk}/logs/")
    assert logs.status_code == 200 and [s["output_visible"] for s in logs.json()["seats"]] == [True]

    # shared nothing: no replay stays on a worker's disk or reaches the web's, and each worker's package cache
    # holds only packages of the matches (and validations) it ran itself
    pids = {}
    for worker in workers:
        pids[worker] = str(worker.process.pid)
        assert files_under(worker.home, "*.replay.json.gz") == [] and files_under(worker.home, "*.logs.json.gz") == []
        assert not files_under(worker.home / "storage", "*")  # its storage folder is never used with S3
    assert not files_under(tmp_path / "web", "*.replay.json.gz") and not files_under(tmp_path / "web", "bot.toml")
    for worker in workers:
        played = [m for m in matches if m.worker.rsplit(":", 1)[-1] == pids[worker]]
        assert played, f"worker {pids[worker]} played no match"
        used = {p.version.package_hash for m in played for p in m.participants.all()}
        cached = {p.name for p in (worker.home / "cache").iterdir() if len(p.name) == 64}
        assert cached and cached <= used
