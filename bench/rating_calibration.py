"""Do the leaderboard's numbers mean what they say? A simulated ladder of bots with known strengths.

    python bench/rating_calibration.py [--bots 30] [--ladders 10] [--games 100,300,1000] [--players 2,4]
                                       [--seed 1]

No Django, no database, no real matches: the ladder is played through the platform's own pure functions —
`matchmaking.rules.pick_table` picks every table (the seed that most needs a game, opponents drawn as the
matchmaker draws them), `ladders.rating.elo_changes` moves the incremental Elo after every game, and
`ladders.rating_fit.fit` refits the leaderboard rating every few rounds of games (as the periodic task does,
warm started from the last fit; a round is every bot playing about once). A game between bots of true strengths θ
(Elo) is a Plackett–Luce draw: each seat's performance is θ·ln10/400 plus Gumbel noise, best performance first —
under this model every pair's result is Elo's logistic curve, so "true strength" has its usual Elo meaning for 2
and for 4 players.

Truths are drawn N(0, 200²) and centred. After N games a bot, for each matchmaking rule (`information`, the
platform's; `window4`, the old "random among the 4 nearest Elo") it prints:
- coverage: the share of bots whose 95% interval (rating ± interval) holds their true strength + 1500 (the
  rating is relative to the ladder's average, shown around 1500); target ≥ 90% of the nominal 95%, i.e. ≥ 85.5%.
- slope: the least-squares slope of the rating against the true strength (1 = the scale means Elo points);
  target 1 ± 0.1. The same for the incremental Elo, which has no interval of its own.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from datetime import datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "platform"))

from ladders.rating import elo_changes  # noqa: E402
from ladders.rating_fit import ELO_PER_NAT, Results, fit  # noqa: E402
from matchmaking.rules import Candidate, pick_table  # noqa: E402

T0 = datetime(2026, 1, 1)
RULES = {"information": None, "window4": 4}


def play(true: list[float], bots: list[int], rng: random.Random) -> list[int]:
    """Finishing ranks of one Plackett–Luce game (1 = best)."""
    perf = [true[b] / ELO_PER_NAT - math.log(-math.log(rng.random())) for b in bots]
    order = sorted(range(len(bots)), key=lambda k: -perf[k])
    ranks = [0] * len(bots)
    for place, k in enumerate(order):
        ranks[k] = place + 1
    return ranks


def slope(x: list[float], y: list[float]) -> float:
    mx, my = statistics.fmean(x), statistics.fmean(y)
    return sum((a - mx) * (b - my) for a, b in zip(x, y)) / sum((a - mx) ** 2 for a in x)


def ladder(n_bots: int, players: int, checkpoints: list[int], window: int | None, rng: random.Random,
           refit_rounds: int = 1) -> dict[int, dict[str, float]]:
    """Play one ladder; at each checkpoint (games a bot) the coverage and slopes of that ladder."""
    true = [rng.gauss(0.0, 200.0) for _ in range(n_bots)]
    mean = statistics.fmean(true)
    true = [t - mean for t in true]
    elo = [1500.0] * n_bots
    games = [0] * n_bots
    last: list[datetime | None] = [None] * n_bots
    rating = dict.fromkeys(range(n_bots), 1500.0)
    results = Results()
    out: dict[int, dict[str, float]] = {}
    per_round = max(1, n_bots // players) * refit_rounds  # a refit every `refit_rounds` rounds of games
    total = max(checkpoints) * n_bots // players
    clock = T0
    for g in range(1, total + 1):
        clock += timedelta(seconds=1)
        # the matchmaker sees the leaderboard rating: the fit (or, under the old rule, the incremental Elo)
        seen = elo if window is not None else [rating[b] for b in range(n_bots)]
        cands = [Candidate(bot_id=b, owner_id=b, version_id=b, version_created_at=T0, rating=seen[b],
                           games=games[b], last_played_at=last[b]) for b in range(n_bots)]
        table = [c.bot_id for c in pick_table(cands, players, rng, window)]
        ranks = play(true, table, rng)
        for b, d in zip(table, elo_changes([elo[b] for b in table], ranks, k=32.0)):
            elo[b] += d
            games[b] += 1
            last[b] = clock
        results.add(table, ranks)
        if g % per_round == 0:
            rating = fit(results, range(n_bots), start=rating).rating
        done = g * players // n_bots
        if done in checkpoints and done not in out and g * players % n_bots == 0:
            f = fit(results, range(n_bots), start=rating)
            rating = f.rating
            est = [f.rating[b] - 1500.0 for b in range(n_bots)]
            out[done] = {
                "coverage": sum(abs(est[b] - true[b]) <= f.interval[b] for b in range(n_bots)) / n_bots,
                "slope": slope(true, est),
                "elo_slope": slope(true, elo),
                "interval": statistics.fmean(f.interval.values()),
                "dispersion": f.dispersion,
            }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", type=int, default=30)
    parser.add_argument("--ladders", type=int, default=10, help="independent ladders per setting")
    parser.add_argument("--games", default="100,300,1000", help="checkpoints: games a bot")
    parser.add_argument("--players", default="2,4")
    parser.add_argument("--rules", default="information,window4")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--refit-rounds", type=int, default=3,
                        help="refit the ratings every this many rounds of games (a round: every bot plays once)")
    args = parser.parse_args()
    checkpoints = [int(x) for x in args.games.split(",")]
    print(f"{args.bots} bots a ladder, {args.ladders} ladders a setting, truths N(0, 200²) Elo; "
          f"targets: coverage ≥ 85.5% (90% of 95%), slope 1 ± 0.1")
    print(f"{'players':>7} {'matchmaking':>12} {'games/bot':>9} {'coverage':>9} {'slope':>6} "
          f"{'±95% (mean)':>11} {'φ':>5} {'Elo slope':>9}")
    for players in (int(x) for x in args.players.split(",")):
        for name in args.rules.split(","):
            rng = random.Random(f"{args.seed}:{players}:{name}")
            t0 = time.perf_counter()
            runs = [ladder(args.bots, players, checkpoints, RULES[name], rng, args.refit_rounds)
                    for _ in range(args.ladders)]
            for n in checkpoints:
                rows = [r[n] for r in runs]
                avg = {k: statistics.fmean(row[k] for row in rows) for k in rows[0]}
                ok = avg["coverage"] >= 0.855 and abs(avg["slope"] - 1) <= 0.1
                print(f"{players:>7} {name:>12} {n:>9} {avg['coverage']:>8.1%} {avg['slope']:>6.3f} "
                      f"{avg['interval']:>11.0f} {avg['dispersion']:>5.2f} {avg['elo_slope']:>9.3f}"
                      f"  {'ok' if ok else 'MISSES TARGET'}")
            print(f"        ({time.perf_counter() - t0:.0f} s)")


if __name__ == "__main__":
    main()
