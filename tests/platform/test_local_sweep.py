"""Each machine sweeps its own working folder (matches.storage.sweep_local): two real Celery workers with folders of
their own each clean theirs when they start and after a task once ARENA_LOCAL_SWEEP_MINUTES have passed, and the
web server cleans its upload staging at start. Only what is older than the grace period goes, so a process
sharing the folder never loses what it is writing."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from platform_helpers import PLATFORM, ROOT

OLD = time.time() - 2 * 3600  # past every grace period


def _database_url() -> str:
    from django.db import connection

    d = connection.settings_dict
    password = f":{d['PASSWORD']}" if d.get("PASSWORD") else ""
    return (f"postgres://{d.get('USER') or 'postgres'}{password}@{d.get('HOST') or '127.0.0.1'}:"
            f"{d.get('PORT') or 5432}/{d['NAME']}")


def litter(local: Path, dead_bot: int, live_bot: int) -> dict[str, list[Path]]:
    """What killed processes left in a working folder (old), beside what live processes are writing (fresh) and a
    live bot's build cache (old but kept). Returns the entries a sweep removes or keeps."""
    old = [local / "staging" / "killed-upload", local / "validation" / "killed",
           local / "package-cache" / ".tmp" / "half.tar.gz", local / "replays" / "tmp" / "999999.1.replay.json.gz.part",
           local / "build-cache" / str(dead_bot)]
    fresh = [local / "staging" / "uploading-now", local / "validation" / "running",
             local / "package-cache" / ".tmp" / "downloading.tar.gz", local / "build-cache" / str(live_bot)]
    for entry in old + fresh:
        if entry.name.endswith((".gz", ".part")):
            entry.parent.mkdir(parents=True, exist_ok=True)
            entry.write_bytes(b"x")
        else:
            entry.mkdir(parents=True, exist_ok=True)
            (entry / "file").write_bytes(b"x")
    for entry in old + fresh[-1:]:  # a live bot's build cache stays however old
        for p in [*entry.rglob("*"), entry]:
            os.utime(p, (OLD, OLD))
    return {"old": old, "fresh": fresh}


class Worker:
    """A real Celery worker (solo pool) consuming a queue of its own, with its own working folder."""

    def __init__(self, local: Path, env: dict[str, str], log: Path):
        self.local, self.queue, self.log = local, env["ARENA_CELERY_QUEUE"], log
        self.name = f"sweep-{uuid.uuid4().hex[:8]}@%h"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "arena_site", "worker", "--pool=solo", "--loglevel=INFO",
             "-Q", self.queue, "-n", self.name, "--without-gossip", "--without-mingle"],
            cwd=PLATFORM, env=env, stdout=open(log, "wb"), stderr=subprocess.STDOUT, start_new_session=True)

    def wait_ready(self) -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            assert self.process.poll() is None, self.log.read_text()[-3000:]
            if "ready." in self.log.read_text(errors="replace"):
                return
            time.sleep(0.2)
        raise AssertionError(f"the worker did not start: {self.log.read_text()[-3000:]}")

    def tasks_done(self) -> int:
        return self.log.read_text(errors="replace").count("succeeded in")

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()


def wait_for(condition, seconds: float = 60) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.2)
    return condition()


@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(180)
def test_each_worker_sweeps_its_own_folder_at_start_and_after_tasks_when_due(settings, tmp_path, make_user):
    from accounts.deletion import delete_account
    from arena_site.celery import app
    from botregistry.models import Bot

    leaver, stayer = make_user(), make_user()
    dead = Bot.objects.create(owner=leaver, name="gone", game="thebes")
    live = Bot.objects.create(owner=stayer, name="here", game="thebes")
    delete_account(leaver)
    base = {k: v for k, v in os.environ.items() if not k.startswith(("ARENA_LOCAL", "ARENA_CELERY_QUEUE"))}
    workers, expected = [], []
    # the first sweeps after every task, the second at most hourly
    for index, minutes in ((1, "0"), (2, "60")):
        local = tmp_path / f"worker-{index}" / "local"
        expected.append(litter(local, dead.pk, live.pk))
        env = {**base, "DATABASE_URL": _database_url(), "CELERY_BROKER_URL": settings.CELERY_BROKER_URL,
               "ARENA_CELERY_QUEUE": f"sweep-test-{uuid.uuid4().hex[:12]}", "ARENA_LOCAL_DIR": str(local),
               "ARENA_STORAGE_DIR": str(tmp_path / f"worker-{index}" / "storage"),
               "ARENA_LOCAL_SWEEP_MINUTES": minutes, "PYTHONPATH": os.pathsep.join([str(PLATFORM), str(ROOT)])}
        workers.append(Worker(local, env, tmp_path / f"worker-{index}.log"))
    try:
        for worker in workers:
            worker.wait_ready()
        for litter_of in expected:
            old = litter_of["old"]
            assert wait_for(lambda old=old: not any(p.exists() for p in old), 30), [p for p in old if p.exists()]
            assert all(p.exists() for p in litter_of["fresh"])  # what live processes write stays

        # More litter, then one task each: only the worker whose sweep is due sweeps again.
        again = [litter(worker.local, dead.pk, live.pk) for worker in workers]
        for worker in workers:
            app.send_task("matches.tasks.refit_ratings", queue=worker.queue)
        assert wait_for(lambda: all(worker.tasks_done() >= 1 for worker in workers))
        assert wait_for(lambda: not any(p.exists() for p in again[0]["old"]), 30)
        assert all(p.exists() for p in again[0]["fresh"])
        assert all(p.exists() for p in again[1]["old"])  # swept at start, not due for an hour
    finally:
        for worker in workers:
            worker.stop()
            app.control.purge()


def test_the_web_server_sweeps_its_upload_staging_at_start(tmp_path):
    local = tmp_path / "web-local"
    old, fresh = local / "staging" / "killed-upload", local / "staging" / "uploading-now"
    for folder in (old, fresh):
        (folder / "package").mkdir(parents=True)
        (folder / "package" / "bot.py").write_text("x")
    for p in [*old.rglob("*"), old]:
        os.utime(p, (OLD, OLD))
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "arena_site.test_settings", "ARENA_LOCAL_DIR": str(local),
           "PYTHONPATH": os.pathsep.join([str(PLATFORM), str(ROOT)])}
    subprocess.run([sys.executable, "-c", "import arena_site.wsgi"], cwd=PLATFORM, env=env, check=True, timeout=60)
    assert not old.exists() and (fresh / "package" / "bot.py").exists()
