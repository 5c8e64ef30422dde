"""The shape every game's narrator (`arena.games.<game>.narrate`, see `arena.narration`) shares: a table from an
event's type to its sentence, told in order, and a seat named by its name."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

#: an event in words, given the seats' names (a narrator's table maps event types to these)
Telling = Callable[[dict[str, Any], list[str]], str]


def tell(events: list[dict[str, Any]], table: Mapping[str, Telling], names: list[str]) -> list[str]:
    """The events whose `type` the table knows, each in words, in order; the others are not told (a narrator's
    `world_events` is its table of what happened for everyone, told by this)."""
    return [table[e["type"]](e, names) for e in events if e.get("type") in table]


def seat_name(names: list[str], seat: Any) -> str:
    """A seat by its name, or `seat N` for one the names do not cover."""
    return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else f"seat {seat}"
