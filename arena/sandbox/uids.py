"""A distinct unprivileged uid for every bot running at the same time on this host.

RLIMIT_NPROC counts the processes of a uid across the whole machine, and a bot must never be able to signal or
ptrace another bot: so no two live bots share a uid, not even bots of two separate referee processes (two Celery
workers). A uid is leased by taking an exclusive `flock` on `<state>/uids/<uid>.lock`; the kernel drops the lock
when its holder dies, so a crashed referee never leaks a lease. A holder that releases its lease after checking
that nothing of the uid is left marks the lock file clean; whoever takes a lease not marked clean first kills
what a dead holder may have left (processes of that uid in this referee's sandboxes, `processes_of_uid`; its
mounts and cgroups are cleaned by their owners), and leaves the uid alone while a process of another deployment
on this kernel has it (never killed: not ours).

The uids have no passwd entry (none is needed); the range is `ARENA_SANDBOX_UID_BASE` (default 2,900,000) and the
1,000 uids above it, far from the uids and subuid ranges a Debian host hands out.

**Ranges.** The flocks only separate referees that share one state folder. Referees on one kernel with separate
state folders (workers in separate containers of one host: `docker compose --scale worker=2`) would lease the
same uid. So a process may be given a range of its own (`use_range`, or `ARENA_SANDBOX_UIDS=first-last` in its
environment): it then leases only uids of that range, and a bot is never started with a uid outside it
(`check_in_range`). The platform's workers each lease a block (`block_range`: `BLOCK_SIZE` uids from
`BLOCKS_BASE`, above the default range) in the database, keyed by the kernel (`kernel_id`), renewed while the
worker lives and reclaimed when it stops renewing (`arena_site.uid_blocks`); this module only obeys the range it
is handed. Without a range (`arena play`, `arena bot check`) the default range is used, shared by flock.
"""

from __future__ import annotations

import fcntl
import os
import socket
from dataclasses import dataclass
from pathlib import Path

from arena.sandbox.errors import SandboxUnavailable
from arena.sandbox.reap import kill_until_gone

UID_BASE = int(os.environ.get("ARENA_SANDBOX_UID_BASE", "2900000"))
UID_COUNT = 1000
#: Where workers' blocks start (just above the default range, so `arena play` on a worker's host never meets them)
#: and how many uids each holds: one match's bots (≤ 4) or one build at a time per worker process, with room for
#: uids skipped while a dead holder's zombies linger.
BLOCKS_BASE = UID_BASE + UID_COUNT
BLOCK_SIZE = 32
CLEAN = b"clean\n"  # the lock file's content when its last holder left nothing behind
IN_USE = b"inuse\n"  # same length: a rewrite in place, never a truncation


@dataclass(frozen=True)
class UidRange:
    """The uids `first` … `first + count - 1`."""

    first: int
    count: int

    def __contains__(self, uid: object) -> bool:
        return isinstance(uid, int) and self.first <= uid < self.first + self.count

    def __str__(self) -> str:
        return f"{self.first}-{self.first + self.count - 1}"

    @classmethod
    def parse(cls, text: str) -> UidRange:
        """`first-last` (both included), as `str` writes it."""
        first, _, last = text.strip().partition("-")
        low, high = int(first), int(last)
        if not 0 < low <= high:
            raise ValueError(f"not a uid range: {text!r}")
        return cls(low, high - low + 1)


DEFAULT_RANGE = UidRange(UID_BASE, UID_COUNT)
_range: UidRange | None = None


def block_range(index: int, size: int = BLOCK_SIZE) -> UidRange:
    """The uids of worker block `index` (0-based)."""
    return UidRange(BLOCKS_BASE + index * size, size)


def use_range(uids: UidRange | None) -> None:
    """Lease uids of `uids` only from now on in this process (None: back to `ARENA_SANDBOX_UIDS` or the default).
    Bots already running keep their uids."""
    global _range
    _range = uids


def current_range() -> UidRange:
    """The range this process leases from: `use_range`'s, else `ARENA_SANDBOX_UIDS`, else the default."""
    if _range is not None:
        return _range
    configured = os.environ.get("ARENA_SANDBOX_UIDS", "")
    return UidRange.parse(configured) if configured else DEFAULT_RANGE


def check_in_range(uid: int) -> None:
    """Refuse (SandboxUnavailable) to run a bot as a uid outside this process's range: another referee on this
    kernel may hand that uid out."""
    allowed = current_range()
    if uid not in allowed:
        raise SandboxUnavailable(f"uid {uid} is outside this referee's sandbox uid range {allowed}")


