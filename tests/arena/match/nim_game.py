"""A tiny 2-player Nim, registered for the referee's tests only (never in arena/games).

A pile of 12-20 stones (drawn from the seed); players alternately take 1, 2 or 3; who takes the last stone wins.
It has no protocol message in arena.proto, so bots get only indexed canonical texts ("take 2").
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from arena.games.base import TERMINAL, Action, ActionParseError, Game, IllegalAction, State


@dataclass(frozen=True)
class Take(Action):
    n: int

    def __str__(self) -> str:
        return f"take {self.n}"

    def to_dict(self):
        return {"n": self.n}


class NimState(State):
    def __init__(self, game: NimGame, stones: int, player: int = 0):
        self.game = game
        self.stones = stones
        self.player = player

    def current_player(self) -> int:
        return TERMINAL if self.stones == 0 else self.player

    def legal_actions(self):
        return [Take(k) for k in range(1, min(3, self.stones) + 1)]

    def apply(self, action):
        if self.stones == 0 or not isinstance(action, Take) or not 1 <= action.n <= min(3, self.stones):
            raise IllegalAction(action, f"{self.stones} stones left")
        self.stones -= action.n
        event = {"type": "take", "seat": self.player, "n": action.n, "left": self.stones}
        if self.stones:
            self.player = 1 - self.player
        return [event]

    def observation(self, seat):
        return {"stones": self.stones, "to_move": self.player}

    def public_observation(self):
        return self.observation(None)

    def is_terminal(self):
        return self.stones == 0

    def scores(self):
        if self.stones:
            return [0.0, 0.0]
        return [1.0 if s == self.player else 0.0 for s in range(2)]

    def clone(self):
        return NimState(self.game, self.stones, self.player)

    def to_json(self):
        return {"stones": self.stones, "player": self.player}


class NimGame(Game):
    name = "nim"
    min_players = 2
    max_players = 2
    engine_version = "nim-1"

    def new_state(self, seed: int) -> NimState:
        return NimState(self, random.Random(seed).randint(12, 20))

    def parse_action(self, text: str) -> Take:
        parts = text.split()
        if len(parts) != 2 or parts[0] != "take" or not parts[1].isdigit():
            raise ActionParseError(f"not a Nim action: {text!r}")
        return Take(int(parts[1]))

    def state_from_json(self, data):
        return NimState(self, data["stones"], data["player"])

