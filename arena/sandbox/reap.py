"""Killing a set of processes that may still be forking: `kill_until_gone(pids, timeout, pause)`."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable, Iterable


def kill_until_gone(pids: Callable[[], Iterable[int]], timeout: float, pause: float) -> bool:
    """SIGKILL every process `pids()` lists, again every `pause` seconds, until it lists none (True) or `timeout`
    has passed (False). Each round kills whatever was forked during the last one, so a fork bomb bounded by a
    process limit runs dry."""
    deadline = time.monotonic() + timeout
    while True:
        found = list(pids())
        if not found:
            return True
        for pid in found:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        if time.monotonic() > deadline:
            return False
        time.sleep(pause)
