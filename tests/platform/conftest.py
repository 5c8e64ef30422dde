"""Fixtures of the platform tests: API clients with accounts, bot archives, and a real Celery worker process
that uses the test database.

The worker is a subprocess (`celery worker --pool=solo`) started once per session on the private test queue;
tests that need it are `transaction=True` so their rows are committed and visible to it.
"""

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

# --- accounts and API clients ---------------------------------------------------------------------------------

@pytest.fixture
def make_user(db):
    """A user with an API token; the token's key (stored hashed) is kept on the object as `api_key`."""
    from django.contrib.auth import get_user_model

    from accounts import tokens

    def make(username: str | None = None):
        user = get_user_model().objects.create_user(username or f"u{uuid.uuid4().hex[:8]}", "", "pw-123456789")
        user.api_key = tokens.issue(user)
        return user
    return make


def api_key_of(user) -> str:
    """The user's API key: the one `make_user` made, else a new one (keys are stored hashed: none to read back)."""
    from accounts import tokens

    if getattr(user, "api_key", None) is None:
        user.api_key = tokens.issue(user)
    return user.api_key


@pytest.fixture
def client_for():
    from rest_framework.test import APIClient

    def make(user=None) -> APIClient:
        client = APIClient()
        if user is not None:
            client.credentials(HTTP_AUTHORIZATION=f"Token {api_key_of(user)}")
        return client
    return make


@pytest.fixture
def anon(client_for):
    return client_for()


@pytest.fixture
def finish():
    """finish(match, strength): record a result in which the bot with the higher strength ranks better (through
    the platform's own `record_result`, as a worker would); tournaments' and competitions' tests."""
    from matches.services import record_result

    def run(match, strength: dict[int, float]):
        parts = list(match.participants.order_by("seat"))
        values = [strength[p.bot_id] for p in parts]
        order = sorted(range(len(parts)), key=lambda i: -values[i])
        ranks = [order.index(i) + 1 for i in range(len(parts))]
        result = {"game": match.game, "params": match.params, "seed": match.seed, "engine_version": "test",
                  "seats": [{"seat": p.seat, "name": p.bot.name, "sha256": "", "score": float(values[i]),
                             "rank": ranks[i], "disqualified": False, "faults": [], "time_ms": 1.0,
                             "decisions": 1} for i, p in enumerate(parts)]}
        assert record_result(match.pk, result)
    return run


# --- the Celery worker ----------------------------------------------------------------------------------------

class WorkerProcess:
    """A real `celery worker` subprocess on the test database and the private test queue."""

    def __init__(self, env: dict[str, str], log_dir: Path):
        self.env = env
        self.log_dir = log_dir
        self.process: subprocess.Popen | None = None
        self.starts = 0

    def start(self) -> None:
        from arena_site.celery import app

        self.starts += 1
        name = f"test-{uuid.uuid4().hex[:8]}@%h"
        log = open(self.log_dir / f"worker-{self.starts}.log", "wb")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "arena_site", "worker", "--pool=solo", "--loglevel=INFO",
             # the matches' queue and the notifications' (settings.ARENA_NOTIFY_QUEUE): one worker for both here
             # and the people's matches' (settings.ARENA_HUMAN_QUEUE)
             "-Q", f"{self.env['ARENA_CELERY_QUEUE']},{self.env['ARENA_CELERY_QUEUE']}-notify,"
                   f"{self.env['ARENA_CELERY_QUEUE']}-human", "-n", name,
             "--without-gossip", "--without-mingle"],
            cwd=PLATFORM, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        hostname = name.replace("%h", __import__("socket").gethostname())
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the worker exited: {self.log_text()[-3000:]}")
            if app.control.ping(destination=[hostname], timeout=0.5):
                return
        raise RuntimeError(f"the worker did not start: {self.log_text()[-3000:]}")

    def log_text(self) -> str:
        return (self.log_dir / f"worker-{self.starts}.log").read_text(errors="replace")

    def kill(self) -> None:
        """SIGKILL the worker and everything it started (as a machine losing it would)."""
        assert self.process is not None
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def stop(self) -> None:
        """A warm shutdown (SIGTERM: the task in progress may finish) for 5 s, then a cold one (SIGQUIT: the task
        is stopped, its referee's cleanup closing its bots) for 10 s, then SIGKILL to its process group. A run
        whose match a test's teardown deleted plays on until its end (its outcome discarded): a warm shutdown alone
        waited 20 s for it at the end of the suite."""
        if self.process is None or self.process.poll() is not None:
            return
        for sig, wait_s in ((signal.SIGTERM, 5), (signal.SIGQUIT, 10)):
            self.process.send_signal(sig)
            try:
                self.process.wait(timeout=wait_s)
                return
            except subprocess.TimeoutExpired:
                pass
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()


