"""Fixtures for running small hostile programs in the real sandbox."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from sandbox_helpers import PROGRAMS, PYTHON, assert_no_traces

from arena.sandbox import BotProcess, SandboxLimits, launch


@pytest.fixture
def make_bot_dir(tmp_path: Path) -> Callable[..., Path]:
    """A world-readable bot folder holding `program` (a file of programs/) as bot.py, plus `files`."""

    def make(program: str | None = None, name: str = "bot", files: dict[str, str] | None = None) -> Path:
        d = tmp_path / name
        d.mkdir()
        if program:
            shutil.copy(PROGRAMS / program, d / "bot.py")
        for rel, text in (files or {}).items():
            (d / rel).write_text(text)
        for path in [d, *d.rglob("*")]:
            path.chmod(0o755 if path.is_dir() else 0o644)
        return d

    return make


@pytest.fixture
def run_program(make_bot_dir) -> Iterator[Callable[..., BotProcess]]:
    """Launch a program of programs/ in the sandbox; every bot is closed at teardown, and must leave nothing."""
    started: list[BotProcess] = []

    def run(program: str, limits: SandboxLimits = SandboxLimits(), env: dict[str, str] | None = None,
            name: str = "bot", folder: Path | None = None) -> BotProcess:
        """`folder`: launch from this bot folder (made by make_bot_dir: two bots of one package share it)."""
        bot = launch(folder or make_bot_dir(program, name=name), [PYTHON, "bot.py"], None, limits, env=env)
        started.append(bot)
        return bot

    yield run
    for bot in started:
        bot.close()
        assert_no_traces(bot)


