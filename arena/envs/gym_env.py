"""A Gymnasium single-agent environment: one seat of a game against built-in in-process opponents.

`SeatEnv("thebes", players=2, seat=0, opponents=["greedy"])`: observations are the seat's encoded observation
(`Box(OBS_SIZE)`, `arena.envs.encoding`); actions are slots of the game's fixed action space (`Discrete(n)`,
`arena.envs.actions`); `info["action_mask"]` (int8, also `action_masks()` for masked-PPO libraries) marks the
legal ones. The opponents (names from `arena.games.policies(game)`: "random", "greedy", Minos "rhadamanthus")
play in between, seeded from `reset(seed=…)`; the reward is the PettingZoo environment's (rank-based, at the end).
An action outside the mask ends the episode as a loss (reward -1, `info["illegal_action"]`), as a bot that answers
an illegal action forfeits on the platform; `illegal="raise"` raises ValueError instead.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np

from arena import games
from arena.envs.actions import action_space
from arena.envs.encoding import OBS_BOUND, OBS_SIZE, encode

__all__ = ["SeatEnv"]


class SeatEnv(gym.Env):  # type: ignore[misc]
    metadata = {"render_modes": ["ansi"]}

    def __init__(self, game: str = "thebes", players: int = 2, seat: int = 0,
                 opponents: Sequence[str] = ("random",), render_mode: str | None = None, illegal: str = "lose",
                 **options: Any):
        if illegal not in ("lose", "raise"):
            raise ValueError("illegal must be 'lose' or 'raise'")
        self.illegal = illegal
        self.game = games.load(game, players=players, **options)
        if not 0 <= seat < players:
            raise ValueError(f"seat must be 0 to {players - 1}")
        known = games.policies(game)
        names = list(opponents) if len(opponents) == players - 1 else [opponents[0]] * (players - 1)
        for name in names:
            if name not in known:
                raise ValueError(f"unknown opponent {name!r}; built-in: {', '.join(sorted(known))}")
        self._opponents = {s: known[n]() for s, n in zip([s for s in range(players) if s != seat], names)}
        self.seat = seat
        self.actions = action_space(game)
        self.observation_space = gym.spaces.Box(-OBS_BOUND, OBS_BOUND, (OBS_SIZE,), np.float32)
        self.action_space = gym.spaces.Discrete(self.actions.n)
        self.render_mode = render_mode
        self.state: Any = None

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        super().reset(seed=seed)
        deal = int(self.np_random.integers(0, 2**62)) if seed is None else int(seed)
        self._rng = random.Random(deal)
        self.state = self.game.new_state(deal)
        self._play_opponents()
        return encode(self.state, self.seat), self._info()

    def _play_opponents(self) -> None:
        state = self.state
        while not state.is_terminal() and state.current_player() != self.seat:
            seat = state.current_player()
            policy = self._opponents[seat]
            legal = state.legal_actions()
            obs = state.observation(seat) if policy.needs_observation else None
            state.apply(legal[policy.choose(obs, legal, self._rng)])
        if not state.is_terminal():
            self._legal = state.legal_actions()
            self._slots = self.actions.indices([str(a) for a in self._legal])
        else:
            self._legal, self._slots = [], []

    def action_masks(self) -> np.ndarray:
        mask = np.zeros(self.actions.n, dtype=np.int8)
        mask[self._slots] = 1
        return mask

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks()}

    def step(self, action: int):
        try:
            pick = self._slots.index(int(action))
        except ValueError:
            if self.illegal == "raise" or self.state.is_terminal():
                raise ValueError(f"slot {action} is not a legal action here") from None
            return encode(self.state, self.seat), -1.0, True, False, {**self._info(), "illegal_action": True}
        self.state.apply(self._legal[pick])
        self._play_opponents()
        reward = 0.0
        terminated = self.state.is_terminal()
        if terminated:
            competitors = self.game.players + self.game.engine_opponents
            reward = 1.0 - 2.0 * (self.state.ranking()[self.seat] - 1) / (competitors - 1)
        return encode(self.state, self.seat), reward, terminated, False, self._info()

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        return f"{self.game!r}: scores {self.state.scores()}"
