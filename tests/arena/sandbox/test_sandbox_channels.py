"""No channel between two sandboxes through a shared inode (issue 22, item 1): two bots of one package are launched
from the same folder, so /bot/bot.py is one file for both (as every file of /usr and the runtime is for all bots).
On the old filter a bot learned another's acts through locks it saw and file-access events it watched (inotify,
dnotify); now watching is refused, and a lock is granted without being held, so nobody else ever sees it."""

import time
from collections.abc import Callable

import pytest
from sandbox_helpers import requires_sandbox, result_of

from arena.sandbox import BotProcess, seccomp

pytestmark = [pytest.mark.sandbox, requires_sandbox,
              pytest.mark.skipif(not seccomp.available(), reason="libseccomp2 is not installed")]


@pytest.fixture
def pair(make_bot_dir, run_program) -> Callable[[str, str], BotProcess]:
    """start(role, channel) launches a bot of the one shared package in its own sandbox."""
    folder = make_bot_dir("channel.py")
    return lambda role, channel: run_program("channel.py", env={"ARENA_TEST_ROLE": role,
                                                                "ARENA_TEST_CHANNEL": channel}, folder=folder)


@pytest.mark.parametrize("channel", ["flock", "posix_lock"])
def test_a_lock_taken_in_one_sandbox_is_not_seen_from_another(pair, channel):
    sender = pair("send", channel)
    assert result_of(sender) == {"setup": "ok"}  # granted, as on a machine of its own: runtimes that lock still run
    receiver = result_of(pair("receive", channel))
    assert receiver["heard"] is False
    if channel == "posix_lock":
        assert receiver["setup"] == "ENOLCK"  # asking who holds a lock: "no locks available"


@pytest.mark.parametrize("channel", ["inotify", "dnotify"])
def test_a_sandbox_cannot_watch_another_open_a_shared_file(pair, channel):
    receiver = pair("receive", channel)
    deadline = time.monotonic() + 10
    while not any(word in receiver.output_tail() for word in ("WATCHING", "RESULT ")):
        assert time.monotonic() < deadline, receiver.output_tail()
        time.sleep(0.02)
    if "WATCHING" in receiver.output_tail():  # the old filter: the watch is set, so the sender plays its part
        pair("send", channel)
    assert result_of(receiver, timeout=10) == {"setup": "ENOSYS" if channel == "inotify" else "EPERM",
                                               "heard": False}
