"""A referee killed in the middle of a match (SIGKILL: no cleanup code runs) takes its bots down with it
(bubblewrap's --die-with-parent), and what only its close() would have removed (mounts, cgroups, a uid marked in
use) is swept by the next launch on the host, whichever uid that one gets. A referee that merely forgets to
close its bots leaves nothing when it exits."""

import subprocess
import sys
import time

import pytest
from sandbox_helpers import PYTHON, assert_no_traces, requires_sandbox

from arena.sandbox import SandboxLimits, launch, uids
from arena.sandbox.cgroups import BotCgroups

pytestmark = [pytest.mark.sandbox, requires_sandbox]

REFEREE = """
import sys
from arena.sandbox import SandboxLimits, launch
bot = launch(sys.argv[1], ["/usr/bin/python3", "bot.py"], None, SandboxLimits())
assert bot.wait_for_socket(10), bot.output_tail()
print(bot.uid, flush=True)
if sys.argv[2] == "wait":
    sys.stdin.read()
"""


def _referee(bot_dir, mode):
    return subprocess.Popen([sys.executable, "-c", REFEREE, str(bot_dir), mode], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)


def test_next_launch_sweeps_what_a_killed_referee_left(make_bot_dir):
    bot_dir = make_bot_dir("listen.py")
    referee = _referee(bot_dir, "wait")
    dead_uid = int(referee.stdout.readline())
    referee.kill()
    referee.wait(5)
    slot = uids.state_dir() / "mnt" / str(dead_uid)
    assert slot.exists() and BotCgroups.locate(str(dead_uid)).exists()

    deadline = time.monotonic() + 5  # --die-with-parent; the host's init reaps the rest
    while uids.processes_of_uid(dead_uid, zombies=True) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert uids.processes_of_uid(dead_uid, zombies=True) == []

    bot = launch(bot_dir, [PYTHON, "bot.py"], None, SandboxLimits())
    bot.close()
    assert_no_traces(bot)
    assert not slot.exists()
    assert not BotCgroups.locate(str(dead_uid)).exists()


def test_referee_that_exits_without_closing_leaves_nothing(make_bot_dir):
    referee = _referee(make_bot_dir("listen.py"), "exit")
    uid = int(referee.stdout.readline())
    assert referee.wait(10) == 0
    assert not (uids.state_dir() / "mnt" / str(uid)).exists()
    assert not BotCgroups.locate(str(uid)).exists()
    assert uids.processes_of_uid(uid, zombies=True) == []
