"""A bot's number may be another process's once the bot is reaped: closing a bot that ended by itself long ago
signals nothing by that number. Its pid namespace wraps at pid_max (32768 on many hosts; a worker container
starts at 1 and every bot's threads take numbers too), so the process group that close() killed after the bot
was reaped (`killpg(bot.pid)`) could be another bot's by then.

Played in a pid namespace of its own, where the test can give a number out again at once (ns_last_pid): the
bot ends and is reaped, a process leading its own group gets the bot's number, then the bot is closed."""

from __future__ import annotations

import subprocess
import sys

import pytest
from sandbox_helpers import requires_sandbox

pytestmark = [pytest.mark.sandbox, requires_sandbox]

REUSE = """
import os, subprocess, sys, time
from arena.sandbox import SandboxLimits, launch
bot = launch(sys.argv[1], ["/usr/bin/true"], None, SandboxLimits())
deadline = time.monotonic() + 30
while bot.poll() is None and time.monotonic() < deadline:  # ended by itself, and reaped
    time.sleep(0.01)
assert bot.poll() == 0, bot.exit_reason()
with open("/proc/sys/kernel/ns_last_pid", "w") as f:
    f.write(str(bot.pid - 1))
other = subprocess.Popen(["/usr/bin/sleep", "60"], start_new_session=True)  # leads a group of its own
print("same number" if other.pid == bot.pid else f"other number {other.pid} != {bot.pid}", flush=True)
bot.close()
time.sleep(0.2)
print(other.poll() is None and "alive" or f"killed ({other.returncode})", flush=True)
other.kill()
"""


def test_closing_a_reaped_bot_never_signals_a_process_that_got_its_number(make_bot_dir):
    done = subprocess.run(["unshare", "--pid", "--fork", "--mount-proc", sys.executable, "-c", REUSE,
                           str(make_bot_dir("listen.py"))], capture_output=True, text=True, timeout=120)
    said = done.stdout.split("\n")
    assert said[0] == "same number", (done.stdout, done.stderr)
    assert said[1] == "alive", (done.stdout, done.stderr)  # was: killed (-9)
