"""Settings come from the environment, with embedded defaults that need nothing installed."""

import json
import os
import subprocess
import sys

from platform_helpers import PLATFORM, ROOT

PROBE = """
import json
from django.conf import settings
import django
django.setup()
from arena_site.celery import app
print(json.dumps({
    "db": settings.DATABASES["default"]["ENGINE"], "db_name": str(settings.DATABASES["default"]["NAME"]),
    "broker": settings.CELERY_BROKER_URL, "sandbox": settings.ARENA_SANDBOX, "storage": str(settings.STORAGE_DIR),
    "memory": settings.ARENA_LIMITS["memory_mb"], "debug": settings.DEBUG, "secret": settings.SECRET_KEY,
    "acks_late": app.conf.task_acks_late, "reject_lost": app.conf.task_reject_on_worker_lost,
    "prefetch": app.conf.worker_prefetch_multiplier,
    "beat": sorted(entry["task"] for entry in app.conf.beat_schedule.values()),
    "ladders": settings.ARENA_LADDERS, "conn_checks": settings.DATABASES["default"].get("CONN_HEALTH_CHECKS"),
}))
"""


def settings_with(env: dict[str, str]) -> dict:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("ARENA_", "DATABASE_URL", "CELERY_"))}
    clean.update(env, DJANGO_SETTINGS_MODULE="arena_site.settings",
                 PYTHONPATH=os.pathsep.join([str(PLATFORM), str(ROOT)]))
    out = subprocess.run([sys.executable, "-c", PROBE], env=clean, capture_output=True, text=True, check=True,
                         cwd=ROOT)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_embedded_defaults(tmp_path):
    s = settings_with({"ARENA_VAR_DIR": str(tmp_path)})
    assert s["db"] == "django.db.backends.sqlite3" and s["db_name"] == str(tmp_path / "arena.sqlite3")
    assert s["broker"] == f"redis+socket://{tmp_path / 'redis.sock'}"
    assert s["storage"] == str(tmp_path / "storage") and s["sandbox"] == "auto"
    assert s["acks_late"] and s["reject_lost"] and s["prefetch"] == 1
    assert {"matchmaking.tasks.matchmake", "matches.tasks.recover_stale_matches"} <= set(s["beat"])
    assert s["ladders"] == [["thebes", 2], ["thebes", 4], ["minos", 2], ["minos", 4]]


def test_production_from_environment(tmp_path):
    s = settings_with({"DATABASE_URL": "postgres://arena:pw@db:5432/arena", "CELERY_BROKER_URL": "redis://r:6379/0",
                       "ARENA_SANDBOX": "ON", "ARENA_MEMORY_MB": "256", "ARENA_DEBUG": "0",
                       "ARENA_SECRET_KEY": "s3cret", "ARENA_STORAGE_DIR": str(tmp_path),
                       "ARENA_LADDERS": "thebes:2, thebes:4"})
    assert s["db"] == "django.db.backends.postgresql" and s["db_name"] == "arena"
    assert s["broker"] == "redis://r:6379/0" and s["sandbox"] == "on" and s["memory"] == 256
    assert s["debug"] is False and s["secret"] == "s3cret" and s["storage"] == str(tmp_path)
    assert s["ladders"] == [["thebes", 2], ["thebes", 4]]  # the others paused (ladders.services.ensure_ladders)
    # a restarted database: each kept connection is checked before a request reuses it (issue 24: 500s otherwise)
    assert s["conn_checks"] is True


def test_beat_tasks_are_registered():
    from arena_site.celery import app

    app.loader.import_default_modules()
    for entry in app.conf.beat_schedule.values():
        assert entry["task"] in app.tasks
    assert {"matches.tasks.run_match", "botregistry.tasks.validate_version"} <= set(app.tasks)
