"""The game registry: games by name, made with parameters (`load("thebes", players=4)`).

Games register themselves lazily by module path so that importing the registry stays cheap and a game never
imports another.
"""

from __future__ import annotations

import importlib
from typing import Any

from arena.games import native

# compiled (mypyc) or pure-Python engines, chosen before any engine module is imported (arena.games.native)
ENGINE, ENGINE_NOTE = native.select()

from arena.games.base import TERMINAL, Action, ActionParseError, Event, Game, IllegalAction, State, rank_by_keys  # noqa: E402, I001

__all__ = ["ENGINE", "ENGINE_NOTE", "TERMINAL", "Action", "ActionParseError", "Event", "Game", "IllegalAction", "State", "rank_by_keys",
           "names", "game_class", "load", "policies"]

# name -> "module:Class"
_REGISTRY: dict[str, str] = {
    "thebes": "arena.games.thebes.game:ThebesGame",
    "minos": "arena.games.minos.game:MinosGame",
}


def names() -> list[str]:
    """The registered game names, sorted."""
    return sorted(_REGISTRY)


def game_class(name: str) -> type[Game]:
    try:
        target = _REGISTRY[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r}; games: {', '.join(names())}") from None
    module, _, cls = target.partition(":")
    return getattr(importlib.import_module(module), cls)


def policies(name: str) -> dict[str, type]:
    """The in-process policies of a game by name (at least "random"), from `arena.games.<name>.policies`."""
    game_class(name)
    module = importlib.import_module(f"arena.games.{name}.policies")
    return dict(module.POLICIES)


def load(name: str, **params: Any) -> Game:
    """A game by name with its parameters, e.g. `load("thebes", players=4)`."""
    return game_class(name)(**params)
