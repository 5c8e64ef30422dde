"""CPU: the per-process rlimit, the rate cap, and the total budget for the match (counted over all children)."""

import time

import pytest
from sandbox_helpers import requires_sandbox, wait_exit, wait_output

from arena.sandbox import SandboxLimits

pytestmark = [pytest.mark.sandbox, requires_sandbox]


def test_spinning_forever_hits_the_cpu_rlimit(run_program):
    bot = run_program("spin.py", SandboxLimits(cpu_seconds=1))
    # not polling meanwhile (poll() would end the bot for its match budget, also 1 s, just as well): watch its
    # cgroup until its processes are gone
    wait_output(bot, "SPINNING", 3)
    deadline = time.monotonic() + 15
    while bot.cgroups.pids() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert wait_exit(bot, 2) == 128 + 24  # SIGXCPU
    assert bot.exit_reason() == "CPU time limit exceeded (1 s per process, SIGXCPU)"
    assert 0.5 < bot.cpu_seconds() < 3.0, bot.cpu_seconds()  # wide: steal time on a busy VM


def test_cpu_rate_is_capped(run_program):
    bot = run_program("spin.py", SandboxLimits(cpu_rate=0.3))
    wait_output(bot, "SPINNING", 3)
    start_cpu, start = bot.cpu_seconds(), time.monotonic()
    time.sleep(1.0)
    rate = (bot.cpu_seconds() - start_cpu) / (time.monotonic() - start)
    assert 0.1 < rate < 0.45


def test_total_cpu_budget_counts_every_child(run_program):
    # four spinning processes share one core: none reaches its own 1 s rlimit before they have spent ~4 s
    # together, but the match allows 1 s in all, and poll() ends the bot for it
    limits = SandboxLimits(cpu_seconds=1, cpu_rate=1.0)
    bot = run_program("spin_children.py", limits)
    wait_output(bot, "SPINNING", 3)
    assert not bot.over_cpu_budget()
    assert wait_exit(bot, 20) is not None
    assert bot.cpu_seconds() < 2.0  # long before any process met its own rlimit
    assert bot.exit_reason().startswith("CPU budget exceeded: used 1.")
    assert bot.exit_reason().endswith("the match allows 1 s")
