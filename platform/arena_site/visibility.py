"""What a user may not see: the private ladders and tournaments of the apps above (a private competition's
ladder and final), asked for by the apps below them without importing them.

An app above registers a provider at start-up (`register`); `hidden_for(user)` unites what every provider
hides from that user. The apps that list or show ladders, matches, replays and tournaments filter with it
(`matches.visibility`), so nothing of a private competition leaks through a page, the API, an export or a
live list to someone who is neither its entrant nor its organizer.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Hidden:
    ladders: frozenset[int] = frozenset()
    tournaments: frozenset[int] = frozenset()

    def __bool__(self) -> bool:
        return bool(self.ladders or self.tournaments)


Provider = Callable[[Any], Hidden]
_providers: list[Provider] = []


def register(provider: Provider) -> None:
    """Add a provider (idempotent for the same function)."""
    if provider not in _providers:
        _providers.append(provider)


def hidden_for(user: Any) -> Hidden:
    """Everything some provider hides from `user` (None or anonymous: from everybody who is not let in)."""
    ladders: set[int] = set()
    tournaments: set[int] = set()
    for provider in _providers:
        h = provider(user)
        ladders |= h.ladders
        tournaments |= h.tournaments
    return Hidden(frozenset(ladders), frozenset(tournaments))
