"""Scaled workers never lease the same bot uid (issue 12): each worker process leases a block of sandbox uids
of its own per kernel in the database (arena_site.uid_blocks), so workers on one kernel whose sandbox state
folders are separate (containers of one host), and whose uid flocks therefore see nothing of each other, still
never hand one uid to two bots. Real processes on the real database; the sandbox side (a referee starts bots
only with uids of its range) is tests/arena/sandbox/test_sandbox_uids.py."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from datetime import timedelta

import pytest
from django.utils import timezone
from platform_helpers import PLATFORM, ROOT

# A worker process as far as uids go: it leases its block as a task would, says which, and holds it until told.
WORKER = """
import django, sys
django.setup()
from arena_site import uid_blocks
from arena.sandbox import uids
try:
    block = uid_blocks.ensure_block()
except Exception as exc:
    print("refused", exc, flush=True)
    sys.exit(0)
print(block.first, block.count, uids.current_range().first, flush=True)
sys.stdin.read()
"""


def database_url(settings_dict: dict) -> str:
    password = f":{settings_dict['PASSWORD']}" if settings_dict.get("PASSWORD") else ""
    return (f"postgres://{settings_dict.get('USER') or 'postgres'}{password}@{settings_dict.get('HOST') or '127.0.0.1'}"
            f":{settings_dict.get('PORT') or 5432}/{settings_dict['NAME']}")


@pytest.fixture
def start_worker(tmp_path, settings):
    """Start a process with its own sandbox state folder (as a container would have) and nothing else of its
    own: the same settings, the same database. Returns (process, first line it printed)."""
    from django.db import connection

    env = {**os.environ, "DATABASE_URL": database_url(connection.settings_dict),
           "DJANGO_SETTINGS_MODULE": "arena_site.test_settings", "ARENA_UID_BLOCKS": "2",
           "PYTHONPATH": os.pathsep.join([str(PLATFORM), str(ROOT)])}
    started = []

    def start():
        state = tmp_path / f"sandbox-state-{len(started)}"
        process = subprocess.Popen([sys.executable, "-c", WORKER], cwd=PLATFORM, text=True,
                                   env={**env, "ARENA_SANDBOX_DIR": str(state)},
                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        started.append(process)
        return process, process.stdout.readline().split()

    yield start
    for process in started:
        if process.poll() is None:
            process.stdin.close()
            process.wait(20)


@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(120)
def test_two_workers_on_one_kernel_get_disjoint_uid_ranges_and_a_dead_ones_is_reclaimed(start_worker):
    from arena.sandbox import uids
    from arena_site.models import UidBlock

    first, said_first = start_worker()
    second, said_second = start_worker()
    ranges = [uids.UidRange(int(said[0]), int(said[1])) for said in (said_first, said_second)]
    assert [said[2] for said in (said_first, said_second)] == [said[0] for said in (said_first, said_second)]
    a, b = (set(range(r.first, r.first + r.count)) for r in ranges)
    assert a and b and not a & b  # disjoint: no uid of one is the other's
    assert not (a | b) & set(range(uids.DEFAULT_RANGE.first, uids.DEFAULT_RANGE.first + uids.DEFAULT_RANGE.count))
    _, said = start_worker()  # both blocks of this kernel (ARENA_UID_BLOCKS=2) are held by live workers
    assert said[0] == "refused"
    # a worker killed (SIGKILL: it could release nothing) in this pid namespace is known dead: its block is free
    first.send_signal(signal.SIGKILL)
    first.wait()
    _, said = start_worker()
    assert uids.UidRange(int(said[0]), int(said[1])) == ranges[0]
    assert UidBlock.objects.filter(holder__endswith=f":{first.pid}").count() == 0


@pytest.mark.django_db(transaction=True)
def test_a_block_of_a_worker_elsewhere_is_reclaimed_only_once_its_lease_expired(settings):
    """A worker in another container or on a lost machine cannot be seen dying: its lease's expiry decides."""
    from arena.sandbox import uids
    from arena_site import uid_blocks
    from arena_site.models import UidBlock

    settings.ARENA_UID_BLOCKS = 1
    kernel = uids.kernel_id()
    elsewhere = "another-container/4026531836:7"
    UidBlock.objects.create(kernel=kernel, index=0, holder=elsewhere,
                            expires_at=timezone.now() + timedelta(seconds=30))
    with pytest.raises(uids.SandboxUnavailable):
        uid_blocks.lease(holder="me/1:1")
    UidBlock.objects.filter(kernel=kernel, index=0).update(expires_at=timezone.now() - timedelta(seconds=1))
    assert uid_blocks.lease(holder="me/1:1") == 0
    assert UidBlock.objects.get(kernel=kernel, index=0).holder == "me/1:1"
    # blocks are per kernel: another machine's block 0 is another row, not ours
    UidBlock.objects.create(kernel="another-boot-id", index=0, holder=elsewhere,
                            expires_at=timezone.now() + timedelta(seconds=30))
    with pytest.raises(uids.SandboxUnavailable):
        uid_blocks.lease(kernel="another-boot-id", holder="me/1:1")
    assert uid_blocks.lease(holder="me/1:1") == 0  # ours is untouched


@pytest.mark.django_db(transaction=True)
def test_a_lease_is_renewed_by_its_holder_and_released_at_shutdown(settings):
    from arena.sandbox import uids
    from arena_site import uid_blocks
    from arena_site.models import UidBlock
    from arena_site.workers import worker_id

    block = uid_blocks.ensure_block()
    try:
        assert uids.current_range() == block
        row = UidBlock.objects.get(holder=worker_id())
        UidBlock.objects.filter(pk=row.pk).update(expires_at=timezone.now() + timedelta(seconds=1))
        assert uid_blocks.renew()
        assert UidBlock.objects.get(pk=row.pk).expires_at > timezone.now() + timedelta(seconds=30)
        # lost meanwhile (expired and taken by another worker): the next task's ensure_block leases another
        UidBlock.objects.filter(pk=row.pk).update(holder="another-container/1:2")
        assert not uid_blocks.renew()
        again = uid_blocks.ensure_block()
        assert again != block and uids.current_range() == again
    finally:
        from celery.signals import worker_shutdown
        worker_shutdown.send(sender=None)  # what Celery sends as a worker stops
    assert not UidBlock.objects.filter(holder=worker_id()).exists()
    assert uids.current_range() == uids.DEFAULT_RANGE
