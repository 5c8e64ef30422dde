"""A Celery worker's mark of life: `<ARENA_VAR_DIR>/worker.alive`, rewritten every `MARK_SECONDS` by a timer of
the worker's own main loop (a bootstep, added to the app in arena_site/celery.py), which docker-compose's
healthcheck reads (`health.py alive /data/worker.alive`). A worker whose main process stops turning (hung, or
gone) stops marking, and turns unhealthy ALIVE_STALE_SECONDS later. Cheaper than `celery inspect ping` every
minute (a whole Celery client started in the container, and a broker round trip that a busy host or a broker
restart makes fail without anything wrong with the worker)."""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any

from celery import bootsteps

log = logging.getLogger("arena.platform")

#: Seconds between two marks.
MARK_SECONDS = 10.0


def mark_alive(path: Path) -> None:
    """Rewrite the mark's time (making it, and its folder, when missing). A mark that cannot be written is logged,
    never raised: the loop that marks has its own work to do."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.touch()
    except OSError as exc:
        log.warning("cannot write the mark of life %s: %s", path, exc)


def worker_mark() -> Path:
    from django.conf import settings

    return Path(os.fspath(settings.VAR_DIR)) / "worker.alive"


class AliveMark(bootsteps.StartStopStep):
    """Marks `worker_mark()` at start, then every MARK_SECONDS from the worker's timer."""

    requires = ("celery.worker.components:Timer",)

    def __init__(self, parent: Any, **kwargs: Any) -> None:
        super().__init__(parent, **kwargs)
        self.tref: Any = None

    def start(self, parent: Any) -> None:
        path = worker_mark()
        mark_alive(path)
        self.tref = parent.timer.call_repeatedly(MARK_SECONDS, mark_alive, (path,), priority=10)

    def stop(self, parent: Any) -> None:
        if self.tref is not None:
            self.tref.cancel()
            self.tref = None
