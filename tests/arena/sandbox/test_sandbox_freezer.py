"""Freezing a bot's cgroup stops all of its processes (no CPU while frozen) until it is thawed; a frozen bot is
still killed and cleaned up completely, by close() or, after its referee died, by the next launch's sweep."""

import subprocess
import sys
import time

import pytest
from sandbox_helpers import PYTHON, assert_no_traces, requires_sandbox, wait_output

from arena.sandbox import SandboxLimits, launch, uids
from arena.sandbox.cgroups import BotCgroups

pytestmark = [pytest.mark.sandbox, requires_sandbox]


def wait_frozen(bot, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not bot.cgroups.frozen():
        assert time.monotonic() < deadline, "the cgroup never reached FROZEN"
        time.sleep(0.005)


def test_a_frozen_bot_gets_no_cpu_until_thawed(run_program):
    bot = run_program("spin_children.py", SandboxLimits(cpu_rate=1.0))
    wait_output(bot, "SPINNING", 5)
    assert bot.can_freeze
    bot.freeze()
    wait_frozen(bot)
    used = bot.cpu_seconds()
    time.sleep(0.5)  # four busy processes: unfrozen, they would take a whole core in that time
    assert bot.cpu_seconds() - used < 0.01
    bot.thaw()
    deadline = time.monotonic() + 10
    while bot.cpu_seconds() - used < 0.05:  # it runs again (however loaded the machine)
        assert time.monotonic() < deadline, "the thawed bot never ran"
        time.sleep(0.01)
    assert bot.poll() is None


def test_a_frozen_bot_is_still_killed_and_leaves_nothing(run_program):
    bot = run_program("spin_children.py")
    wait_output(bot, "SPINNING", 5)
    bot.freeze()
    wait_frozen(bot)
    bot.close()  # a frozen v1 process ignores SIGKILL until thawed: close() thaws first
    assert_no_traces(bot)  # (run_program checks again at teardown)
    assert "stopped by the referee" == bot.exit_reason()


REFEREE = """
import sys, time
from arena.sandbox import SandboxLimits, launch
bot = launch(sys.argv[1], ["/usr/bin/python3", "bot.py"], None, SandboxLimits())
assert bot.wait_for_socket(10), bot.output_tail()
bot.freeze()
while not bot.cgroups.frozen():
    time.sleep(0.005)
print(bot.uid, flush=True)
sys.stdin.read()
"""


def test_a_bot_left_frozen_by_a_killed_referee_is_swept(make_bot_dir):
    bot_dir = make_bot_dir("listen.py")
    referee = subprocess.Popen([sys.executable, "-c", REFEREE, str(bot_dir)], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, text=True)
    dead_uid = int(referee.stdout.readline())
    referee.kill()
    referee.wait(5)
    assert uids.processes_of_uid(dead_uid)  # frozen, they ignore --die-with-parent's SIGKILL

    bot = launch(bot_dir, [PYTHON, "bot.py"], None, SandboxLimits())  # sweeps the dead referee's slot
    bot.close()
    assert_no_traces(bot)
    assert uids.processes_of_uid(dead_uid) == []  # killed by the sweep: nothing of it runs any more
    assert not BotCgroups.locate(str(dead_uid)).exists()
    # their zombies are the host init's to reap (they were no child of ours), in its own time under load
    deadline = time.monotonic() + 10
    while uids.processes_of_uid(dead_uid, zombies=True) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert uids.processes_of_uid(dead_uid, zombies=True) == []
