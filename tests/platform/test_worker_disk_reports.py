"""The low-storage check judges the workers' disks (issue 22, 15): it read the free space of whichever process ran
beat's tick. Each worker reports its own working folder's free space (`arena_site.disk_reports`): a real Celery
worker whose working folder is a nearly full 8 MiB tmpfs makes matchmaking pause, naming it, while the disk of the
process asking is roomy; a report older than the freshness window no longer counts."""

from __future__ import annotations

import subprocess
import time
from datetime import timedelta

import pytest

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(300)]


@pytest.fixture
def small_disk(tmp_path):
    """An 8 MiB tmpfs: a worker's whole working disk."""
    mount = tmp_path / "worker-disk"
    mount.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", str(mount)], check=True)
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=True)


def test_a_workers_low_disk_pauses_matchmaking_though_the_checking_process_has_room(celery_worker, small_disk,
                                                                                   settings, tmp_path):
    from arena_site import disk_reports
    from arena_site.celery import app
    from arena_site.models import WorkerDisk
    from matches.storage import free_megabytes, storage_low
    from tests.platform.conftest import WorkerProcess

    settings.ARENA_STORAGE_MIN_FREE_MB = 64
    settings.ARENA_LOCAL_DIR = tmp_path / "checker"  # the process that checks: far more than 64 MB free
    assert free_megabytes() > 64
    WorkerDisk.objects.all().delete()
    assert storage_low() is None

    queue = f"{celery_worker.env['ARENA_CELERY_QUEUE']}-disk"
    # (reports every 2 s at most: the second report below is not 30 s away)
    worker = WorkerProcess({**celery_worker.env, "ARENA_LOCAL_DIR": str(small_disk), "ARENA_CELERY_QUEUE": queue,
                            "ARENA_DISK_REPORT_SECONDS": "2"}, tmp_path)
    worker.start()
    try:
        deadline = time.monotonic() + 60  # reported when the worker is ready
        while not WorkerDisk.objects.filter(folder=str(small_disk)).exists():
            assert time.monotonic() < deadline, worker.log_text()[-3000:]
            time.sleep(0.2)
        reason = storage_low()
        assert reason is not None and "storage low" in reason and str(small_disk) in reason, reason
        first = WorkerDisk.objects.get(folder=str(small_disk))
        assert first.free_mb <= 8

        # the worker fills its disk: its next task reports the new free space
        with open(small_disk / "filler", "wb") as f:
            f.write(b"\0" * (6 * 1024 * 1024))
        WorkerDisk.objects.filter(pk=first.pk).update(reported_at=first.reported_at - timedelta(minutes=1))
        # (a worker reports at most every ARENA_DISK_REPORT_SECONDS: tasks are sent until one reports)
        app.send_task("matches.tasks.refit_ratings", queue=queue)
        deadline = time.monotonic() + 60
        while WorkerDisk.objects.get(pk=first.pk).free_mb > first.free_mb - 5:
            assert time.monotonic() < deadline, worker.log_text()[-3000:]
            app.send_task("matches.tasks.refit_ratings", queue=queue)
            time.sleep(1)
    finally:
        worker.stop()

    # a worker gone for good stops counting once its report is older than the window
    WorkerDisk.objects.update(reported_at=WorkerDisk.objects.get(pk=first.pk).reported_at
                              - timedelta(seconds=disk_reports.FRESH_SECONDS + 1))
    assert storage_low() is None
