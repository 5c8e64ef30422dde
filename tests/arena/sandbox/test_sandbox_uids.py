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


@pytest.fixture
def a_range_of_its_own():
    """This process is handed the range a worker's uid block would give it (arena_site.uid_blocks)."""
    block = uids.block_range(5)
    uids.use_range(block)
    yield block
    uids.use_range(None)


def test_a_referee_given_a_range_starts_bots_with_uids_of_that_range_only(make_bot_dir, a_range_of_its_own):
    bot_dir = make_bot_dir("listen.py")
    bots = [launch(bot_dir, [PYTHON, "bot.py"], None, SandboxLimits()) for _ in range(2)]
    try:
        assert all(bot.uid in a_range_of_its_own for bot in bots)
        assert not any(bot.uid in uids.DEFAULT_RANGE for bot in bots)
    finally:
        for bot in bots:
            bot.close()


def test_the_sandbox_refuses_a_uid_outside_its_range(a_range_of_its_own):
    from arena.sandbox.process import SandboxedBot

    outside = uids.block_range(6).first  # the next worker's block
    lease = uids.UidLease.try_take(outside)
    assert lease is not None
    with pytest.raises(uids.SandboxUnavailable, match="outside this referee's sandbox uid range"):
        SandboxedBot(limits=SandboxLimits(), lease=lease)
    again = uids.UidLease.try_take(outside)
    assert again is not None  # refused, and its lease was given back
    again.release()


def test_a_range_comes_from_the_environment_too(monkeypatch):
    monkeypatch.setattr(uids, "_range", None)  # no range given in-process (an earlier test's task may have leased one)
    monkeypatch.setenv("ARENA_SANDBOX_UIDS", "3000000-3000009")
    assert uids.current_range() == uids.UidRange(3000000, 10)
    lease = uids.UidLease.acquire()
    try:
        assert 3000000 <= lease.uid <= 3000009
    finally:
        lease.release()
    with pytest.raises(ValueError):
        uids.UidRange.parse("9-3")


def test_threads_of_one_process_never_share_a_uid_and_the_one_too_many_is_refused(a_range_of_its_own):
    """The people's worker runs many matches in threads of one process (one uid block): its referees lease
    uids at the same moment, from the same starting point; each gets its own, and when the block is used up the
    next one is refused (SandboxUnavailable: that match fails with the reason) rather than handed a uid in use."""
    import threading

    barrier = threading.Barrier(a_range_of_its_own.count + 1)
    got: list = []
    refused: list = []

    def take() -> None:
        barrier.wait()
        try:
            got.append(uids.UidLease.acquire())
        except uids.SandboxUnavailable as exc:
            refused.append(exc)

    threads = [threading.Thread(target=take) for _ in range(a_range_of_its_own.count + 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    try:
        assert len(got) == a_range_of_its_own.count and len(refused) == 1
        assert len({lease.uid for lease in got}) == len(got)
        assert all(lease.uid in a_range_of_its_own for lease in got)
    finally:
        for lease in got:
            lease.release(clean=True)
