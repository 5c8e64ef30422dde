"""What a bot prints is kept as a bounded tail in memory: enough to explain a failure, never filling a disk."""

import time

import pytest
from sandbox_helpers import requires_sandbox, wait_exit, wait_output

from arena.sandbox import SandboxLimits

pytestmark = [pytest.mark.sandbox, requires_sandbox]


def test_endless_printing_keeps_only_the_latest_tail(run_program):
    bot = run_program("chatter.py", SandboxLimits())
    wait_output(bot, "line ", 5)
    time.sleep(0.6)
    first = bot.output_tail(300)
    time.sleep(0.4)
    later = bot.output_tail(4000)
    assert len(bot.output_tail(10**9).encode()) <= 64 * 1024
    assert "line 0 " not in later
    last = lambda text: int(text.strip().splitlines()[-1].split()[1])
    assert last(later) > last(first) > 1000  # the tail moves on: it is the latest output
    # drained at a bounded rate: ~4 MB/s of 210-byte lines over ~1 s, not the GB/s a pipe could carry
    assert last(later) < 60_000
    assert bot.poll() is None  # printing a lot is no crime


def test_crash_traceback_is_in_the_tail(run_program):
    bot = run_program("crash.py", SandboxLimits())
    assert wait_exit(bot, 5) == 1
    bot.close()
    assert "RuntimeError: boom in the bot" in bot.output_tail()
    assert "about to crash" in bot.output_tail()
    assert bot.exit_reason() == "exited with code 1"


def test_segfault_is_explained(run_program):
    bot = run_program("segfault.py", SandboxLimits())
    assert wait_exit(bot, 5) == 128 + 11
    assert bot.exit_reason() == "crashed with a segmentation fault (SIGSEGV)"
