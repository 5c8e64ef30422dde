"""Training doors to Arena's games for reinforcement-learning libraries (no Django needed).

- `arena.envs.actions`: each game's fixed, numbered action space and the exact slot ↔ action-text mapping;
- `arena.envs.encoding`: the fixed-size, versioned numeric observation of a seat (only what it may know);
- `arena.envs.pettingzoo_env`: PettingZoo AEC environments, `arena.envs.env("minos", players=3)`;
- `arena.envs.gym_env`: a Gymnasium single-seat environment against built-in opponents, `arena.envs.SeatEnv`.

The last two need the optional extra: `pip install 'arena[envs]'` (PettingZoo, Gymnasium); `make install` has it.
"""

from __future__ import annotations

from typing import Any

from arena.envs.actions import ActionSpace, action_space

__all__ = ["ActionSpace", "SeatEnv", "action_space", "env", "raw_env"]


def __getattr__(name: str) -> Any:
    # PettingZoo and Gymnasium are imported only when asked for: the action spaces work without the extra
    if name in ("env", "raw_env", "ArenaAECEnv"):
        from arena.envs import pettingzoo_env

        return getattr(pettingzoo_env, name)
    if name == "SeatEnv":
        from arena.envs.gym_env import SeatEnv

        return SeatEnv
    raise AttributeError(name)
