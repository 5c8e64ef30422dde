"""Test-wide defaults: the real PostgreSQL and Redis of this machine, a private Celery queue and a private
storage folder per test run.

pytest-django loads the Django settings before this file is imported, so the defaults are applied to the
loaded settings here as well as to the environment (which the Celery worker subprocesses inherit).
Override with DATABASE_URL / CELERY_BROKER_URL, e.g. `DATABASE_URL=postgres://postgres@127.0.0.1:5432/mine`.
"""

from __future__ import annotations

import os
import tempfile
import uuid

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/test"
DEFAULT_BROKER_URL = "redis://127.0.0.1:6379/0"

os.environ.setdefault("DATABASE_URL", DEFAULT_DATABASE_URL)
os.environ.setdefault("CELERY_BROKER_URL", DEFAULT_BROKER_URL)
# A queue of our own, so parallel test runs on one Redis never take each other's tasks.
os.environ.setdefault("ARENA_CELERY_QUEUE", f"arena-test-{uuid.uuid4().hex[:12]}")
os.environ.setdefault("ARENA_STORAGE_DIR", tempfile.mkdtemp(prefix="arena-test-storage-"))


def _apply_to_loaded_settings() -> None:
    try:
        import dj_database_url
        from django.conf import settings
    except ImportError:
        return
    if not settings.configured:
        return
    from pathlib import Path

    settings.DATABASES["default"] = dj_database_url.parse(os.environ["DATABASE_URL"], conn_max_age=0)
    settings.DATABASES["default"].setdefault("TEST", {})
    settings.CELERY_BROKER_URL = os.environ["CELERY_BROKER_URL"]
    settings.CELERY_TASK_DEFAULT_QUEUE = os.environ["ARENA_CELERY_QUEUE"]
    settings.STORAGE_DIR = Path(os.environ["ARENA_STORAGE_DIR"])
    # PBKDF2's deliberate slowness costs ~1 s per account made in a test on this machine.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # Many tests sign up from the same address; in place, so DRF sees it whenever it reads its settings.
    settings.REST_FRAMEWORK.setdefault("DEFAULT_THROTTLE_RATES", {})["signup"] = "100000/hour"
    # Django may already have made connection objects from the settings as first loaded (SQLite when no
    # DATABASE_URL was set): drop them and the handler's cached settings so DATABASES is read afresh.
    from django.db import connections
    connections.__dict__.pop("settings", None)
    for alias in list(settings.DATABASES):
        try:
            delattr(connections._connections, alias)
        except AttributeError:
            pass
    try:
        from arena_site.celery import app
    except ImportError:
        return
    app.conf.broker_url = settings.CELERY_BROKER_URL
    app.conf.task_default_queue = settings.CELERY_TASK_DEFAULT_QUEUE


_apply_to_loaded_settings()
