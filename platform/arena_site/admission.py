"""Admission: a worker starts a match only when its host has the cores the time control promises the match.

A match needs about `ARENA_CORES_PER_MATCH` cores (default: the sandbox's `cpu_rate`, one core): its bots are
frozen between their decisions (arena.sandbox.cgroups), so one seat computes at a time, at most at its quota.
The host has `slots()` = its usable cores / cores per match (at least 1; `ARENA_MATCH_SLOTS` overrides) *match
slots*, shared by every worker process on the host whatever its `--concurrency`, and by several workers on one
host alike: a slot is an exclusive `flock` on a file in `ARENA_ADMISSION_DIR` (one directory per host), held
while the match plays and dropped by the kernel when its process dies, so a killed worker never leaks one.

A task that finds every slot taken waits for one, up to `ARENA_ADMISSION_WAIT_SECONDS`, before it claims the
match (which stays `queued` meanwhile); still none, it sends the match back to the broker for any worker
(`matches.services.send`) and returns. Matchmaking keeps at most `max_pending_per_ladder` matches queued or
running per ladder (`matchmaking.services`), so saturated workers slow it down instead of piling matches up.
`--concurrency` above `slots()` only adds processes that wait; `make up` starts `slots()` of them.

What admission cannot promise on its own, the referee keeps anyway: a bot is charged the CPU it was given,
never the wall clock (arena.match.botclock), so a host busy with other work slows matches but decides none.
"""

from __future__ import annotations

import fcntl
import logging
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from django.conf import settings

log = logging.getLogger("arena.platform")

#: How often a task waiting for a slot looks again.
POLL_S = 0.5


def host_cores() -> int:
    """The cores this process may run on (its CPU affinity: a container's cpuset, taskset)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def slots() -> int:
    """How many matches this host plays at once (see the module docstring)."""
    if settings.ARENA_MATCH_SLOTS > 0:
        return settings.ARENA_MATCH_SLOTS
    return max(1, int(host_cores() / max(0.01, settings.ARENA_CORES_PER_MATCH)))


def _directory() -> Path:
    path = Path(settings.ARENA_ADMISSION_DIR)
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    return path


def _take_free_slot() -> int | None:
    """The file descriptor of a slot now held by this process, or None when every slot is taken."""
    directory = _directory()
    for n in range(slots()):
        fd = os.open(directory / f"slot-{n}", os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            continue
        return fd
    return None


@contextmanager
def match_slot(wait_s: float | None = None) -> Iterator[bool]:
    """Hold one of the host's match slots for the duration of the block: yields True once one is held, or
    False after `wait_s` (default ARENA_ADMISSION_WAIT_SECONDS) without one (the caller must not play then)."""
    deadline = time.monotonic() + (settings.ARENA_ADMISSION_WAIT_SECONDS if wait_s is None else wait_s)
    fd = _take_free_slot()
    while fd is None and time.monotonic() < deadline:
        time.sleep(POLL_S)
        fd = _take_free_slot()
    if fd is None:
        log.info("no match slot free on this host (%s in use) for %.0f s", slots(), wait_s or 0)
        yield False
        return
    try:
        yield True
    finally:
        os.close(fd)  # releases the lock
