"""Sandbox uid blocks: every worker process that runs bots leases a block of uids of its own, per kernel, in the
database, so that workers on one kernel (containers of one host: `docker compose --scale worker=N`, each with a
sandbox state folder of its own, whose uid flocks see nothing of each other) never run two bots as one uid.

- **Keyed by the kernel** (`arena.sandbox.uids.kernel_id`, its boot id): every container and process on one
  kernel shares its uids; other machines have other boot ids, so their blocks never collide with ours.
- **Leased** (`ensure_block`) before a task runs bots (a match, a validation): the process keeps the block it
  held if its lease still stands (renewed), else takes the lowest free one — never leased, expired, released,
  or held by a process `known_dead` in this pid namespace — with a compare-and-set on the row, so two processes
  never win the same block on any database. The block's range is handed to the sandbox
  (`arena.sandbox.uids.use_range`), which then leases uids only inside it and refuses to start a bot outside it.
- **Renewed** by the task's heartbeat (`renew`, every ARENA_HEARTBEAT_SECONDS while bots run) until
  ARENA_UID_BLOCK_SECONDS (60) ahead. An idle worker runs no bots, so its block may lapse meanwhile: its next
  task leases again (the same block when it is still free).
- **Released** when the worker process shuts down (Celery's shutdown signals), in the database it was leased in
  only (a test run's connection names DATABASE_URL's database again once its test database is dropped: nothing
  is looked for there); a killed worker's block is free as soon as it is known dead (same pid namespace) or its
  lease expires (another container or machine).

A worker frozen past ARENA_UID_BLOCK_SECONDS while its bots run may find its block taken by another container
when it thaws: its match was taken over long before (ARENA_STALE_AFTER_SECONDS), and its bots, in their own pid
namespaces, cannot see or signal the other container's. Keep ARENA_UID_BLOCK_SECONDS well above the stale
threshold, and ARENA_UID_BLOCKS × `BLOCK_SIZE` (64 × 32) uids above `ARENA_SANDBOX_UID_BASE` + 1000 free of
other users on worker hosts.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from datetime import timedelta

from celery.signals import worker_process_shutdown, worker_shutdown
from django.conf import settings
from django.utils import timezone

from arena.sandbox import uids
from arena.sandbox.errors import SandboxUnavailable
from arena_site.models import UidBlock
from arena_site.workers import known_dead, worker_id

log = logging.getLogger("arena.platform")


@dataclass
class _Held:
    kernel: str
    index: int
    holder: str  # worker_id() when leased: a forked child is another holder
    database: str = ""  # the database the lease is in (`_database()`): only there can it be given back


_held: _Held | None = None
_lock = threading.Lock()


def _database() -> str:
    """Which database this process talks to now (vendor and name). A test run switches the connection to its
    test database and back at its end, after which a lease taken in the test database must not be looked for in
    the real one (it does not hold it, and on a test machine may not even exist)."""
    from django.db import connection

    return f"{connection.vendor}:{connection.settings_dict.get('NAME')}"


def _expiry():
    return timezone.now() + timedelta(seconds=settings.ARENA_UID_BLOCK_SECONDS)


def lease(kernel: str | None = None, holder: str | None = None) -> int:
    """Lease a free uid block of `kernel` (this one) for `holder` (this process) and return its index; the one it
    holds already comes first. Raises SandboxUnavailable when every block is held."""
    kernel = kernel or uids.kernel_id()
    holder = holder or worker_id()
    count = settings.ARENA_UID_BLOCKS
    UidBlock.objects.bulk_create([UidBlock(kernel=kernel, index=i) for i in range(count)], ignore_conflicts=True)
    now = timezone.now()
    rows = list(UidBlock.objects.filter(kernel=kernel, index__lt=count))
    for row in sorted(rows, key=lambda r: (r.holder != holder, r.index)):
        free = (row.holder == holder or not row.holder or row.expires_at is None or row.expires_at < now
                or known_dead(row.holder))
        # compare-and-set: only if nobody changed the row since we read it
        if free and UidBlock.objects.filter(pk=row.pk, holder=row.holder, expires_at=row.expires_at).update(
                holder=holder, expires_at=_expiry()):
            if row.holder and row.holder != holder:
                log.info("took over sandbox uid block %s from %s (lease expired or holder gone)", row.index,
                         row.holder)
            return row.index
    raise SandboxUnavailable(f"all {count} sandbox uid blocks of this kernel are held by other workers "
                             "(ARENA_UID_BLOCKS)")


def ensure_block() -> uids.UidRange:
    """Make sure this process holds a uid block (renewed, or leased anew) and that the sandbox uses its range;
    called before a task runs bots. Raises SandboxUnavailable when no block is free."""
    global _held
    with _lock:
        me = worker_id()
        if _held is not None and _held.holder == me and renew():
            return uids.current_range()
        _held = None
        index = lease(holder=me)  # SandboxUnavailable: the task fails before any bot starts
        _held = _Held(kernel=uids.kernel_id(), index=index, holder=me, database=_database())
        block = uids.block_range(index)
        uids.use_range(block)
        log.info("sandbox uids %s (block %s of this kernel) leased by %s", block, index, me)
        return block


def renew() -> bool:
    """Push this process's lease ARENA_UID_BLOCK_SECONDS ahead (the tasks' heartbeats call it). False when it
    holds none, or lost it (expired and taken by another): the next `ensure_block` leases again."""
    held = _held
    if held is None or held.holder != worker_id():
        return False
    return bool(UidBlock.objects.filter(kernel=held.kernel, index=held.index, holder=held.holder)
                .update(expires_at=_expiry()))


def release() -> None:
    """Give this process's block back (at shutdown: no bot of it runs any more)."""
    global _held
    held = _held
    if held is None or held.holder != worker_id():
        return
    _held = None
    uids.use_range(None)
    if held.database and held.database != _database():
        # leased in a database this process no longer uses (a test database, dropped by now): nothing to give back
        log.debug("sandbox uid block %s was leased in %s; not released in %s", held.index, held.database,
                  _database())
        return
    try:
        UidBlock.objects.filter(kernel=held.kernel, index=held.index, holder=held.holder).update(
            holder="", expires_at=None)
    except Exception as exc:  # the database gone first: the lease expires by itself
        log.warning("could not release sandbox uid block %s: %s", held.index, exc)


@worker_process_shutdown.connect
@worker_shutdown.connect
def _release_at_shutdown(**_: object) -> None:
    """A Celery pool process (prefork) or worker (solo pool) stopping gives its block back. Any other end of a
    process leaves it to expire: at interpreter exit the database may be gone already."""
    release()
