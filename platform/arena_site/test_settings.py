"""Settings for the test suite (`DJANGO_SETTINGS_MODULE` in pyproject.toml): the real PostgreSQL and Redis of
this machine, a private Celery queue and a private storage folder per test run.

The defaults go into the environment before the settings are read, so the Celery worker processes the tests
start inherit exactly the same database, broker, queue and storage. Override with DATABASE_URL /
CELERY_BROKER_URL, e.g. `DATABASE_URL=postgres://postgres@127.0.0.1:5432/mine pytest tests/platform`.
"""

import os
import tempfile
import uuid

os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/test")
os.environ.setdefault("CELERY_BROKER_URL", "redis://127.0.0.1:6379/0")
# A queue of our own, so parallel test runs on one Redis never take each other's tasks.
os.environ.setdefault("ARENA_CELERY_QUEUE", f"arena-test-{uuid.uuid4().hex[:12]}")
os.environ.setdefault("ARENA_STORAGE_DIR", tempfile.mkdtemp(prefix="arena-test-storage-"))

from arena_site.settings import *  # noqa: E402,F401,F403
from arena_site.settings import REST_FRAMEWORK  # noqa: E402

DATABASES["default"]["CONN_MAX_AGE"] = 0  # noqa: F405
# PBKDF2's deliberate slowness costs ~1 s per account made in a test on this machine.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
# Many tests sign up from the same address.
REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"] = {**REST_FRAMEWORK.get("DEFAULT_THROTTLE_RATES", {}),
                                           "signup": "100000/hour"}
