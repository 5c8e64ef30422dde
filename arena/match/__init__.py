"""Matches between bot packages: the values a match is made from and ends with (`arena.match.types`), and
`run_match`, the referee that plays one (`arena.match.referee`).

Importing this package is cheap: the referee, and with it the sandbox and gRPC, is imported only when
`run_match` is first asked for, so that reading a replay (`arena.replay`) never loads them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from arena.match.types import (
    BotSpec,
    Fault,
    FaultKind,
    MatchResult,
    SeatResult,
    TimeControl,
)

if TYPE_CHECKING:
    from arena.match.referee import run_match

__all__ = ["run_match", "BotSpec", "Fault", "FaultKind", "MatchResult", "SeatResult", "TimeControl"]


def __getattr__(name: str) -> Any:
    """`run_match`, imported on first use (PEP 562)."""
    if name == "run_match":
        from arena.match.referee import run_match

        globals()["run_match"] = run_match
        return run_match
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
