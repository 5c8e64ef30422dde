"""Shared by the referee tests: the misbehaving bots and a quick Nim match between them."""

from __future__ import annotations

from pathlib import Path

from arena.match import BotSpec, MatchResult, TimeControl, run_match

BOTS = Path(__file__).resolve().parent / "bots"

#: The bot-seed key of the tests' matches (a real match draws a secret one: arena.match.protocol.bot_seed).
FIXED_KEY = bytes(range(32))

#: Short limits so that timeouts and startup failures cost little test time.
QUICK = TimeControl(decision_ms=200, bank_ms=300, startup_ms=5000, max_faults=2)


def bot(name: str) -> BotSpec:
    return BotSpec(str(BOTS / name))


def play_nim(*names: str, seed: int = 5, time_control: TimeControl = QUICK, sandbox: bool = True,
             replay_path=None, logs: list | None = None, bot_seed_key: bytes | None = FIXED_KEY) -> MatchResult:
    """A Nim match. The bots' seeds are keyed by a fixed key, so that a test sees the same game each run;
    `bot_seed_key=None` draws a fresh key, as a real match does."""
    return run_match("nim", {}, seed, [bot(n) for n in names], time_control=time_control, sandbox=sandbox,
                     replay_path=replay_path, _logs=logs, bot_seed_key=bot_seed_key)


def run_stopping_the_referee(args: list[str], env: dict[str, str], signal_file: Path, stop_s: float,
                             waiting_for: str) -> tuple[str, str]:
    """Run a referee subprocess (`python -c <args>`), stop it (SIGSTOP) for `stop_s` as soon as a bot writes
    `signal_file` (the moment the test aims at is under way; the bot goes on meanwhile), continue it, and return its
    stdout and stderr once it exited with 0. `waiting_for` names the moment, for the failure message."""
    import os
    import signal
    import subprocess
    import sys
    import time

    root = BOTS.parents[3]
    referee = subprocess.Popen([sys.executable, "-c", *args], cwd=root, env={**os.environ, **env},
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while not signal_file.exists():
            assert referee.poll() is None, referee.communicate()
            assert time.monotonic() < deadline, f"{waiting_for} never came"
            time.sleep(0.005)
        os.kill(referee.pid, signal.SIGSTOP)
        time.sleep(stop_s)
        os.kill(referee.pid, signal.SIGCONT)
        out, err = referee.communicate(timeout=60)
    finally:
        if referee.poll() is None:
            referee.kill()
            referee.wait()
    assert referee.returncode == 0, err
    return out, err
