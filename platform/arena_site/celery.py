"""The Celery app of the platform: configuration from Django settings (`CELERY_*`), tasks found in the apps.

Run a worker with `celery -A arena_site worker` and the scheduler with `celery -A arena_site beat` from
`platform/` (or with `--workdir platform`); `manage.py up` does both for you.
"""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arena_site.settings")

app = Celery("arena_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


def _add_steps() -> None:
    from arena_site.worker_alive import AliveMark

    app.steps["worker"].add(AliveMark)  # every worker's mark of life (docker-compose's healthcheck)


_add_steps()
