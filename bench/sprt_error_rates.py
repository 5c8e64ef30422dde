"""How often does a version test get it wrong? False accepts at 0 Elo and power at the alternative, by simulation.

    python bench/sprt_error_rates.py [--runs 400] [--elo0 0] [--elo1 30] [--max-pairs 2000] [--coupling 0.6]
                                     [--seed 1]

Each simulated test plays pairs as the platform does (`versiontests.services`): version A and version B each play
the same deal, in the same seat, against the same opponent, who is as strong as A. A wins its game with
probability ½, B with L(h) for a true head-to-head difference h (logistic Elo). The two games of a pair share the
deal's luck with probability `--coupling`² (each game takes the deal's random draw with probability
`--coupling`, else its own): A's and B's results correlate about coupling² (0.36 by default, 0.64 at 0.8). After
every pair the SPRT is updated exactly as `stats.summarize` does with the pair history — the bounds elo0/elo1 read
as head-to-head Elo (`stats.pair_elo`), fishtest's GLLR (`stats.llr_logistic`) and its overshoot-corrected stopping
bounds (`stats.Overshoot`) — and the test stops at a verdict or after `--max-pairs` pairs (the default of a test).
Printed for h = 0 (a false accept is the α the test promises: ≤ 5%), h = elo1 (power: 1 − β ≥ 95%) and h = elo1/2:
the share accepted, rejected and undecided, and the pairs played (median, 90th percentile). Each run's verdict is
checked against `stats.summarize` itself.
"""

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

from versiontests import stats  # noqa: E402


def one_test(h: float, elo0: float, elo1: float, max_pairs: int, coupling: float, rng: random.Random
             ) -> tuple[str, int]:
    p_a, p_b = 0.5, stats.logistic(h)
    e0, e1 = stats.pair_elo(elo0), stats.pair_elo(elo1)
    lower, upper = stats.bounds()
    counts = [0] * stats.grid_size(2)
    overshoot = stats.Overshoot()
    history = []
    for _pair in range(1, max_pairs + 1):
        u = rng.random()
        ua = u if rng.random() < coupling else rng.random()
        ub = u if rng.random() < coupling else rng.random()
        score = stats.pair_score(float(ua < p_a), float(ub < p_b))
        history.append(score)
        counts[round(score * 4)] += 1
        llr = stats.llr_logistic(e0, e1, counts)
        overshoot.update(llr)
        decision = ("accepted" if llr > upper - overshoot.upper else
                    "rejected" if llr < lower + overshoot.lower else "")
        if decision:
            break
    check = stats.summarize(counts, elo0, elo1, history=history)
    assert check.decision == decision, (check.decision, decision, counts)
    return decision, len(history)  # pairs played


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=400)
    parser.add_argument("--elo0", type=float, default=stats.DEFAULT_ELO0)
    parser.add_argument("--elo1", type=float, default=stats.DEFAULT_ELO1)
    parser.add_argument("--max-pairs", type=int, default=stats.DEFAULT_MAX_PAIRS)
    parser.add_argument("--coupling", type=float, default=0.6)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"bounds [{args.elo0:g}, {args.elo1:g}] head-to-head Elo (pair Elo [{stats.pair_elo(args.elo0):.1f}, "
          f"{stats.pair_elo(args.elo1):.1f}]), α = β = 5%, at most {args.max_pairs} pairs, coupling "
          f"{args.coupling}, {args.runs} tests each")
    print(f"{'true h2h Elo':>12} {'accepted':>9} {'rejected':>9} {'undecided':>9} {'pairs median':>12} {'p90':>5}")
    for h in (args.elo0, (args.elo0 + args.elo1) / 2, args.elo1):
        rng = random.Random(f"{args.seed}:{h}")
        t0 = time.perf_counter()
        runs = [one_test(h, args.elo0, args.elo1, args.max_pairs, args.coupling, rng) for _ in range(args.runs)]
        verdicts = [d for d, _ in runs]
        pairs = sorted(n for _, n in runs)
        share = {v: verdicts.count(v) / len(runs) for v in ("accepted", "rejected", "")}
        print(f"{h:>12g} {share['accepted']:>9.1%} {share['rejected']:>9.1%} {share['']:>9.1%} "
              f"{statistics.median(pairs):>12g} {pairs[max(0, math.ceil(0.9 * len(pairs)) - 1)]:>5}   "
              f"({time.perf_counter() - t0:.0f} s)")


if __name__ == "__main__":
    main()
