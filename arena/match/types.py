"""The values a match is made from and ends with. Stable shapes: the platform stores them as they are.

`MatchResult.to_json()` is the JSON form the platform stores and replays record; `MatchResult.from_json` reads
it back, typed (fault kinds as `FaultKind`, which compares equal to its stored string).

This module is light (no referee, sandbox or gRPC): the platform and `arena.replay` import it freely."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from enum import StrEnum
from typing import Any


@dataclass(frozen=True)
class TimeControl:
    """The referee's terms for the bots of a match. Kaggle's actTimeout + overage: each decision may take
    `decision_ms`; time beyond it is taken from a bank of `bank_ms` for the whole match. A bot must serve within
    `startup_ms` of being started. A seat that faults more than `max_faults` times, or crashes, is disqualified
    (ranked last) and the game goes on for the others.

    `auto_single_action`: a decision with exactly one legal action is a *forced decision*: the referee applies
    that action without asking the bot (no call, no time charged, no fault possible, not counted in
    `SeatResult.decisions` but in `SeatResult.forced`); the bot sees its effect in its next observation, and the
    replay marks the decision `"forced": true`. Off, every decision is asked, as before the option existed."""

    decision_ms: int = 1000
    bank_ms: int = 10_000
    startup_ms: int = 10_000
    max_faults: int = 3
    auto_single_action: bool = True

    def to_dict(self) -> dict[str, int | bool]:
        return asdict(self)


@dataclass(frozen=True)
class BotSpec:
    """A bot package: a folder holding `bot.toml` (see bots/README.md)."""

    path: str
    name: str | None = None


class FaultKind(StrEnum):
    """What a bot did wrong (the module docstring of `arena.match.referee` says when each is given). The values
    are what results, replays and the platform's database store."""

    STARTUP = "startup"
    TIMEOUT = "timeout"
    CRASH = "crash"
    ILLEGAL = "illegal"
    MALFORMED = "malformed"
    DISQUALIFIED = "disqualified"
    RESIGNED = "resigned"  # a person gave up their seat (`Person.resigned`): followed by the seat's disqualification


@dataclass
class Fault:
    """Something a bot did wrong. `kind` is a FaultKind (a plain string naming one is taken as it; any other
    string raises ValueError)."""

    kind: FaultKind
    message: str
    decision: int | None = None  # index of the decision in the match, None for faults outside a decision
    turn: int | None = None  # the viewer's turn number of that decision (decision + 1; arena.botlogs.turn_of)

    def __post_init__(self) -> None:
        self.kind = FaultKind(self.kind)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind.value, "message": self.message, "decision": self.decision,
                "turn": self.turn if self.turn is not None or self.decision is None else self.decision + 1}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Fault:
        decision = data.get("decision")
        return cls(kind=FaultKind(data["kind"]), message=str(data.get("message", "")),
                   decision=None if decision is None else int(decision),
                   turn=None if decision is None else int(decision) + 1)


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
    decisions: int = 0  # decisions the bot was asked
    forced: int = 0  # decisions with one legal action, applied without asking (TimeControl.auto_single_action)
    substituted: int = 0  # decisions the referee played for the seat (out, or faulted): the replay's "substitute"

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["faults"] = [f.to_json() for f in self.faults]
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SeatResult:
        """A seat's result from its JSON form; fields with a default may be missing (results stored before they
        existed), unknown keys are ignored."""
        return cls(seat=int(data["seat"]), name=str(data["name"]), sha256=str(data.get("sha256", "")),
                   score=float(data.get("score", 0.0)), rank=int(data.get("rank", 0)),
                   disqualified=bool(data.get("disqualified", False)),
                   faults=[Fault.from_json(f) for f in data.get("faults") or []],
                   time_ms=float(data.get("time_ms", 0.0)), decisions=int(data.get("decisions", 0)),
                   forced=int(data.get("forced", 0)), substituted=int(data.get("substituted", 0)))


@dataclass
class MatchResult:
    game: str
    params: dict[str, Any]
    seed: int
    engine_version: str
    seats: list[SeatResult]
    replay_path: str | None = None
    # "void — host trouble: <why>" when the host, not a bot, kept the match from being played fairly
    # (arena.match.botclock.HostTrouble): no ranks, no replay, never rated; "" for a played match
    void: str = ""
    # The opponents the engine played itself (Minos solo: Rhadamanthus), `{"name", "score", "rank"}` each
    # (`State.engine_opponent_results`): shown wherever the result is, so a solo rank 2 names who came first.
    engine_opponents: list[dict[str, Any]] = field(default_factory=list)
    # The replay document when it could not be written to `replay_path` (a full or failing disk): the caller
    # keeps it to write later (the platform stores it with the result). Not part of the JSON form.
    unwritten_replay: dict[str, Any] | None = field(default=None, repr=False, compare=False)

    def to_json(self) -> dict[str, Any]:
        """The JSON form: plain dicts, lists, strings and numbers (fault kinds as their values)."""
        data = {"game": self.game, "params": copy.deepcopy(self.params), "seed": self.seed,
                "engine_version": self.engine_version, "seats": [s.to_json() for s in self.seats],
                "replay_path": self.replay_path, "engine_opponents": copy.deepcopy(self.engine_opponents)}
        if self.void:  # only then: a played match's JSON (and replays) carry no such key
            data["void"] = self.void
        return data

    to_dict = to_json  # the name it had first

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> MatchResult:
        """A result from its JSON form (`to_json`, or a replay's `result`); raises KeyError, ValueError or
        TypeError when it is not one."""
        return cls(game=str(data["game"]), params=dict(data.get("params") or {}), seed=int(data["seed"]),
                   engine_version=str(data.get("engine_version", "")),
                   seats=[SeatResult.from_json(s) for s in data["seats"]], replay_path=data.get("replay_path"),
                   void=str(data.get("void") or ""),
                   engine_opponents=[{"name": str(o["name"]), "score": float(o["score"]), "rank": int(o["rank"])}
                                     for o in data.get("engine_opponents") or []])
