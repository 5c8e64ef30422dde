"""Thebes engine speed, with a profile of where the time goes.

    python bench/thebes_speed.py [--games 1000] [--players 4] [--profile]

The figures are those of `arena bench thebes --players 4 --games 1000` (the benchmark proper: random playouts
on one core, then clone/apply/legal_actions costs); `--profile` adds a cProfile of the playouts, the functions
sorted by their own time.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import random

from arena import games
from arena.commands import bench
from arena.commands.selfplay import game_seed


def playouts(players: int, n: int) -> None:
    game = games.load("thebes", players=players)
    rng = random.Random(0)
    for i in range(n):
        state = game.new_state(game_seed(0, i))
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    print(json.dumps(bench.run("thebes", args.players, args.games, 0)))
    if args.profile:
        profiler = cProfile.Profile()
        profiler.runcall(playouts, args.players, min(args.games, 300))
        pstats.Stats(profiler).sort_stats("tottime").print_stats(12)


if __name__ == "__main__":
    main()
