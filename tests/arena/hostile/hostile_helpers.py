"""Shared by the hostile-bot match tests: real sandboxed Thebes matches between a hostile bot of bots/ and the
built-in bots/python/random, with every launched sandbox recorded so that the tests can check what it left."""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path

from arena import sandbox
from arena.match import BotSpec, MatchResult, TimeControl, run_match
from arena.sandbox import BotProcess, SandboxLimits

HOSTILE = Path(__file__).resolve().parent / "bots"
PROJECT = Path(__file__).resolve().parents[3]
RANDOM = PROJECT / "bots" / "python" / "random"

#: Short clocks so that timeouts and startup failures cost little test time.
QUICK = TimeControl(decision_ms=600, bank_ms=300, startup_ms=4000, max_faults=2)
LIMITS = SandboxLimits(memory_mb=160, pids=48, cpu_seconds=30, tmp_mb=16)
SEED = 11
#: The bots' seed key (a real match draws a secret one): with it fixed, the same seed and bots play the same match.
FIXED_KEY = bytes(range(32))


def hostile_copy(name: str, tmp_path: Path, target: dict | None = None) -> Path:
    """A copy of hostile bot `name` in `tmp_path`, with `target` (what to attack) as /bot/target.json."""
    dest = tmp_path / name
    shutil.copytree(HOSTILE / name, dest)
    if target is not None:
        (dest / "target.json").write_text(json.dumps(target))
    for path in [dest, *dest.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    return dest


@dataclass
class Played:
    result: MatchResult
    logs: list[list[str]]
    processes: list[BotProcess]

    def log_text(self, seat: int) -> str:
        return "\n".join(self.logs[seat])


def play(monkeypatch, *bots: Path, seed: int = SEED, time_control: TimeControl = QUICK,
         limits: SandboxLimits = LIMITS) -> Played:
    """Play a sandboxed 2-player Thebes match between `bots` (in seat order)."""
    processes: list[BotProcess] = []
    real_launch = sandbox.launch

    def recording_launch(*args, **kwargs):
        process = real_launch(*args, **kwargs)
        processes.append(process)
        return process

    monkeypatch.setattr(sandbox, "launch", recording_launch)
    logs: list[list[str]] = []
    result = run_match("thebes", {"players": len(bots)}, seed, [BotSpec(str(b)) for b in bots],
                       time_control=time_control, limits=limits, _logs=logs, bot_seed_key=FIXED_KEY)
    return Played(result, logs, processes)


def outcome(result: MatchResult) -> list[tuple]:
    """What the game made of each seat, regardless of bot names and packages."""
    return [(s.seat, s.score, s.rank, s.decisions, s.disqualified, [f.kind for f in s.faults])
            for s in result.seats]
