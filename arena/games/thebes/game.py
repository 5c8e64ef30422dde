"""The Thebes rule set, registered as "thebes" (`arena.games.load("thebes", players=4)`).

Rules, numbers and every decision where the sources leave a rule open: RULES.md beside this file.
"""

from __future__ import annotations

from typing import Any, ClassVar

from arena.games.base import Game
from arena.games.thebes.actions import ThebesAction, action_from_dict, parse_action
from arena.games.thebes.state import ThebesState


class ThebesGame(Game):
    name = "thebes"
    min_players = 2
    max_players = 4
    # Bump whenever a rule or the RNG use changes in a way that could change any replay.
    engine_version = "thebes-2"
    default_options: ClassVar[dict[str, Any]] = {}

    def new_state(self, seed: int) -> ThebesState:
        """The set-up position for `seed` (any int; its low 64 bits seed the SplitMix64 generator)."""
        return ThebesState.initial(self, seed)

    def parse_action(self, text: str) -> ThebesAction:
        return parse_action(text)

    def action_from_dict(self, data: dict[str, Any]) -> ThebesAction:
        """The action a `ThebesAction` protocol message (as a dict) names."""
        return action_from_dict(data)

    def state_from_json(self, data: dict[str, Any]) -> ThebesState:
        params = data.get("params", {})
        if params and params != self.params:
            raise ValueError(f"state is for {params}, this game is {self.params}")
        return ThebesState.from_json(self, data)
