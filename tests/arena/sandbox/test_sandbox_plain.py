"""sandbox=False (an author's own bot on their own machine): a plain child process with its socket in a private
temporary directory, the same ARENA_SOCKET variable, and the same cleanup on close."""

import os
import stat
import time
from pathlib import Path

from sandbox_helpers import PYTHON

from arena.sandbox import SandboxLimits, launch

FORKS_A_SLEEPER = """
import os, socket, time
if os.fork() == 0:
    time.sleep(60)
server = socket.socket(socket.AF_UNIX)
server.bind(os.environ["ARENA_SOCKET"])
server.listen()
print("child", flush=True)
time.sleep(60)
"""


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_plain_bot_serves_and_close_removes_it_and_its_children(make_bot_dir):
    bot_dir = make_bot_dir(files={"bot.py": FORKS_A_SLEEPER})
    bot = launch(bot_dir, [PYTHON, "bot.py"], None, SandboxLimits(), sandbox=False)
    try:
        assert bot.wait_for_socket(5)
        sock_dir = Path(bot.socket_path).parent
        assert stat.S_IMODE(sock_dir.stat().st_mode) == 0o700  # private to its owner
        group = [int(p) for p in os.listdir("/proc") if p.isdigit() and _pgid(int(p)) == bot.pid]
        assert len(group) == 2  # the bot and the child it forked
    finally:
        bot.close()
    assert not sock_dir.exists()
    deadline = time.monotonic() + 2
    while any(_alive(pid) for pid in group) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not any(_alive(pid) for pid in group)
    assert bot.exit_reason() == "stopped by the referee"


def _pgid(pid: int) -> int | None:
    try:
        return os.getpgid(pid)
    except OSError:
        return None
