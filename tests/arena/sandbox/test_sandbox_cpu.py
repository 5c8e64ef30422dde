"""CPU: the per-process rlimit, the rate cap, and the total budget for the match (counted over all children)."""

import time

import pytest

from arena.sandbox import SandboxLimits
from sandbox_helpers import requires_sandbox, wait_exit, wait_output

pytestmark = [pytest.mark.sandbox, requires_sandbox]


def test_spinning_forever_hits_the_cpu_rlimit(run_program):
    bot = run_program("spin.py", SandboxLimits(cpu_seconds=1))
    # not polling meanwhile: poll() would end the bot for its match budget (also 1 s) just as well
    wait_output(bot, "SPINNING", 3)
    time.sleep(1.6)
    assert bot.poll() == 128 + 24  # SIGXCPU
    assert bot.exit_reason() == "CPU time limit exceeded (1 s per process, SIGXCPU)"
    assert 0.9 < bot.cpu_seconds() < 2.5


def test_cpu_rate_is_capped(run_program):
    bot = run_program("spin.py", SandboxLimits(cpu_rate=0.3))
    wait_output(bot, "SPINNING", 3)
    start_cpu, start = bot.cpu_seconds(), time.monotonic()
    time.sleep(1.0)
    rate = (bot.cpu_seconds() - start_cpu) / (time.monotonic() - start)
    assert 0.1 < rate < 0.45


def test_total_cpu_budget_counts_every_child(run_program):
    # four spinning processes share one core: none reaches its own 2 s rlimit before ~8 s, but together they
    # spend the match's 2 s budget in ~2 s, and poll() ends the bot for it
    limits = SandboxLimits(cpu_seconds=2, cpu_rate=1.0)
    bot = run_program("spin_children.py", limits)
    wait_output(bot, "SPINNING", 3)
    started = time.monotonic()
    assert not bot.over_cpu_budget()
    rc = wait_exit(bot, 6)
    assert rc is not None and time.monotonic() - started < 4.0
    assert bot.exit_reason().startswith("CPU budget exceeded: used 2.")
    assert bot.exit_reason().endswith("the match allows 2 s")
