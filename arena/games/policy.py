"""In-process policies: built-in opponents for self-play, benchmarks and tests.

A policy sees what a bot would see: the seat's observation and the legal actions, never the state itself, so a
built-in policy can never use hidden information. It returns the index of its choice in `legal`.
Policies that do not look at the observation set `needs_observation = False`, which lets self-play skip
building it (the random playout is the benchmark's hot path).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from arena.games.base import Action, Event, Game, State

MAX_DECISIONS = 100_000


class Policy:
    name = "policy"
    needs_observation = True

    def choose(self, observation: dict[str, Any] | None, legal: Sequence[Action], rng: random.Random) -> int:
        raise NotImplementedError


class RandomPolicy(Policy):
    """Uniformly random among the legal actions."""

    name = "random"
    needs_observation = False

    def choose(self, observation, legal, rng):
        return rng.randrange(len(legal))


def play_game(game: Game, seed: int, policies: Sequence[Policy], rngs: Sequence[random.Random],
              max_decisions: int = MAX_DECISIONS,
              on_decision: Callable[[int, Action, list[Event]], None] | None = None) -> tuple[State, int]:
    """Play one game between in-process policies to the end; returns (final state, decisions).
    `on_decision(seat, action, events)` is called after each action. Raises on an engine error or when the game
    does not end within `max_decisions`."""
    state = game.new_state(seed)
    decisions = 0
    while not state.is_terminal():
        seat = state.current_player()
        legal = state.legal_actions()
        if not legal:
            raise RuntimeError(f"seat {seat} has no legal action in a non-terminal state")
        policy = policies[seat]
        obs = state.observation(seat) if policy.needs_observation else None
        action = legal[policy.choose(obs, legal, rngs[seat])]
        events = state.apply(action)
        if on_decision is not None:
            on_decision(seat, action, events)
        decisions += 1
        if decisions > max_decisions:
            raise RuntimeError(f"game did not end within {max_decisions} decisions")
    return state, decisions
