"""Who a worker process is, and whether one is known to be gone: the identity that claims a match, a
validation and a sandbox uid block (`matches.services`, `botregistry.tasks`, `matches.uid_blocks`).

A worker is `host/pid-namespace:pid`: a pid means one process only within one pid namespace of one host, so
containers that share a host name but not their processes are told apart.
"""

from __future__ import annotations

import os
import socket


def process_space() -> str:
    """Where a pid means one process: this host's name and its pid namespace."""
    try:
        namespace = os.stat("/proc/self/ns/pid").st_ino
    except OSError:
        return socket.gethostname()
    return f"{socket.gethostname()}/{namespace}"


def worker_id() -> str:
    """This worker process, as a claim names it: `host/pid-namespace:pid`."""
    return f"{process_space()}:{os.getpid()}"


def known_dead(worker: str) -> bool:
    """Whether the worker process named `worker` (`worker_id`, optionally followed by `#<nonce>`) is known to be
    gone: it ran in this host's pid namespace and no process has its pid any more — a pool process killed (OOM
    killer, SIGKILL). Unknown (another host or container, or a pid reused) is not dead: a heartbeat's age
    decides then."""
    host, _, pid = worker.split("#", 1)[0].rpartition(":")
    if host != process_space() or not pid.isdigit() or int(pid) <= 0 or int(pid) == os.getpid():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except OSError:  # exists, but not ours to signal
        return False
    return False
