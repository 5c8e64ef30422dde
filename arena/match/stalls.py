"""The referee's own stalls: time in which this process could not run (SIGSTOP, a paused VM, a host that did not
schedule it), which must not be charged to a bot deciding meanwhile.

A daemon thread ticks every `TICK_S` on CLOCK_MONOTONIC (which goes on through a stop); a gap between two ticks
longer than `STALL_S` is a stall of the gap less one tick. The thread may not have run yet when the referee, just
resumed, looks at a call's time (its deadline fired at the resume): `overlap` counts the gap still open since the
last tick too, so the answer never depends on which thread the kernel wakes first.

Why not CPU clocks: the referee mostly waits (no CPU) while a bot decides, so its CPU time says nothing about
whether it was stopped; CLOCK_BOOTTIME differs from CLOCK_MONOTONIC only across a suspend of the whole machine.
What a bot gains from a forgiven stall is time to compute while the referee could not look (its process is not
stopped with the referee's); what it could gain by causing one is bounded by its cgroup's CPU share, and gaps
below `STALL_S` (ordinary scheduling delays on a loaded host) are never forgiven.
"""

from __future__ import annotations

import threading
import time

#: How often the watch thread ticks (a wake-up of a few µs).
TICK_S = 0.02
#: A gap between ticks longer than this is a stall (scheduling delays on a loaded machine stay below it).
STALL_S = 0.25
#: Stalls older than this are forgotten (no call lasts that long).
KEEP_S = 3600.0


class StallWatch:
    """Records the intervals (`time.perf_counter` seconds, CLOCK_MONOTONIC) in which this process was stalled."""

    def __init__(self, tick_s: float = TICK_S, stall_s: float = STALL_S) -> None:
        self.tick_s, self.stall_s = tick_s, stall_s
        self._lock = threading.Lock()
        self._last = time.perf_counter()
        self._stalls: list[tuple[float, float]] = []
        self._thread: threading.Thread | None = None
        self._pid = 0

    def ensure_running(self) -> None:
        """Start the watch thread in this process (again after a fork: threads do not survive one)."""
        import os

        with self._lock:
            if self._thread is not None and self._thread.is_alive() and self._pid == os.getpid():
                return
            self._pid = os.getpid()
            self._last = time.perf_counter()
            self._thread = threading.Thread(target=self._run, name="arena-stall-watch", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        while True:
            time.sleep(self.tick_s)
            self.tick()

    def tick(self) -> None:
        now = time.perf_counter()
        with self._lock:
            if now - self._last > self.stall_s:
                self._stalls.append((self._last + self.tick_s, now))
                self._stalls = [s for s in self._stalls if s[1] > now - KEEP_S]
            self._last = now

    def overlap(self, t0: float, t1: float) -> float:
        """Seconds of [t0, t1] (perf_counter values) in which this process was stalled, the gap still open since
        the last tick included."""
        with self._lock:
            stalls = list(self._stalls)
            now = time.perf_counter()
            if now - self._last > self.stall_s:
                stalls.append((self._last + self.tick_s, now))
        return sum(max(0.0, min(end, t1) - max(start, t0)) for start, end in stalls)


#: The one watch of this process (the referee's calls all ask it).
WATCH = StallWatch()
