"""Two Arenas on one kernel that do not coordinate their uids (issue 24): a worker container and a referee on the
host (a test suite, `make up`, a second compose project) each lease uids in their own state folder and their own
database, so both may hand out one uid at once. The host sees every container's processes in its /proc. A referee
must then never kill the other deployment's bot for having the uid it leased: before this was fixed, every
close() of a host referee (its scan for leftovers of its uid) SIGKILLed the container's bot of that uid; the e2e
saw an uploaded bot "killed (SIGKILL)" at turn 33 of its validation while a test suite ran on the host.

The other deployment here is a referee process with a state folder and cgroups of its own (as a container has),
running a real bot in the real sandbox with the very uid this process then leases."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from sandbox_helpers import PYTHON, assert_no_traces, requires_sandbox

from arena.sandbox import SandboxLimits, cgroups, launch, uids

pytestmark = [pytest.mark.sandbox, requires_sandbox]

# Joins the cgroups named in argv[2:] (its "container"), starts a bot with uid argv[1], says so, then answers
# "running" or the bot's exit reason for each line it reads; closes its bot at the end of its input.
OTHER_DEPLOYMENT = """
import sys
for procs in sys.argv[3:]:
    with open(procs, "w") as f:
        f.write(str(__import__("os").getpid()))
from arena.sandbox import SandboxLimits, launch
bot = launch(sys.argv[2], ["/usr/bin/python3", "bot.py"], None, SandboxLimits())
assert bot.wait_for_socket(30), bot.output_tail()
print(bot.uid, flush=True)
for _ in sys.stdin:
    print(bot.exit_reason() or "running", flush=True)
bot.close()
"""


@pytest.fixture
def only_uid(monkeypatch) -> Callable[[int], None]:
    """only_uid(uid): this process leases `uid` alone until the test ends — whatever range an earlier test left it
    (a platform test that ran a task in this process leased a worker's block: `uids.use_range`, which outranks
    ARENA_SANDBOX_UIDS)."""
    def only(uid: int) -> None:
        monkeypatch.setattr(uids, "_range", uids.UidRange(uid, 1))  # (restored after the test)
    return only


@pytest.fixture
def container_cgroups() -> Iterator[list[Path]]:
    """A cgroup of its own in every hierarchy the sandbox uses, beside this process's (what a container gets)."""
    name = f"arena-test-deployment-{os.getpid()}"
    if cgroups.is_v2():
        dirs = [cgroups._v2_base() / name]
    else:
        dirs = sorted({path / name for path in cgroups._v1_hierarchies().values()})
    for d in dirs:
        d.mkdir()
    yield dirs
    for d in dirs:  # what the other deployment's sandbox made inside, then its own
        for below in sorted(d.rglob("*"), key=lambda p: len(p.parts), reverse=True):
            if below.is_dir():
                below.rmdir()
        d.rmdir()


@pytest.fixture
def other_deployment(make_bot_dir, container_cgroups):
    """start(uid): a referee of another deployment (its own pid namespace, as a container's: it sees none of our
    processes; its own cgroups and state folder) runs a real bot as `uid`. Returns a function telling that bot's
    state: "running" or its exit reason."""
    started: list[subprocess.Popen] = []
    # its state folder where the bots' uids can reach its /proc copies (as /run/arena-sandbox), not in tmp_path
    state_folder = Path(tempfile.mkdtemp(prefix="arena-test-deployment-", dir="/run"))

    def start(uid: int):
        env = {**os.environ, "ARENA_SANDBOX_DIR": str(state_folder), "ARENA_SANDBOX_UIDS": f"{uid}-{uid}"}
        other = subprocess.Popen(["unshare", "--pid", "--fork", "--mount-proc", sys.executable, "-c",
                                  OTHER_DEPLOYMENT, str(uid), str(make_bot_dir("listen.py", name="other")),
                                  *(str(d / "cgroup.procs") for d in container_cgroups)],
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
        started.append(other)
        assert int(other.stdout.readline()) == uid, "the other deployment's bot did not start"

        def state() -> str:
            other.stdin.write("?\n")
            other.stdin.flush()
            return other.stdout.readline().strip()

        return state

    yield start
    for other in started:
        other.stdin.close()
        assert other.wait(30) == 0
    shutil.rmtree(state_folder)


def test_closing_a_bot_never_kills_another_deployments_bot_that_got_its_uid(make_bot_dir, only_uid,
                                                                            other_deployment):
    """The e2e's case: the container leased the uid while a referee on the host held it (neither can know)."""
    uid = uids.block_range(40).first  # a worker's block, as both deployments' databases hand it out
    only_uid(uid)
    mine = launch(make_bot_dir("listen.py"), [PYTHON, "bot.py"], None, SandboxLimits())
    try:
        assert mine.uid == uid and mine.wait_for_socket(30), mine.output_tail()
        theirs = other_deployment(uid)
    finally:
        mine.close()  # its scan for what is left of its uid sees the other deployment's bot
    assert theirs() == "running"  # was: "killed (SIGKILL)"
    assert_no_traces(mine)


def test_a_uid_left_unclean_is_not_cleaned_by_killing_another_deployments_bot(make_bot_dir, only_uid,
                                                                             other_deployment):
    """A lease whose last holder died is cleaned before use; a process of its uid that is not in this referee's
    sandboxes is another deployment's bot: left alone, and the uid is not used while it runs."""
    uid = uids.block_range(40).first
    theirs = other_deployment(uid)
    lease = uids.UidLease.try_take(uid)
    assert lease is not None
    lease.mark_in_use()  # as a holder that died would leave it
    lease.release()
    only_uid(uid)
    with pytest.raises(uids.SandboxUnavailable, match="in use"):
        launch(make_bot_dir("listen.py"), [PYTHON, "bot.py"], None, SandboxLimits()).close()
    assert theirs() == "running"  # was: "killed (SIGKILL)"
