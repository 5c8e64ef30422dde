"""A distinct unprivileged uid for every bot running at the same time on this host.

RLIMIT_NPROC counts the processes of a uid across the whole machine, and a bot must never be able to signal or
ptrace another bot: so no two live bots share a uid, not even bots of two separate referee processes (two Celery
workers). A uid is leased by taking an exclusive `flock` on `<state>/uids/<uid>.lock`; the kernel drops the lock
when its holder dies, so a crashed referee never leaks a lease. A holder that releases its lease after checking
that nothing of the uid is left marks the lock file clean; whoever takes a lease not marked clean first kills
what a dead holder may have left (processes of that uid; its mounts and cgroups are cleaned by their owners).

The uids have no passwd entry (none is needed); the range is `ARENA_SANDBOX_UID_BASE` (default 2,900,000) and the
1,000 uids above it, far from the uids and subuid ranges a Debian host hands out.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

from arena.sandbox.errors import SandboxUnavailable
from arena.sandbox.reap import kill_until_gone

UID_BASE = int(os.environ.get("ARENA_SANDBOX_UID_BASE", "2900000"))
UID_COUNT = 1000
CLEAN = b"clean\n"  # the lock file's content when its last holder left nothing behind
IN_USE = b"inuse\n"  # same length: a rewrite in place, never a truncation


def state_dir() -> Path:
    """Where leases and socket mounts live (root only; `ARENA_SANDBOX_DIR` overrides)."""
    return Path(os.environ.get("ARENA_SANDBOX_DIR", "/run/arena-sandbox"))


def processes_of_uid(uid: int, zombies: bool = False) -> list[int]:
    """Pids of every process on the host whose real, effective or saved uid is `uid` (a /proc scan). Zombies
    (dead, waiting for their parent to reap them) are left out unless `zombies`."""
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
    return found


def kill_uid(uid: int, timeout: float = 5.0) -> bool:
    """SIGKILL every process of `uid` until none is left; True when none is."""
    return kill_until_gone(lambda: processes_of_uid(uid), timeout, pause=0.01)


class UidLease:
    """An exclusive lease on one uid, held until `release()` (or until this process dies)."""

    def __init__(self, uid: int, fd: int) -> None:
        self.uid = uid
        self._fd: int | None = fd

    @classmethod
    def acquire(cls) -> UidLease:
        """Lease a uid no live holder has, killing whatever a dead holder of it left running."""
        # start at a different place in each process so concurrent workers rarely contend for the same lock
        start = os.getpid() % UID_COUNT
        for i in range(UID_COUNT):
            uid = UID_BASE + (start + i) % UID_COUNT
            lease = cls.try_take(uid)
            if lease is None:
                continue
            if not lease.left_clean and processes_of_uid(uid, zombies=True) and (
                    not kill_uid(uid, timeout=1.0) or processes_of_uid(uid, zombies=True)):
                # something of a dead holder is still there (a zombie still counts against RLIMIT_NPROC of
                # its uid): leave this uid alone, take another
                lease.release()
                continue
            lease.mark_in_use()
            return lease
        raise SandboxUnavailable(f"all {UID_COUNT} sandbox uids from {UID_BASE} are in use")

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
