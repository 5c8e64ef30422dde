"""Helpers for running small hostile programs in the real sandbox (root + bubblewrap + cgroups needed)."""

from __future__ import annotations

import fcntl
import json
import os
import time
from pathlib import Path

import pytest

from arena.sandbox import BotProcess, SandboxUnavailable, check_available
from arena.sandbox.uids import processes_of_uid, state_dir

PROGRAMS = Path(__file__).parent / "programs"
PYTHON = "/usr/bin/python3"  # lives under /usr, so it needs no runtime bound in


def sandbox_skip_reason() -> str | None:
    try:
        check_available()
    except SandboxUnavailable as exc:
        return f"this host cannot sandbox: {exc}"
    return None


requires_sandbox = pytest.mark.skipif(sandbox_skip_reason() is not None,
                                      reason=sandbox_skip_reason() or "")


def wait_exit(bot: BotProcess, timeout: float) -> int | None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        rc = bot.poll()
        if rc is not None:
            return rc
        time.sleep(0.02)
    return bot.poll()


def wait_output(bot: BotProcess, marker: str, timeout: float) -> str:
    """Wait until the bot has printed `marker`; the output so far."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        out = bot.output_tail(100_000)
        if marker in out:
            return out
        time.sleep(0.02)
    raise AssertionError(f"bot never printed {marker!r}; output: {bot.output_tail()!r}; "
                         f"exit: {bot.exit_reason()}")


def result_of(bot: BotProcess, timeout: float = 5.0) -> dict:
    """The JSON object a program printed after `RESULT `."""
    out = wait_output(bot, "RESULT ", timeout)
    line = [text for text in out.splitlines() if text.startswith("RESULT ")][-1]
    return json.loads(line[len("RESULT "):])


def assert_no_traces(bot: BotProcess) -> None:
    """After close: no process of the bot's uid (not even a zombie), no cgroup, no socket dir, the uid free."""
    assert bot.closed
    assert bot.uid is not None
    assert processes_of_uid(bot.uid, zombies=True) == []
    assert bot.cgroups is not None and not bot.cgroups.exists()
    slot = Path(bot.socket_path).parent.parent  # <state>/mnt/<uid>: socket tmpfs, bot and runtime binds
    assert not slot.exists()
    with open("/proc/self/mounts") as f:
        assert str(slot) not in f.read()
    fd = os.open(state_dir() / "uids" / f"{bot.uid}.lock", os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # raises if the lease were still held
    finally:
        os.close(fd)
