"""Bots running at the same time never share a uid, not even bots of two separate referee processes, and a
uid is free again once its bot is closed."""

import os
import subprocess
import sys

import pytest
from sandbox_helpers import PYTHON, assert_no_traces, requires_sandbox

from arena.sandbox import SandboxLimits, launch, uids

pytestmark = [pytest.mark.sandbox, requires_sandbox]

HOLD_A_LEASE = """
import sys
from arena.sandbox.uids import UidLease
lease = UidLease.acquire()
print(lease.uid, flush=True)
sys.stdin.read()  # hold it until the test closes our stdin
"""


def test_two_processes_never_get_the_same_uid(monkeypatch):
    other = subprocess.Popen([sys.executable, "-c", HOLD_A_LEASE], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             text=True, cwd=os.getcwd())
    try:
        held_elsewhere = int(other.stdout.readline())
        # start our search exactly where the other process started its own
        monkeypatch.setattr(uids.os, "getpid", lambda: other.pid)
        mine = [uids.UidLease.acquire() for _ in range(3)]
        try:
            assert held_elsewhere not in {lease.uid for lease in mine}
            assert len({lease.uid for lease in mine}) == 3
        finally:
            for lease in mine:
                lease.release()
    finally:
        other.stdin.close()
        other.wait(5)


def test_concurrent_bots_get_distinct_uids_and_close_frees_them(make_bot_dir):
    bot_dir = make_bot_dir("listen.py")
    bots = [launch(bot_dir, [PYTHON, "bot.py"], None, SandboxLimits()) for _ in range(3)]
    try:
        assert all(bot.wait_for_socket(5) for bot in bots)
        assert len({bot.uid for bot in bots}) == 3
        assert len({bot.socket_path for bot in bots}) == 3
    finally:
        for bot in bots:
            bot.close()
    for bot in bots:
        assert_no_traces(bot)  # among others: the uid's lock can be taken again
