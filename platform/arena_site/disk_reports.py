"""Each worker's free disk, reported to the database, so that the low-storage check (`matches.storage.storage_low`,
run by whichever process runs beat's tick) judges the disks matches are written on, not its own.

A worker reports its working folder's free space (`report`) when it is ready, after each task (beat's control
ticks reach every worker, so an idle one reports too) and with the heartbeat of a running match or validation,
at most every `ARENA_DISK_REPORT_SECONDS` (30) per process. Reports older than FRESH_SECONDS are not read: a worker gone for
good stops counting. Keyed by machine (host and pid namespace: a container is a machine of its own) and folder.
"""

from __future__ import annotations

import logging
import shutil
import time
from datetime import timedelta
from pathlib import Path

from django.conf import settings
from django.utils import timezone

from arena_site import objects

log = logging.getLogger("arena.platform")

FRESH_SECONDS = 600.0
_last_report = {"at": 0.0}


def free_megabytes(folder: Path | None = None) -> float | None:
    """Free space of the file system holding `folder` (default this machine's working folder; None if it cannot
    be read)."""
    folder = folder or objects.local_dir()
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    try:
        return shutil.disk_usage(folder).free / (1024 * 1024)
    except OSError:
        return None


def report(force: bool = False) -> None:
    """Record this machine's free working space (at most every ARENA_DISK_REPORT_SECONDS unless `force`). Never
    raises: a report is worth less than the task that makes it."""
    from arena_site.models import WorkerDisk
    from arena_site.workers import process_space

    now = time.monotonic()
    if not force and now - _last_report["at"] < settings.ARENA_DISK_REPORT_SECONDS:
        return
    _last_report["at"] = now
    free = free_megabytes()
    if free is None:
        return
    try:
        WorkerDisk.objects.update_or_create(machine=process_space(), folder=str(objects.local_dir().resolve()),
                                            defaults={"free_mb": free, "reported_at": timezone.now()})
    except Exception:
        log.exception("could not report this worker's free disk")


def recent() -> list[tuple[str, str, float]]:
    """(machine, folder, free MB) of every report younger than FRESH_SECONDS, lowest free space first."""
    from arena_site.models import WorkerDisk

    since = timezone.now() - timedelta(seconds=FRESH_SECONDS)
    return list(WorkerDisk.objects.filter(reported_at__gte=since).order_by("free_mb")
                .values_list("machine", "folder", "free_mb"))
