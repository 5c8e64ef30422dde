"""The training environments' step cost beside the engine's own (one core, random play).

    python bench/env_step_cost.py [--games 20] [--players 2]

For each game: decisions per second of (1) the engine's own random playout (`legal_actions` + `apply`); (2) the
PettingZoo AEC environment stepped by masked random actions without building observations
(`last(observe=False)` + mask slots + `step`): the wrapper's own overhead; (3) the same with every observation
built and encoded (`last()`: the seat's observation dict, then `arena.games.features` into float32[4096]), as a
learner sees it. Printed as JSON with the ratios (2)/(1) and (3)/(1) of the time per step.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np

from arena import games
from arena.envs import raw_env


def engine(name: str, players: int, n: int) -> tuple[int, float]:
    game = games.load(name, players=players)
    rng = random.Random(0)
    steps, start = 0, time.process_time()
    for seed in range(n):
        state = game.new_state(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
            steps += 1
    return steps, time.process_time() - start


def wrapped(name: str, players: int, n: int, observe: bool) -> tuple[int, float]:
    env = raw_env(name, players)
    rng = np.random.default_rng(0)
    steps, start = 0, time.process_time()
    for seed in range(n):
        env.reset(seed=seed)
        for _agent in env.agent_iter():
            if observe:
                obs, _r, terminated, truncated, _i = env.last()
                slots = np.flatnonzero(obs["action_mask"])
            else:
                _o, _r, terminated, truncated, _i = env.last(observe=False)
                slots = env._legal_slots
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(slots[rng.integers(len(slots))]))
            steps += 1
    return steps, time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, default=2)
    args = parser.parse_args()
    for name in ("thebes", "minos"):
        e_steps, e_cpu = engine(name, args.players, args.games)
        w_steps, w_cpu = wrapped(name, args.players, args.games, observe=False)
        o_steps, o_cpu = wrapped(name, args.players, args.games, observe=True)
        per = {k: cpu / steps for k, (steps, cpu) in
               {"engine": (e_steps, e_cpu), "env": (w_steps, w_cpu), "env_observed": (o_steps, o_cpu)}.items()}
        print(json.dumps({
            "game": name, "players": args.players, "games": args.games,
            "steps_per_s": {k: round(1 / v) for k, v in per.items()},
            "env_over_engine": round(per["env"] / per["engine"], 2),
            "env_observed_over_engine": round(per["env_observed"] / per["engine"], 2),
        }))


if __name__ == "__main__":
    main()
