"""Shared by the referee tests: the misbehaving bots and a quick Nim match between them."""

from __future__ import annotations

from pathlib import Path

from arena.match import BotSpec, MatchResult, TimeControl, run_match

BOTS = Path(__file__).resolve().parent / "bots"

#: Short limits so that timeouts and startup failures cost little test time.
QUICK = TimeControl(decision_ms=200, bank_ms=300, startup_ms=5000, max_faults=2)


def bot(name: str) -> BotSpec:
    return BotSpec(str(BOTS / name))


def play_nim(*names: str, seed: int = 5, time_control: TimeControl = QUICK, sandbox: bool = True,
             replay_path=None, logs: list | None = None) -> MatchResult:
    return run_match("nim", {}, seed, [bot(n) for n in names], time_control=time_control, sandbox=sandbox,
                     replay_path=replay_path, _logs=logs)
