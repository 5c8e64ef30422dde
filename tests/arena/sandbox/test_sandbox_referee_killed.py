"""A referee killed in the middle of a match (SIGKILL: no cleanup code runs) takes its bots down with it, and
the next sandbox given the same uid starts from a clean slate: what the dead referee left (mounts, cgroups) is
removed first, and nothing is left after that one closes."""

import subprocess
import sys
import time

import pytest

from arena.sandbox import SandboxLimits, launch, uids
from arena.sandbox.cgroups import BotCgroups
from sandbox_helpers import PYTHON, assert_no_traces, requires_sandbox

pytestmark = [pytest.mark.sandbox, requires_sandbox]

REFEREE = """
import sys
from arena.sandbox import SandboxLimits, launch
bot = launch(sys.argv[1], ["/usr/bin/python3", "bot.py"], None, SandboxLimits())
assert bot.wait_for_socket(10), bot.output_tail()
print(bot.uid, flush=True)
sys.stdin.read()
"""


def test_bots_die_with_their_referee_and_leftovers_are_cleaned(make_bot_dir, monkeypatch):
    bot_dir = make_bot_dir("listen.py")
    referee = subprocess.Popen([sys.executable, "-c", REFEREE, str(bot_dir)], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, text=True)
    uid = int(referee.stdout.readline())
    assert uids.processes_of_uid(uid)
    referee.kill()
    referee.wait(5)

    deadline = time.monotonic() + 5  # --die-with-parent; the host's init reaps what is left
    while uids.processes_of_uid(uid, zombies=True) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert uids.processes_of_uid(uid, zombies=True) == []
    # what only the dead referee's close() would have removed is still there
    assert (uids.state_dir() / "mnt" / str(uid) / "sock").is_mount()
    assert BotCgroups.locate(str(uid)).exists()

    # the next launch that starts its search at that uid takes it over and cleans the leftovers first
    monkeypatch.setattr(uids.os, "getpid", lambda: uid - uids.UID_BASE)
    bot = launch(bot_dir, [PYTHON, "bot.py"], None, SandboxLimits())
    try:
        assert bot.uid == uid
        assert bot.wait_for_socket(5)
    finally:
        bot.close()
    assert_no_traces(bot)
