"""Hostile: two sandboxes of one package talking through a shared inode (the bot's own file, /bot/bot.py, is the
same file in both; so is everything under /usr). ARENA_TEST_ROLE is `send` or `receive`; ARENA_TEST_CHANNEL
names the channel:

- `flock` / `posix_lock`: the sender locks the shared file and holds it; the receiver asks whether it is locked.
- `inotify` / `dnotify`: the receiver watches the shared file; the sender reads it.

The receiver prints RESULT {"setup": "ok" or the errno, "heard": whether the sender's act reached it}; the sender
prints RESULT {"setup": ...} and keeps its part up (holds the lock, keeps reading) until killed.
"""
import ctypes
import errno
import fcntl
import json
import os
import select
import signal
import struct
import time

ROLE = os.environ["ARENA_TEST_ROLE"]
CHANNEL = os.environ["ARENA_TEST_CHANNEL"]
SHARED = "/bot/bot.py"
libc = ctypes.CDLL(None, use_errno=True)


def report(**fields):
    print("RESULT " + json.dumps(fields), flush=True)


def failure(exc: OSError) -> str:
    return errno.errorcode.get(exc.errno or 0, str(exc.errno))


def lock_struct(kind: int) -> bytes:
    return struct.pack("hhqqi4x", kind, os.SEEK_SET, 0, 0, 0)  # struct flock on x86-64: type, whence, start, len, pid


def send() -> None:
    fd = os.open(SHARED, os.O_RDONLY)
    try:
        if CHANNEL == "flock":
            fcntl.flock(fd, fcntl.LOCK_SH)
        elif CHANNEL == "posix_lock":
            fcntl.fcntl(fd, fcntl.F_SETLK, lock_struct(fcntl.F_RDLCK))
        report(setup="ok")
    except OSError as exc:
        report(setup=failure(exc))
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:  # the watches' channels: keep touching the shared file
        os.pread(fd, 1, 0)
        time.sleep(0.02)


def receive() -> None:
    fd = os.open(SHARED, os.O_RDONLY)
    heard = False
    try:
        if CHANNEL == "flock":
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                heard = True
        elif CHANNEL == "posix_lock":
            answer = fcntl.fcntl(fd, fcntl.F_GETLK, lock_struct(fcntl.F_WRLCK))
            heard = struct.unpack("hhqqi4x", answer)[0] != fcntl.F_UNLCK
        elif CHANNEL == "inotify":
            watch = libc.inotify_init1(os.O_NONBLOCK)
            if watch < 0:
                raise OSError(ctypes.get_errno(), "inotify_init1")
            if libc.inotify_add_watch(watch, SHARED.encode(), 0x1 | 0x20) < 0:  # IN_ACCESS | IN_OPEN
                raise OSError(ctypes.get_errno(), "inotify_add_watch")
            print("WATCHING", flush=True)
            heard = bool(select.select([watch], [], [], 5)[0])
        elif CHANNEL == "dnotify":
            events = []
            signal.signal(signal.SIGIO, lambda *_: events.append(1))
            folder = os.open("/bot", os.O_RDONLY | os.O_DIRECTORY)
            fcntl.fcntl(folder, fcntl.F_NOTIFY, fcntl.DN_ACCESS | fcntl.DN_MULTISHOT)
            print("WATCHING", flush=True)
            deadline = time.monotonic() + 5
            while not events and time.monotonic() < deadline:
                time.sleep(0.02)
            heard = bool(events)
        report(setup="ok", heard=heard)
    except OSError as exc:
        report(setup=failure(exc), heard=heard)
    time.sleep(60)


send() if ROLE == "send" else receive()
