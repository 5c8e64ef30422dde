"""Fixed-size numeric features of a seat's observation, in plain Python (no numpy): the one implementation of the
encoding `arena.envs.encoding` turns into numpy vectors, here so that a bot in the sandbox, whose Python runtime
has the engines (`arena.games`) but not numpy, computes exactly what its model was trained on.

Encoding `OBS_VERSION` ("arena-obs-hash-1"), the same for both games and every player count:

- The input is `state.observation(seat)` — exactly what the referee sends that seat in its DecideRequest, and
  nothing else — so the features can hold nothing the seat may not know (the no-leak property test checks it
  against states that differ only in what the seat cannot see).
- The dict is walked depth first; every leaf gets a *path*: keys joined by `.`, list positions as `[i]`. A list
  under a key named `seats` or `players` whose length is the player count is rotated so that position 0 is the
  observing seat itself, 1 the next seat, and so on (a policy learnt for one seat applies to every seat).
- A number (int, float, bool as 0/1) adds its value at slot `crc32(path) % OBS_SIZE`; a string adds 1 at slot
  `crc32(path + "=" + string) % OBS_SIZE`; a list of strings adds 1 per element at `crc32(path + "[]=" + element)`
  (a multiset: the order of a hand does not matter). Numbers are used as they are (an author may standardise).
- `OBS_SIZE` is 4096 for every game. Distinct paths can share a slot (hashing); which ones share is fixed by the
  version, so a trained model stays valid until `OBS_VERSION` changes.
"""

from __future__ import annotations

import zlib
from typing import Any

__all__ = ["OBS_BOUND", "OBS_SIZE", "OBS_VERSION", "observation_features"]

OBS_VERSION = "arena-obs-hash-1"
OBS_SIZE = 4096
#: every slot's value lies within ±OBS_BOUND (the observation space's bounds; the games' numbers are far smaller)
OBS_BOUND = 1e6

_SLOT: dict[str, int] = {}
_ROTATED = ("seats", "players")


def _slot(key: str) -> int:
    slot = _SLOT.get(key)
    if slot is None:
        slot = _SLOT[key] = zlib.crc32(key.encode()) % OBS_SIZE
    return slot


def observation_features(observation: dict[str, Any], seat: int, players: int) -> dict[int, float]:
    """The non-zero slots of one seat's observation dict: {slot: value} (see the module's docstring)."""
    out: dict[int, float] = {}
    _walk(out, "", observation, seat, players)
    return out


def _add(out: dict[int, float], slot: int, value: float) -> None:
    out[slot] = out.get(slot, 0.0) + value


def _walk(out: dict[int, float], path: str, value: Any, seat: int, players: int) -> None:
    if isinstance(value, dict):
        for key, item in value.items():
            _walk(out, f"{path}.{key}" if path else key, item, seat, players)
    elif isinstance(value, list):
        if value and all(isinstance(v, str) for v in value):
            for v in value:
                _add(out, _slot(f"{path}[]={v}"), 1.0)
            return
        if path.rsplit(".", 1)[-1] in _ROTATED and len(value) == players:
            value = value[seat:] + value[:seat]
        for i, item in enumerate(value):
            _walk(out, f"{path}[{i}]", item, seat, players)
    elif isinstance(value, str):
        _add(out, _slot(f"{path}={value}"), 1.0)
    elif isinstance(value, bool | int | float):
        _add(out, _slot(path), float(value))
