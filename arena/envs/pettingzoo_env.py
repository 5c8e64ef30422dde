"""PettingZoo AEC environments of Arena's games: `env("thebes", players=3)`, `env("minos", players=1, difficulty=
"veteran")`.

Agents are `seat_0` … `seat_{players-1}`; the agent to act is the engine's `current_player()` (a seat may act
several times in a row). Each agent observes `{"observation": float32[OBS_SIZE], "action_mask": int8[n]}`: the
seat's encoded observation (`arena.envs.encoding`, only what the seat may know) and the mask of its legal actions
in the game's fixed action space (`arena.envs.actions`: all zeros when it is not that seat's turn). Actions are
slot indices (`Discrete(n)`); `action_text(slot)` is the canonical text of a legal slot of the agent to act and
`legal_texts()` lists them in slot order (the order of the mask's ones).

Rewards are 0 until the game ends; then each seat gets `1 - 2 (rank - 1) / (competitors - 1)` from the engine's
`ranking()` (1 for first, -1 for last; competitors include Minos solo's Rhadamanthus). `max_cycles` (optional)
truncates every seat after that many decisions. `reset(seed=s)` deals the engine's game for seed `s` (the same
game the platform plays for that seed); without a seed the deal is drawn from the environment's generator.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from arena import games
from arena.envs.actions import ActionSpace, action_space
from arena.envs.encoding import OBS_BOUND, OBS_SIZE, OBS_VERSION, encode

__all__ = ["ArenaAECEnv", "env", "raw_env"]


class ArenaAECEnv(AECEnv):  # type: ignore[misc]
    """One game of `game` for `players` seats; see the module's docstring."""

    metadata = {"name": "arena_v1", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, game: str = "thebes", players: int = 2, render_mode: str | None = None,
                 max_cycles: int | None = None, **options: Any):
        super().__init__()
        self.game = games.load(game, players=players, **options)
        self.actions: ActionSpace = action_space(game)
        self.metadata = {**self.metadata, "name": f"arena_{game}_{players}p_v1", "obs_version": OBS_VERSION,
                         "action_version": self.actions.version}
        self.render_mode = render_mode
        self.max_cycles = max_cycles
        self.possible_agents = [f"seat_{i}" for i in range(players)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = spaces.Dict({
            "observation": spaces.Box(-OBS_BOUND, OBS_BOUND, (OBS_SIZE,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.actions.n,), np.int8),
        })
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self.action_spaces = {a: spaces.Discrete(self.actions.n) for a in self.possible_agents}
        self.state_: Any = None
        self._seed_rng = np.random.default_rng()

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # -- the game ------------------------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seed_rng = np.random.default_rng(seed)
            deal = int(seed)
        else:
            deal = int(self._seed_rng.integers(0, 2**62))
        self.seed_ = deal
        self.state_ = self.game.new_state(deal)
        self.decisions = 0
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._turn()

    def _turn(self) -> None:
        """Set the agent to act and its legal actions (or end the game)."""
        state = self.state_
        if state.is_terminal():
            ranks = state.ranking()
            competitors = self.game.players + self.game.engine_opponents
            for agent in self.agents:
                self.rewards[agent] = 1.0 - 2.0 * (ranks[self._seat[agent]] - 1) / (competitors - 1)
                self.terminations[agent] = True
            self._legal_texts: list[str] = []
            self._legal_slots: list[int] = []
            return
        seat = state.current_player()
        self.agent_selection = self.possible_agents[seat]
        self._legal = state.legal_actions()
        self._legal_texts = [str(a) for a in self._legal]
        self._legal_slots = self.actions.indices(self._legal_texts)
        if self.max_cycles is not None and self.decisions >= self.max_cycles:
            for agent in self.agents:
                self.truncations[agent] = True

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must act: pass a slot index")
        try:
            pick = self._legal_slots.index(int(action))
        except ValueError:
            raise ValueError(f"slot {action} is not a legal action of {agent} here "
                             f"(legal: {', '.join(self.legal_texts())})") from None
        self._cumulative_rewards[agent] = 0.0
        self.state_.apply(self._legal[pick])
        self.decisions += 1
        self._turn()
        self._accumulate_rewards()

    # -- what a seat sees ----------------------------------------------------------------------------------------
    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seat[agent]
        mask = np.zeros(self.actions.n, dtype=np.int8)
        if agent == self.agent_selection and not (self.terminations[agent] or self.truncations[agent]):
            mask[self._legal_slots] = 1
        return {"observation": encode(self.state_, seat), "action_mask": mask}

    def legal_texts(self) -> list[str]:
        """The legal actions of the agent to act, as canonical texts in slot order."""
        return [t for _, t in sorted(zip(self._legal_slots, self._legal_texts))]

    def action_text(self, slot: int) -> str:
        """The canonical text of legal slot `slot` of the agent to act."""
        return self._legal_texts[self._legal_slots.index(slot)]

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        state = self.state_
        who = "over" if state.is_terminal() else f"seat {state.current_player()} to act"
        return f"{self.game!r} seed {self.seed_}, decision {self.decisions}, {who}, scores {state.scores()}"

    def close(self) -> None:
        pass


def raw_env(game: str = "thebes", players: int = 2, **kwargs: Any) -> ArenaAECEnv:
    """The environment without PettingZoo's checking wrappers."""
    return ArenaAECEnv(game, players, **kwargs)


def env(game: str = "thebes", players: int = 2, **kwargs: Any) -> AECEnv:
    """The environment inside PettingZoo's order-enforcing wrapper (illegal call orders raise)."""
    from pettingzoo.utils import wrappers

    return wrappers.OrderEnforcingWrapper(raw_env(game, players, **kwargs))
