"""In-process policies: built-in opponents for self-play, benchmarks and tests.

A policy sees what a bot would see: the seat's observation and the legal actions, never the state itself, so a
built-in policy can never use hidden information. It returns the index of its choice in `legal`.
Policies that do not look at the observation set `needs_observation = False`, which lets self-play skip
building it (the random playout is the benchmark's hot path).
"""

from __future__ import annotations

import random
from typing import Any, Sequence

from arena.games.base import Action


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
