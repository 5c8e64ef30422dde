"""The referee's end of a bot's socket: reached without following any path the bot controls, and checked to be
served by the bot's own sandbox.

A bot owns its socket directory (it must create its socket there), so it can put anything at `bot.sock`: a
symbolic link to another bot's socket or to a root-only socket of the host, which the referee, as root, would
follow. So the referee never resolves that name as a path:

- the directory (whose path only root can change) is opened with O_PATH | O_DIRECTORY | O_NOFOLLOW, and the
  socket *within it* with O_PATH | O_NOFOLLOW: a symbolic link is then opened as the link itself, and refused;
- the socket inode is *pinned*: the referee keeps that O_PATH descriptor and connects through
  `/proc/self/fd/<n>`, which names the inode itself. gRPC reconnects through the same name, so a bot that later
  renames its socket and puts a link in its place (then drops the connection to force a reconnect) reaches
  nothing: the pinned inode belongs to the socket it bound, and only that socket listens on it;
- the server is verified once, on a probe connection through the pinned inode, before gRPC sends a byte:
  SO_PEERCRED gives the uid and pid of the process that listens; the uid must be the seat's sandbox uid and the
  pid a member of the seat's cgroup. A socket inode is bound by exactly one socket, ever, so what the probe
  checked is what gRPC talks to for the rest of the match.

A bot cannot proxy to a server elsewhere either (the sandbox has no network but its own loopback, and no path
of the host or of other sandboxes is mounted in it): tests/arena/hostile/test_hostile_socket.py tries.
"""

from __future__ import annotations

import os
import socket
import stat
import struct
from collections.abc import Callable


class ForeignServer(Exception):
    """The bot's socket is not served by the bot's own sandbox (a link, or a server of another uid or cgroup).
    The message says what was found, in words for the bot's author."""


def _peer(sock: socket.socket) -> tuple[int, int]:
    """(pid, uid) of the process that listens on the other end of a connected unix socket (SO_PEERCRED)."""
    pid, uid, _gid = struct.unpack("3i", sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED,
                                                         struct.calcsize("3i")))
    return pid, uid


class PinnedSocket:
    """A bot's listening socket, pinned by inode. `address` is what to connect to (`/proc/self/fd/<n>`) for as
    long as this object is open; `close()` releases it."""

    def __init__(self, fd: int) -> None:
        self.fd: int | None = fd
        self.address = f"/proc/self/fd/{fd}"

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


def pin(directory: str, name: str, *, uid: int | None, in_cgroup: Callable[[int], bool] | None
        ) -> PinnedSocket | None:
    """Pin the socket `name` in `directory` if a server accepts connections on it now, after checking who
    serves it: `uid` (None: not checked) must be the listener's uid and `in_cgroup(pid)` (None: not checked)
    true for its pid. None while there is nothing to connect to yet (no such name, not yet a socket, not yet
    listening); raises ForeignServer when what is there is not the bot's own server."""
    try:
        dir_fd = os.open(directory, os.O_PATH | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except FileNotFoundError:
        return None
    try:
        try:
            fd = os.open(name, os.O_PATH | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=dir_fd)
        except FileNotFoundError:
            return None
        mode = os.fstat(fd).st_mode
        if stat.S_ISLNK(mode):
            try:
                target = os.readlink(name, dir_fd=dir_fd)
            except OSError:
                target = "?"
            os.close(fd)
            shown = target if len(target) <= 120 else target[:120] + "..."
            raise ForeignServer(f"its socket is a symbolic link (to {shown!r}), not a socket it serves itself")
        if not stat.S_ISSOCK(mode):
            os.close(fd)
            return None  # a file or a folder where the socket will be: not serving (yet)
    finally:
        os.close(dir_fd)
    pinned = PinnedSocket(fd)
    try:
        probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            probe.settimeout(0.2)
            try:
                probe.connect(pinned.address)
            except OSError:
                pinned.close()
                return None  # bound, not yet listening (or no longer)
            pid, peer_uid = _peer(probe)
        finally:
            probe.close()
        if uid is not None and peer_uid != uid:
            raise ForeignServer(f"its socket is served by a process of uid {peer_uid}, not by the bot's sandbox "
                                f"(uid {uid})")
        if in_cgroup is not None and (pid <= 0 or not in_cgroup(pid)):
            raise ForeignServer(f"its socket is served by a process (pid {pid}) outside the bot's sandbox")
    except BaseException:
        pinned.close()
        raise
    return pinned
