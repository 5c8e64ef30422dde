"""What a refit costs when bots have many versions: `ladders.rating_fit.fit` on a simulated ladder of `--bots`
bots with `--versions` versions each (one chain of priors per bot; every version played `--games` games, the
versions in upload order), cold (from nothing) and warm (from the last fit, as the periodic refit runs).

    python bench/refit_versions.py [--bots 50] [--versions 10] [--games 100] [--players 4] [--runs 3]

No Django, no database: the fit alone (the refit task adds reading the results and writing the rows, measured by
bench/leaderboard_latency.py). Prints the players of the fit, the games, and the median seconds of each kind of
fit over `--runs` runs: on a loaded machine compare ratios between sizes from one run, not absolute times."""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "platform"))

from ladders.rating_fit import ELO_PER_NAT, Results, fit  # noqa: E402


def ladder(bots: int, versions: int, games: int, players: int, rng: random.Random
           ) -> tuple[Results, dict[int, int], list[int]]:
    """The results of a ladder whose bots uploaded `versions` versions one after another (player id = bot ×
    versions + k), each version playing about `games` games against the others' versions of its time."""
    strength = [rng.gauss(0.0, 200.0) + 30.0 * k for _ in range(bots) for k in range(versions)]
    previous = {b * versions + k: b * versions + k - 1 for b in range(bots) for k in range(1, versions)}
    results = Results()
    for k in range(versions):  # the ladder's k-th era: every bot plays its k-th version
        playing = [b * versions + k for b in range(bots)]
        for _ in range(games * bots // players):
            table = rng.sample(playing, players)
            perf = [strength[p] / ELO_PER_NAT - math.log(-math.log(rng.random())) for p in table]
            order = sorted(range(players), key=lambda i: -perf[i])
            ranks = [0] * players
            for place, i in enumerate(order):
                ranks[i] = place + 1
            results.add(table, ranks)
    return results, previous, [b * versions + versions - 1 for b in range(bots)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", type=int, default=50)
    parser.add_argument("--versions", type=int, default=10)
    parser.add_argument("--games", type=int, default=100, help="games of each version")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    results, previous, playing = ladder(args.bots, args.versions, args.games, args.players, rng)
    cold, warm = [], []
    last = None
    for _ in range(args.runs):
        t0 = time.perf_counter()
        last = fit(results, previous=previous, centred_on=playing)
        cold.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        fit(results, previous=previous, centred_on=playing, start=last.rating)
        warm.append(time.perf_counter() - t0)
    print(f"{args.bots} bots × {args.versions} versions = {len(results.bots())} players, {len(results)} games of "
          f"{args.players}: fit cold {statistics.median(cold):.2f} s, warm {statistics.median(warm):.2f} s "
          f"(median of {args.runs})")


if __name__ == "__main__":
    main()
