"""The SDK's fast rollout policies (`arena_bot.rollout`) beside the engine's in-process policies: decisions per
second of whole playouts on one core.

    python bench/rollout_policy.py [--games 30] [--players 2]

Per game: random (the floor), the SDK's rollout policy (`rollout_policy(game)` through `playout`), and the engine's
greedy policy (`arena.games.<game>.policies.GreedyPolicy`, which needs the seat's observation dict each step), each
playing every seat of `--games` games from the same deals. Printed as JSON with the rollout's speed as a multiple
of the greedy policy's.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bots/python/sdk"))

from arena_bot.rollout import playout, rollout_policy  # noqa: E402

from arena import games  # noqa: E402
from arena.games.policy import RandomPolicy, play_game  # noqa: E402


def rate(run) -> float:
    start = time.process_time()
    decisions = run()
    return decisions / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--players", type=int, default=2)
    args = parser.parse_args()
    for name in games.names():
        game = games.load(name, players=args.players)
        greedy = games.policies(name)["greedy"]
        rng = random.Random(0)

        def in_process(policy_class, game=game):
            return sum(play_game(game, s, [policy_class()] * game.players,
                                 [random.Random(s * 10 + i) for i in range(game.players)])[1]
                       for s in range(args.games))

        def rollouts(name=name, game=game, rng=rng):
            policy = rollout_policy(name)
            return sum(playout(game.new_state(s), policy, rng) for s in range(args.games))

        speeds = {"random": rate(lambda: in_process(RandomPolicy)), "sdk_rollout": rate(rollouts),
                  "engine_greedy": rate(lambda g=greedy: in_process(g))}
        print(json.dumps({"game": name, "players": args.players, "games": args.games,
                          "decisions_per_s": {k: round(v) for k, v in speeds.items()},
                          "rollout_over_greedy": round(speeds["sdk_rollout"] / speeds["engine_greedy"], 2)}),
              flush=True)


if __name__ == "__main__":
    main()