def kernel_id() -> str:
    """What names this kernel: its boot id (random per boot, shared by every container on it). Every process
    running on one kernel shares its uids, so uid blocks are leased per kernel."""
    try:
        return Path("/proc/sys/kernel/random/boot_id").read_text().strip()
    except OSError:  # no /proc (not Linux): the host's name is the best there is
        return f"host:{socket.gethostname()}"


def state_dir() -> Path:
    """Where leases and socket mounts live (root only; `ARENA_SANDBOX_DIR` overrides)."""
    return Path(os.environ.get("ARENA_SANDBOX_DIR", "/run/arena-sandbox"))


def processes_of_uid(uid: int, zombies: bool = False, anywhere: bool = False) -> list[int]:
    """Pids of the processes of this referee's sandboxes whose real, effective or saved uid is `uid` (a /proc
    scan); with `anywhere`, of every process this /proc shows. Zombies (dead, waiting for their parent to reap
    them) are left out unless `zombies`.

    Only the sandboxes' own (every process of a bot lives in its cgroups under `<this process's cgroup>/arena/`,
    arena.sandbox.cgroups.sandboxes_prefix): two deployments on one kernel that do not share a state folder and a
    database (a worker container and a test suite or a `make up` on its host, two compose projects) may hand out
    one uid at once, and the host's /proc shows every container's processes. Killing "whatever has my uid" then
    killed the other deployment's bot (issue 24: an uploaded bot SIGKILLed in its validation in the compose e2e
    while a test suite ran on the host). What a dead referee of this state folder left in a cgroup of its own is
    killed through that cgroup's record (arena.sandbox.process.sweep_stale_slots), never by uid."""
    from arena.sandbox.cgroups import in_sandboxes, sandboxes_prefix

    prefix = None if anywhere else sandboxes_prefix()
    found = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/status") as f:
                for line in f:
                    if line.startswith("State:") and not zombies and line.split()[1] == "Z":
                        break
                    if line.startswith("Uid:"):
                        if str(uid) in line.split()[1:4]:
                            found.append(int(entry.name))
                        break
        except OSError:
            continue  # gone meanwhile
    return found if prefix is None else [pid for pid in found if in_sandboxes(pid, prefix)]


def kill_uid(uid: int, timeout: float = 5.0) -> bool:
    """SIGKILL every process of `uid` in this referee's sandboxes (`processes_of_uid`) until none is left; True
    when none is."""
    return kill_until_gone(lambda: processes_of_uid(uid), timeout, pause=0.01)


class UidLease:
    """An exclusive lease on one uid, held until `release()` (or until this process dies)."""

    def __init__(self, uid: int, fd: int) -> None:
        self.uid = uid
        self._fd: int | None = fd

    @classmethod
    def acquire(cls) -> UidLease:
        """Lease a uid no live holder has, killing whatever a dead holder of it left running."""
        uids = current_range()
        # start at a different place in each process so concurrent workers rarely contend for the same lock
        start = os.getpid() % uids.count
        for i in range(uids.count):
            uid = uids.first + (start + i) % uids.count
            lease = cls.try_take(uid)
            if lease is None:
                continue
            if not lease.left_clean and (
                    (processes_of_uid(uid, zombies=True) and not kill_uid(uid, timeout=1.0))
                    or processes_of_uid(uid, zombies=True, anywhere=True)):
                # something of a dead holder is still there (a zombie still counts against RLIMIT_NPROC of
                # its uid), or a process of another deployment on this kernel has the uid (never killed: not
                # ours): leave this uid alone, take another
                lease.release()
                continue
            lease.mark_in_use()
            return lease
        raise SandboxUnavailable(f"all {uids.count} sandbox uids of {uids} are in use")

    @classmethod
    def try_take(cls, uid: int) -> UidLease | None:
        """The lease on `uid` if nobody holds it now (no waiting), else None. Nothing is checked or cleaned."""
        locks = state_dir() / "uids"
        locks.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd = os.open(locks / f"{uid}.lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            return None
        return cls(uid, fd)

    @property
    def left_clean(self) -> bool:
        """The previous holder released the uid saying nothing of it was left."""
        return self._fd is not None and os.pread(self._fd, len(CLEAN), 0) == CLEAN

    def mark_in_use(self) -> None:
        assert self._fd is not None, "the lease was released"
        os.pwrite(self._fd, IN_USE, 0)  # if we die holding it, the next holder must scan

    def release(self, clean: bool = False) -> None:
        """Give the uid back. `clean`: the holder has checked that no process of the uid is left, so the next
        holder may skip its /proc scan (a few ms of every bot's start)."""
        if self._fd is not None:
            if clean:
                os.pwrite(self._fd, CLEAN, 0)
            os.close(self._fd)  # closing the only descriptor drops the flock
            self._fd = None
