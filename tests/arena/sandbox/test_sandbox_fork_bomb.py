"""A fork bomb is held at the pids limit, never exits by itself, and close() removes every process."""

import time

import pytest
from sandbox_helpers import requires_sandbox, wait_output

from arena.sandbox import SandboxLimits
from arena.sandbox.uids import processes_of_uid

pytestmark = [pytest.mark.sandbox, requires_sandbox]


def test_fork_bomb_is_contained_and_cleaned_up(run_program):
    limits = SandboxLimits(pids=24, cpu_rate=0.5)
    bot = run_program("fork_bomb.py", limits)
    wait_output(bot, "FORKING", 3)
    peak = 0
    deadline = time.monotonic() + 1.0
    while time.monotonic() < deadline:
        peak = max(peak, len(bot.cgroups.pids()), len(processes_of_uid(bot.uid)))
        time.sleep(0.02)
    assert 10 < peak <= limits.pids  # it did fork, and no further than the limit
    assert bot.poll() is None
    started = time.monotonic()
    bot.close()
    assert time.monotonic() - started < 3.0
    assert bot.exit_reason() == "stopped by the referee"
    # run_program's teardown asserts no process, cgroup, socket dir or uid lease is left
