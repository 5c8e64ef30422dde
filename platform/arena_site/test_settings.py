"""Settings for the test suite (`DJANGO_SETTINGS_MODULE` in pyproject.toml): the real PostgreSQL and Redis of
this machine, a private Celery queue and a private storage folder per test run.

The defaults go into the environment before the settings are read, so the Celery worker processes the tests
start inherit exactly the same database, broker, queue and storage. Override with DATABASE_URL /
CELERY_BROKER_URL, e.g. `DATABASE_URL=postgres://postgres@127.0.0.1:5432/mine pytest tests/platform`.
"""

import os
import secrets
import tempfile
import uuid

os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/test")
os.environ.setdefault("CELERY_BROKER_URL", "redis://127.0.0.1:6379/0")
# A queue of our own, so parallel test runs on one Redis never take each other's tasks.
os.environ.setdefault("ARENA_CELERY_QUEUE", f"arena-test-{uuid.uuid4().hex[:12]}")
os.environ.setdefault("ARENA_STORAGE_DIR", tempfile.mkdtemp(prefix="arena-test-storage-"))
# this run's own match slots (arena_site.admission): other runs on the host must not take them
os.environ.setdefault("ARENA_ADMISSION_DIR", tempfile.mkdtemp(prefix="arena-test-admission-"))
# A database URL makes these deployment settings, which need a secret key: a random one per run (no value in the
# source), and plain HTTP, as the test client and the live server speak it.
os.environ.setdefault("ARENA_SECRET_KEY", secrets.token_urlsafe(50))
os.environ.setdefault("ARENA_HTTPS", "0")
# Notifications: the tests' webhook receivers listen on 127.0.0.1 (the SSRF tests turn this off in-process), and
# retries come fast; the worker inherits both.
os.environ.setdefault("ARENA_WEBHOOK_ALLOW_PRIVATE", "1")
os.environ.setdefault("ARENA_WEBHOOK_BACKOFF", "0.2")

from arena_site.settings import *  # noqa: E402,F401,F403
from arena_site.settings import REST_FRAMEWORK  # noqa: E402

DATABASES["default"]["CONN_MAX_AGE"] = 0  # noqa: F405
ALLOWED_HOSTS = ["*"]  # tests send whatever Host they need (pytest-django adds testserver and the live server's)
WHITENOISE_USE_FINDERS = True  # static files found in the apps, as on embedded defaults (no collectstatic)
STATIC_ROOT = None  # nothing collected: WhiteNoise would warn of a missing var/static in every test process
# PBKDF2's deliberate slowness costs ~1 s per account made in a test on this machine.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
# Many tests sign up, log in, upload and challenge from the same address: the rate-limit tests set their own
# rates (tests/platform/test_rate_limits.py).
REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"] = dict.fromkeys(REST_FRAMEWORK.get("DEFAULT_THROTTLE_RATES", {}), "100000/hour")
# Throttle counters in this process only: parallel test runs share one Redis and one client address.
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
# Email in memory (django.core.mail.outbox), in the test process and the worker alike: never an SMTP server.
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
