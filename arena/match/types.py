"""The values a match is made from and ends with. Stable shapes: the platform stores them as they are."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass(frozen=True)
class TimeControl:
    """Kaggle's actTimeout + overage: each decision may take `decision_ms`; time beyond it is taken from a bank
    of `bank_ms` for the whole match. A bot must serve within `startup_ms` of being started. A seat that faults
    more than `max_faults` times, or crashes, is disqualified (ranked last) and the game goes on for the others."""

    decision_ms: int = 1000
    bank_ms: int = 10_000
    startup_ms: int = 10_000
    max_faults: int = 3

    def to_dict(self) -> dict[str, int]:
        return asdict(self)


@dataclass(frozen=True)
class BotSpec:
    """A bot package: a folder holding `bot.toml` (see bots/README.md)."""

    path: str
    name: str | None = None


@dataclass
class Fault:
    """Something a bot did wrong. `kind` is one of: startup, timeout, crash, illegal, malformed, disqualified."""

    kind: str
    message: str
    decision: int | None = None  # index of the decision in the match, None for faults outside a decision


@dataclass
class SeatResult:
    seat: int
    name: str
    sha256: str
    score: float = 0.0
    rank: int = 0
    disqualified: bool = False
    faults: list[Fault] = field(default_factory=list)
    time_ms: float = 0.0  # total time the bot took over its decisions
    decisions: int = 0


@dataclass
class MatchResult:
    game: str
    params: dict[str, Any]
    seed: int
    engine_version: str
    seats: list[SeatResult]
    replay_path: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)
