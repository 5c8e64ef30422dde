"""Do the leaderboard's numbers mean what they say? A simulated ladder of bots with known strengths.

    python bench/rating_calibration.py [--bots 30] [--ladders 10] [--games 100,300,1000] [--players 2,4]
                                       [--seed 1]
    python bench/rating_calibration.py --case version [--bots 20] [--ladders 10] [--jump 200] [--before 1000]

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

`--case version`: a bot changes. After `--before` games a bot at its old strength, one bot (drawn at random)
uploads a version `--jump` Elo stronger (negative: weaker), and the ladder goes on; matchmaking is the
platform's, seating the new version first for its first `--first-games` games (ARENA_RATING's
"new_version_first_games"). After 100/300/1,000 games of the new version both methods fit the same games:
- pooled (the old method): every game of a bot in one player, whichever version played it;
- versions (the platform's): each version a player, chained to its predecessor by N(0, VERSION_SD²).
The truth is the new version's strength minus the mean true strength of the bots as they play now (both fits
are centred there: the platform's on every bot's playing version). Per point: coverage (share of ladders whose
95% interval holds the truth; goal ≥ 90%), bias (mean estimate − truth, with its own 95% interval over the
ladders; goal: inside the rating's interval from 300 games on) and the mean interval.
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
from ladders.rating_fit import ELO_PER_NAT, VERSION_SD, Z95, Results, fit  # noqa: E402
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


def version_change(n_bots: int, players: int, before: int, checkpoints: list[int], jump: float,
                   first_games: int, version_sd: float, rng: random.Random, refit_rounds: int = 1
                   ) -> dict[int, dict[str, tuple[float, float]]]:
    """One ladder where one bot uploads a version `jump` Elo stronger after `before` games a bot: at each
    checkpoint (games of the new version), per method, (estimate − truth, interval) of the new version."""
    true = [rng.gauss(0.0, 200.0) for _ in range(n_bots)]
    mean = statistics.fmean(true)
    true = [t - mean for t in true]
    changed = rng.randrange(n_bots)
    new = n_bots                    # the new version's player id in the `versions` fit
    version = list(range(n_bots))   # each bot's active version (its player id)
    strength = [*true, true[changed] + jump]  # by player id
    games = [0] * n_bots
    last: list[datetime | None] = [None] * n_bots
    pooled, versions = Results(), Results()
    rating = dict.fromkeys(range(n_bots), 1500.0)
    previous: dict[int, int] = {}
    new_games = 0
    per_round = max(1, n_bots // players) * refit_rounds
    clock = T0
    out: dict[int, dict[str, tuple[float, float]]] = {}
    g = 0
    while len(out) < len(checkpoints):
        g += 1
        clock += timedelta(seconds=1)
        if g == before * n_bots // players + 1:  # the upload: the new version starts from the old one's rating
            version[changed], previous, rating[new] = new, {new: changed}, rating[changed]
        cands = [Candidate(bot_id=b, owner_id=b, version_id=version[b], version_created_at=T0,
                           rating=rating[version[b]], games=games[b], last_played_at=last[b],
                           new=version[b] == new and new_games < first_games) for b in range(n_bots)]
        table = [c.bot_id for c in pick_table(cands, players, rng)]
        seats = [version[b] for b in table]
        ranks = play(strength, seats, rng)
        for b in table:
            games[b] += 1
            last[b] = clock
        pooled.add(table, ranks)
        versions.add(seats, ranks)
        if g % per_round == 0:
            rating = fit(versions, rating.keys(), previous=previous, version_sd=version_sd, centred_on=version,
                         start=rating).rating
        if new in seats:
            new_games += 1
            if new_games in checkpoints:
                mine = fit(versions, rating.keys(), previous=previous, version_sd=version_sd, centred_on=version,
                           start=rating)
                old = fit(pooled, range(n_bots))
                truth = strength[new] - statistics.fmean(strength[v] for v in version)
                out[new_games] = {"pooled": (old.rating[changed] - 1500.0 - truth, old.interval[changed]),
                                  "versions": (mine.rating[new] - 1500.0 - truth, mine.interval[new])}
    return out


def version_main(args: argparse.Namespace) -> None:
    checkpoints = [int(x) for x in args.games.split(",")]
    print(f"{args.bots} bots a ladder, {args.ladders} ladders a setting, truths N(0, 200²) Elo; one bot uploads "
          f"a version {args.jump:+.0f} Elo after {args.before} games a bot; VERSION_SD {args.version_sd:.0f}; "
          f"goals: coverage ≥ 90%, |bias| < interval from 300 games")
    print(f"{'players':>7} {'method':>9} {'new games':>9} {'coverage':>9} {'bias':>16} {'±95% (mean)':>11} "
          f"{'z sd':>5}")
    for players in (int(x) for x in args.players.split(",")):
        rng = random.Random(f"{args.seed}:{players}:version")
        t0 = time.perf_counter()
        runs = [version_change(args.bots, players, args.before, checkpoints, args.jump, args.first_games,
                               args.version_sd, rng, args.refit_rounds) for _ in range(args.ladders)]
        for method in ("pooled", "versions"):
            for n in checkpoints:
                errors = [r[n][method][0] for r in runs]
                halves = [r[n][method][1] for r in runs]
                coverage = sum(abs(e) <= h for e, h in zip(errors, halves)) / len(runs)
                bias = statistics.fmean(errors)
                spread = 1.96 * statistics.stdev(errors) / math.sqrt(len(errors)) if len(errors) > 1 else 0.0
                width = statistics.fmean(halves)
                # the errors in units of their own standard error: sd 1 if the interval is honest (a finer
                # measure than the coverage of a few ladders), above 1 if it is too narrow
                z = statistics.pstdev(Z95 * e / h for e, h in zip(errors, halves))
                ok = coverage >= 0.9 and (n < 300 or abs(bias) < width)
                print(f"{players:>7} {method:>9} {n:>9} {coverage:>8.1%} {bias:>+7.0f} ± {spread:<6.0f} "
                      f"{width:>11.0f} {z:>5.2f}  {'ok' if ok else 'MISSES GOAL'}")
        print(f"        ({time.perf_counter() - t0:.0f} s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", type=int, help="bots a ladder (default 30; 20 for --case version)")
    parser.add_argument("--ladders", type=int, default=10, help="independent ladders per setting")
    parser.add_argument("--games", default="100,300,1000", help="checkpoints: games a bot")
    parser.add_argument("--players", default="2,4")
    parser.add_argument("--rules", default="information,window4")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--refit-rounds", type=int, default=3,
                        help="refit the ratings every this many rounds of games (a round: every bot plays once)")
    parser.add_argument("--case", choices=("stable", "version"), default="stable",
                        help="stable: bots that never change; version: one bot uploads a stronger version")
    parser.add_argument("--jump", type=float, default=200.0, help="version case: the new version's gain (Elo)")
    parser.add_argument("--before", type=int, default=1000, help="version case: games a bot before the upload")
    parser.add_argument("--first-games", type=int, default=30,
                        help="version case: the new version is seated first for this many games")
    parser.add_argument("--version-sd", type=float, default=VERSION_SD, help="version case: the chain prior's SD")
    args = parser.parse_args()
    args.bots = args.bots or (20 if args.case == "version" else 30)
    if args.case == "version":
        version_main(args)
        return
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
