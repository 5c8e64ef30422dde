"""Win rate of the greedy Thebes policy against random opponents, with a 95% confidence interval.

    python bench/thebes_greedy_vs_random.py [--games 1000] [--players 4] [--seed 1]

Greedy sits at seat i % players in game i (so no seat advantage helps it); the other seats play random. A win
is rank 1 (a shared first place counts as a win; how many were shared is printed too). The interval is the
Wilson score interval. Deterministic: the same arguments give the same figures.
"""

from __future__ import annotations

import argparse
import json
import math
import time

from arena import games
from arena.commands.selfplay import game_seed, policy_rng
from arena.games.policy import play_game


def wilson(wins: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    game = games.load("thebes", players=args.players)
    pols = games.policies("thebes")
    wins = shared = 0
    margin = 0.0
    started = time.perf_counter()
    for i in range(args.games):
        seat = i % args.players
        policies = [pols["greedy"]() if p == seat else pols["random"]() for p in range(args.players)]
        rngs = [policy_rng(args.seed, i, p) for p in range(args.players)]
        state, _ = play_game(game, game_seed(args.seed, i), policies, rngs)
        ranks, scores = state.ranking(), state.scores()
        if ranks[seat] == 1:
            wins += 1
            shared += ranks.count(1) > 1
        margin += scores[seat] - max(s for p, s in enumerate(scores) if p != seat)
    low, high = wilson(wins, args.games)
    print(json.dumps({
        "players": args.players, "games": args.games, "seed": args.seed,
        "greedy_wins": wins, "shared_first_places": shared,
        "win_rate": round(wins / args.games, 4), "ci95": [round(low, 4), round(high, 4)],
        "random_seat_expectation": round(1 / args.players, 4),
        "mean_margin_over_best_random": round(margin / args.games, 2),
        "seconds": round(time.perf_counter() - started, 1),
    }))


if __name__ == "__main__":
    main()