def _database_url(settings_dict: dict) -> str:
    user = settings_dict.get("USER") or "postgres"
    password = f":{settings_dict['PASSWORD']}" if settings_dict.get("PASSWORD") else ""
    host = settings_dict.get("HOST") or "127.0.0.1"
    port = settings_dict.get("PORT") or 5432
    return f"postgres://{user}{password}@{host}:{port}/{settings_dict['NAME']}"


@pytest.fixture(scope="session")
def celery_worker(django_db_setup, django_db_blocker, tmp_path_factory):
    """A running Celery worker (solo pool) bound to the test database. Restartable: `.kill()`, `.start()`."""
    from django.conf import settings
    from django.db import connection

    from arena_site.celery import app

    with django_db_blocker.unblock():
        db_url = _database_url(connection.settings_dict)
    app.control.purge()  # drop what earlier tests sent to the queue while no worker listened
    env = {**os.environ,
           "DATABASE_URL": db_url,
           "CELERY_BROKER_URL": settings.CELERY_BROKER_URL,
           "ARENA_CELERY_QUEUE": settings.CELERY_TASK_DEFAULT_QUEUE,
           "ARENA_STORAGE_DIR": str(settings.STORAGE_DIR),
           "ARENA_HEARTBEAT_SECONDS": "1",
           "ARENA_STALE_AFTER_SECONDS": "4",
           "ARENA_HOST_VOID_DELAY_SECONDS": "3",  # a void match is queued again 3 s later (× the voids so far)
           "PYTHONPATH": os.pathsep.join([str(PLATFORM), str(ROOT)])}
    worker = WorkerProcess(env, tmp_path_factory.mktemp("worker-logs"))
    worker.start()
    yield worker
    worker.stop()
    app.control.purge()
    for queue in (settings.CELERY_TASK_DEFAULT_QUEUE, settings.ARENA_NOTIFY_QUEUE, settings.ARENA_HUMAN_QUEUE):
        _forget_unacked(settings.CELERY_BROKER_URL, queue)


def resign_people_of_unfinished_matches() -> int:
    """Every person seated in a match of people that is not over resigns (matches.people.resign): the referee puts
    their seats out at once and its bots finish the game quickly, instead of waiting on the people's clocks. How
    many seats resigned. Run after every test that used the worker (`pytest_runtest_teardown` below), before its
    rows are flushed: one failed test must not leave a match holding the session's solo worker for minutes."""
    from matches import live, people
    from matches.models import Match

    resigned = 0
    conn = live.client()
    try:
        for match in Match.objects.filter(kind=Match.Kind.HUMAN).exclude(
                status__in=[Match.Status.FINISHED, Match.Status.FAILED, Match.Status.CANCELLED]):
            for seat in match.people or {}:
                if people.resign(match.pk, int(seat), conn):
                    resigned += 1
                conn.expire(people.resign_key(match.pk, int(seat)), 600)  # a match never run leaves nothing long
    finally:
        conn.close()
    return resigned


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_teardown(item, nextitem):
    """Before a worker test's fixtures are torn down (its database rows still there): its people resign."""
    if "celery_worker" in getattr(item, "fixturenames", ()):
        try:
            resign_people_of_unfinished_matches()
        except Exception as exc:  # a test whose database is already gone: nothing of it can be waiting
            print(f"people's matches not resigned at teardown: {exc!r}")


def _forget_unacked(broker_url: str, queue: str) -> None:
    """Drop what a killed worker left unacknowledged on our private queue: kombu would hand it back to this
    queue an hour later, and nobody listens to it any more."""
    import json

    import redis

    client = redis.Redis.from_url(broker_url)
    for tag, raw in client.hgetall("unacked").items():
        try:
            routing_key = json.loads(raw)[2]
        except (ValueError, IndexError, TypeError):
            continue
        if routing_key == queue:
            client.hdel("unacked", tag)
            client.zrem("unacked_index", tag)
    client.delete(f"_kombu.binding.{queue}", f"_kombu.binding_permanent.{queue}", queue)


@pytest.fixture
def stale_after(settings):
    """The test process sees heartbeats as stale after the same 4 s as the test worker."""
    settings.ARENA_STALE_AFTER_SECONDS = 4
    return 4


@pytest.fixture(autouse=True)
def _fresh_sandbox_mode():
    """`sandbox_mode.unavailable_reason` is cached per process; tests that change ARENA_SANDBOX need it fresh."""
    from arena_site.sandbox_mode import unavailable_reason
    unavailable_reason.cache_clear()
    yield
    unavailable_reason.cache_clear()


@pytest.fixture(scope="session")
def s3_endpoint(tmp_path_factory):
    """A real HTTP S3 endpoint (moto's server mode in a subprocess on 127.0.0.1; tests/platform/object_storage.py);
    each test makes its own bucket with `.bucket()`."""
    from object_storage import S3Endpoint

    endpoint = S3Endpoint(tmp_path_factory.mktemp("s3"))
    yield endpoint
    endpoint.stop()
