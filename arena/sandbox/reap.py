"""Killing a set of processes that may still be forking: `kill_until_gone(pids, timeout, pause)`, the one kill
loop of the sandbox (a bot's cgroups, its uid, its processes inside the sandbox), and `kill_each`, one round."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable, Iterable


def kill_each(pids: Iterable[int]) -> None:
    """SIGKILL every process of `pids` (one already gone is skipped)."""
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def kill_until_gone(pids: Callable[[], Iterable[int]], timeout: float, pause: float,
                    done: Callable[[], bool] | None = None) -> bool:
    """SIGKILL every process `pids()` lists, again every `pause` seconds, until it lists none or `done()` (when
    given) is true (True), or `timeout` has passed (False). Each round kills whatever was forked during the last
    one, so a fork bomb bounded by a process limit runs dry."""
    deadline = time.monotonic() + timeout
    while True:
        if done is not None and done():
            return True
        found = list(pids())
        if not found:
            return True
        kill_each(found)
        if time.monotonic() > deadline:
            return False
        time.sleep(pause)
