"""A bot's clock: the time its start-up and each of its decisions are charged, from the CPU the host gave it
rather than the wall clock, so that a busy machine never decides a game (bots/README.md, "Time control").

The rule. While a bot starts or decides, the referee watches the bot's own cgroup (every process and thread of
the bot) and charges it

    charged = max(cpu, wall - stalled - starved)

- `cpu`: CPU time (user + system) used by all the bot's processes and threads together since the clock started
  (cgroup CPU accounting). Threads count together: two threads computing at once spend the budget twice as fast
  (and the bot's cgroup quota, `SandboxLimits.cpu_rate`, caps how fast it can spend);
- `wall`: the time elapsed; `stalled`: time in which the referee's own process was stopped (`arena.match.stalls`);
- `starved`: time the host kept the bot from running although it wanted to run: the run-queue waits of its
  threads (runnable, not running: /proc/<tid>/schedstat), summed, plus the time its cgroup was held back by
  its CPU quota; never more than the wall.

So a bot that computes is charged the CPU it got; a bot that sleeps or blocks is charged the wall time it slept
(`wall - starved` is then the wall: sleeping is not being starved); a bot the host starved is charged what it got,
however long that took. With a quota of at most one core, the charge is never more than the wall clock.

The wall backstop: the referee waits at most `backstop_s(allowed)` of wall time (less its own stalls). A bot
still short of its budget then was not given it: the host is at fault (`HostTrouble`), never the bot.

What the clock cannot see: a thread that ended between two samples takes its last run-queue wait with it (the
bot is then charged a little more, never less), and waits before the first sample of a call (taken after
`FIRST_SAMPLE_S`: sampling costs ~0.1-0.3 ms, which a fast decision should not pay) are not forgiven either.
"""

from __future__ import annotations

import time

from arena.match import stalls
from arena.sandbox.process import BotProcess

#: The wall backstop is this many times the bot's budget ...
BACKSTOP_FACTOR = 10
#: ... plus this (so that a short budget still survives a burst of load).
BACKSTOP_SLACK_S = 10.0
#: How often a running call or start-up looks at the bot's clock.
POLL_S = 0.02
#: A call shorter than this is charged its wall time without looking at the cgroup (it cannot be over budget).
FIRST_SAMPLE_S = POLL_S


class HostTrouble(Exception):
    """The host could not give a bot the time the time control promises (or could not set the match up): the
    match is void, nobody's fault, and is played again (the platform) or reported (`arena play`)."""


def backstop_s(allowed_s: float) -> float:
    """How much wall time (less the referee's stalls) a bot with a budget of `allowed_s` is waited for."""
    return BACKSTOP_FACTOR * allowed_s + BACKSTOP_SLACK_S


class BotClock:
    """The clock of one start-up or one call of one bot, started at construction (see the module docstring)."""

    def __init__(self, process: BotProcess, t0: float | None = None, *, from_launch: bool = False) -> None:
        """`t0`: when the clock started, on perf_counter's scale (default: now). `from_launch`: the clock of the
        start-up, begun when the bot was launched, so every thread of the bot is new to it; otherwise (a call)
        the threads' waits count from the first sample on."""
        self.process = process
        self._baseline_taken = from_launch
        self.t0 = time.perf_counter() if t0 is None else t0
        self._cpu0 = process.cpu_seconds()
        self._throttled0 = process.throttled_seconds()
        self._delays: dict[int, float] = {}  # thread -> its run-queue wait at the last sample
        self._waited = 0.0  # run-queue waits summed over the bot's threads since the clock started
        self.cpu = 0.0
        self.starved = 0.0
        self.charged = 0.0

    def wall(self) -> float:
        """Seconds since the clock started, less the referee's own stalls."""
        now = time.perf_counter()
        return max(0.0, now - self.t0 - stalls.WATCH.overlap(self.t0, now))

    def stalled(self) -> float:
        """Seconds since the clock started in which the referee itself was stalled (never charged)."""
        return stalls.WATCH.overlap(self.t0, time.perf_counter())

    def sample(self) -> float:
        """Read the bot's cgroup; returns the seconds charged so far (also kept in `charged`)."""
        wall = self.wall()
        delays = self.process.run_delays()
        if self._baseline_taken:
            for tid, delay in delays.items():
                self._waited += max(0.0, delay - self._delays.get(tid, 0.0))
        self._baseline_taken = True
        self._delays = delays
        throttled = self.process.throttled_seconds() - self._throttled0
        self.cpu = max(0.0, self.process.cpu_seconds() - self._cpu0)
        self.starved = min(wall, self._waited + max(0.0, throttled))
        self.charged = max(self.cpu, wall - self.starved)
        return self.charged

    def describe(self) -> str:
        """The last sample in words, for a fault's message."""
        return (f"{self.charged * 1000:.0f} ms charged: {self.cpu * 1000:.0f} ms of CPU, "
                f"{self.wall() * 1000:.0f} ms of wall time of which {self.starved * 1000:.0f} ms waiting for a CPU")
