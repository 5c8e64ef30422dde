"""Waiting for a bot's socket: a bot that never opens it is given up on at the timeout; a serving bot sees its
socket at ARENA_SOCKET, runs as its own uid, with a clean environment."""

import json
import os
import socket
import time

import pytest
from sandbox_helpers import requires_sandbox, wait_output

from arena.sandbox import SandboxLimits

pytestmark = [pytest.mark.sandbox, requires_sandbox]


def test_bot_that_never_opens_its_socket_times_out(run_program):
    bot = run_program("silent.py", SandboxLimits())
    wait_output(bot, "SLEEPING", 3)
    started = time.monotonic()
    assert bot.wait_for_socket(0.5) is False
    assert 0.45 < time.monotonic() - started < 1.0
    assert bot.poll() is None


def test_dead_bot_is_not_waited_for(run_program):
    bot = run_program("crash.py", SandboxLimits())
    started = time.monotonic()
    assert bot.wait_for_socket(5) is False
    assert time.monotonic() - started < 2.0


def test_serving_bot_gets_socket_uid_and_clean_environment(run_program, monkeypatch):
    monkeypatch.setenv("ARENA_TEST_SECRET", "host secret")
    bot = run_program("listen.py", SandboxLimits(), env={"BOT_OPTION": "1"})
    assert bot.wait_for_socket(3)
    with socket.socket(socket.AF_UNIX) as client:
        client.connect(bot.socket_path)
        view = json.loads(client.recv(65536))
    assert view["uid"] == bot.uid != os.getuid()
    assert view["cwd"] == "/bot"
    assert view["env"]["ARENA_SOCKET"] == "/sock/bot.sock"
    assert view["env"]["BOT_OPTION"] == "1"
    assert "ARENA_TEST_SECRET" not in view["env"]
    assert set(view["env"]) <= {"ARENA_SOCKET", "BOT_OPTION", "PATH", "HOME", "LANG", "TMPDIR", "PWD"}
