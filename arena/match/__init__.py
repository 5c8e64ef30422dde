"""The referee: `run_match` plays one match between bot packages (see `arena.match.referee`)."""

from arena.match.referee import run_match
from arena.match.types import BotSpec, Fault, MatchResult, SeatResult, TimeControl

__all__ = ["run_match", "BotSpec", "Fault", "MatchResult", "SeatResult", "TimeControl"]
