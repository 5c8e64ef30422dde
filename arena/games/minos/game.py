"""MinosGame: the rule set (1 to 4 players; 1 = solo against Rhadamanthus) and its state factory."""

from __future__ import annotations

from typing import Any, ClassVar

from arena.games.base import Game
from arena.games.minos import data as D
from arena.games.minos.actions import MinosAction, parse_action
from arena.games.minos.state import MinosState


class MinosGame(Game):
    name: ClassVar[str] = "minos"
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 4
    #: minos-2: building income at the new ability level, one action per distinct outcome, readable `draft:`
    #: and `farm:` texts, public palace cards (RULES.md E-20..E-23)
    engine_version: ClassVar[str] = "minos-2"
    #: solo only: Rhadamanthus' starting VP handicap (standard 0, veteran 15, legendary 30) [D-37]
    default_options: ClassVar[dict[str, Any]] = {"difficulty": "standard"}

    def __init__(self, players: int, **options: Any):
        super().__init__(players, **options)
        if self.options["difficulty"] not in D.SOLO["difficulty_start_vp"]:
            raise ValueError(f"minos difficulty must be one of {', '.join(D.SOLO['difficulty_start_vp'])}")
        if players > 1 and self.options["difficulty"] != "standard":
            raise ValueError("minos difficulty applies to the solo game (players=1) only")

    @property
    def engine_opponents(self) -> int:
        """Solo: Rhadamanthus, whom `ranking()` ranks against the one seat (E-01)."""
        return 1 if self.players == 1 else 0

    def new_state(self, seed: int) -> MinosState:
        state = MinosState(self, seed)
        state._advance()
        return state

    def parse_action(self, text: str) -> MinosAction:
        return parse_action(text)

    def state_from_json(self, data: dict[str, Any]) -> MinosState:
        return MinosState.from_json(self, data)
