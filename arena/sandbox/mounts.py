"""The host-side mounts of one sandboxed bot, under `<state>/mnt/<uid>/`:

- `sock/`: the directory the bot's unix socket lives in. The bot must be able to create its socket there, so it
  can create other files too; to keep it from filling the host disk that way, it is a tiny tmpfs of its own
  (`SOCKET_DIR_BYTES` of data, `SOCKET_DIR_INODES` files at most), owned by the bot's uid.
- `bot/` and `runtime/`: bind mounts of the bot's folder and its runtime. bwrap runs as the bot's uid and must
  reach what it binds; the bot's folder may sit below a directory only root can enter (a 0700 temporary
  directory, the platform's storage), and these binds give it a path it can traverse.

All are unmounted (lazily, so a busy mount never blocks) and removed by `unmount_all`. Mounting needs root,
which the sandbox needs anyway.
"""

from __future__ import annotations

import ctypes
import errno
import os
from pathlib import Path

from arena.sandbox.uids import state_dir

SOCKET_DIR_BYTES = 256 * 1024
SOCKET_DIR_INODES = 32
MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_BIND = 2, 4, 8, 4096
MNT_DETACH = 2

_libc = ctypes.CDLL("libc.so.6", use_errno=True)  # glibc; find_library would run ldconfig


def _mount(source: str, target: Path, fstype: str | None, flags: int, options: str | None) -> None:
    if _libc.mount(source.encode(), str(target).encode(), fstype.encode() if fstype else None, flags,
                   options.encode() if options else None) != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"mount {source} on {target}: {os.strerror(err)}")


def _mountpoints_under(root: Path) -> list[str]:
    prefix = str(root) + "/"
    with open("/proc/self/mounts") as f:
        points = [line.split()[1] for line in f]
    return sorted((p for p in points if p == str(root) or p.startswith(prefix)), key=len, reverse=True)


def slot_dir(uid: int) -> Path:
    return state_dir() / "mnt" / str(uid)


class BotMounts:
    def __init__(self, uid: int) -> None:
        self.uid = uid
        self.root = slot_dir(uid)
        self.socket_dir = self.root / "sock"
        self.bot_dir = self.root / "bot"
        self.runtime_dir = self.root / "runtime"

    def mount(self, bot_dir: Path, runtime_dir: Path | None) -> None:
        """Mount the socket tmpfs and bind the bot's folder (and runtime). Cleans up what a dead holder of the
        same uid left first."""
        self.unmount_all()
        self.root.parent.mkdir(parents=True, exist_ok=True)
        for d in (self.root.parent.parent, self.root.parent):
            os.chmod(d, 0o711)  # bwrap, running as the bot's uid, must traverse them (and list nothing)
        self.root.mkdir(mode=0o711)
        self.socket_dir.mkdir(mode=0o700)
        options = f"size={SOCKET_DIR_BYTES},nr_inodes={SOCKET_DIR_INODES},mode=0700,uid={self.uid},gid={self.uid}"
        _mount("tmpfs", self.socket_dir, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, options)
        self.bot_dir.mkdir(mode=0o755)
        _mount(str(bot_dir), self.bot_dir, None, MS_BIND, None)
        if runtime_dir is not None:
            self.runtime_dir.mkdir(mode=0o755)
            _mount(str(runtime_dir), self.runtime_dir, None, MS_BIND, None)

    def unmount_all(self) -> None:
        """Unmount everything under the slot and remove it; quiet if there is nothing."""
        if not self.root.exists():
            return
        for point in _mountpoints_under(self.root):
            if _libc.umount2(point.encode(), MNT_DETACH) != 0:
                err = ctypes.get_errno()
                if err not in (errno.EINVAL, errno.ENOENT):
                    raise OSError(err, f"umount {point}: {os.strerror(err)}")
        for d in (self.socket_dir, self.bot_dir, self.runtime_dir):
            if d.exists() and not os.path.ismount(d):
                # never a mount any more: whatever is in it was written on the host disk by a failed setup
                for child in d.iterdir():
                    child.unlink()
                d.rmdir()
        self.root.rmdir()
