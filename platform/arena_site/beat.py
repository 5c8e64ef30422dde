"""Beat's scheduler with a mark of life (settings.CELERY_BEAT_SCHEDULER): Celery's own persistent scheduler, which
rewrites `<schedule file>.alive` at every tick of its loop, so that docker-compose's healthcheck
(`health.py alive /data/celerybeat-schedule.alive`) tells a running beat from one whose loop has stopped. The
schedule file itself is no such sign: beat writes it only when it syncs (every few minutes, or never while no
task falls due)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from celery.beat import PersistentScheduler

from arena_site.worker_alive import mark_alive


class AliveScheduler(PersistentScheduler):
    """Ticks as Celery's PersistentScheduler does; each tick first rewrites `alive_path`."""

    @property
    def alive_path(self) -> Path:
        return Path(f"{self.schedule_filename}.alive")  # type: ignore[attr-defined]  # set by PersistentScheduler

    def tick(self, *args: Any, **kwargs: Any) -> float:
        mark_alive(self.alive_path)
        return float(super().tick(*args, **kwargs))
