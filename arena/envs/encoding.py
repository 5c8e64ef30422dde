"""Fixed-size numeric observations per seat as numpy vectors: `encode(state, seat)` is a float32[OBS_SIZE].

The encoding itself (what each slot holds, `OBS_VERSION`) is `arena.games.features`: plain Python, so that a
sandboxed bot computes the same features without numpy.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from arena.games.features import OBS_BOUND, OBS_SIZE, OBS_VERSION, observation_features

__all__ = ["OBS_BOUND", "OBS_SIZE", "OBS_VERSION", "encode", "encode_observation"]


def encode_observation(observation: dict[str, Any], seat: int, players: int) -> np.ndarray:
    """The `OBS_SIZE` float32 vector of one seat's observation dict."""
    out = np.zeros(OBS_SIZE, dtype=np.float32)
    features = observation_features(observation, seat, players)
    if features:
        out[list(features)] = list(features.values())
    return out


def encode(state: Any, seat: int) -> np.ndarray:
    """The encoded observation of `seat` in `state` (an `arena.games` State): built from `state.observation(seat)`
    only."""
    return encode_observation(state.observation(seat), seat, state.game.players)
