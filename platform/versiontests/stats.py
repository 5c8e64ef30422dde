"""The statistics of a version test: fishtest's generalized SPRT (GSPRT) on paired games, Elo ± 95% CI and LOS.

Plain Python, no Django, no SciPy. It follows `official-stockfish/fishtest` `server/fishtest/stats/LLRcalc.py`
(`results_to_pdf` → `MLE_expected` → `LLR`, i.e. `LLR_logistic`) and the bounds of `sprt.py`, on our own unit:

- A *pair* is one seed and seat layout played twice, once with version A and once with version B in the same
  seat against the same opponents (duplicate style: the deal's luck cancels out).
- Each side's game scores its share of the opponents it finished ahead of, ties counting half (1 / ½ / 0 in a
  2-player game; multiples of 1/(2(n−1)) with n players).
- The pair score is ``(score_B − score_A + 1) / 2`` in [0, 1]: ½ when B did as well as A, 1 when B won and A
  lost. It lives on a grid of ``4(n−1) + 1`` values (the five of fishtest's pentanomial for 2 players).
- The LLR is fishtest's general one: the log-likelihood ratio of the observed pair-score counts under the
  maximum-likelihood distributions whose mean is ``L(elo1)`` versus ``L(elo0)`` (logistic Elo,
  ``L(x) = 1/(1+10^(−x/400))``), zero counts regularised to 1e-3 as fishtest does. Elo here means "B over A as
  if head to head", read from their scores against the same opponents.
- The test stops when the LLR leaves ``[ln(β/(1−α)), ln((1−β)/α)]`` (≈ ±2.94 for α = β = 0.05): above it B is
  better by elo1 (accepted), below it B is not better than elo0 (rejected). fishtest's overshoot correction is
  not applied (it matters only for its huge batch sizes; we update after every pair).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Sequence

ALPHA = 0.05
BETA = 0.05
# Bots differ by tens of Elo between versions, not the 1–2 of an engine patch, and a game costs seconds: the
# defaults ask "is B at least 30 Elo better than A?" and settle it in a few hundred pairs at most.
DEFAULT_ELO0 = 0.0
DEFAULT_ELO1 = 30.0

Pdf = list[tuple[float, float]]


def logistic(elo: float) -> float:
    """Expected score of a player `elo` logistic-Elo points stronger."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def elo_of(score: float) -> float:
    """The inverse of `logistic`; ±inf at 1 and 0."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def bounds(alpha: float = ALPHA, beta: float = BETA) -> tuple[float, float]:
    """(lower, upper) LLR bounds of the SPRT."""
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


# ------------------------------------------------------------------------------------------- scores of games

def game_score(rank: int, opponent_ranks: Sequence[int]) -> float:
    """Share of the opponents this seat finished ahead of (smaller rank is better), ties half."""
    if not opponent_ranks:
        raise ValueError("a game needs at least one opponent")
    points = sum(1.0 if rank < r else 0.5 if rank == r else 0.0 for r in opponent_ranks)
    return points / len(opponent_ranks)


def pair_score(score_a: float, score_b: float) -> float:
    """B's result over A's on the same deal, in [0, 1] (½: equal)."""
    return (score_b - score_a + 1.0) / 2.0


def grid_size(players: int) -> int:
    """How many values a pair score can take with this many players (5 for 2 players)."""
    return 4 * (players - 1) + 1


def counts_of(pair_scores: Sequence[float], players: int) -> list[int]:
    """The pair scores as counts on their grid (index i ↔ value i/(size−1))."""
    size = grid_size(players)
    counts = [0] * size
    for s in pair_scores:
        if not 0.0 <= s <= 1.0:
            raise ValueError(f"pair score {s} outside [0, 1]")
        counts[round(s * (size - 1))] += 1
    return counts


# ------------------------------------------------------------------------------------- fishtest's LLRcalc

def _stats(pdf: Pdf) -> tuple[float, float]:
    mean = sum(p * a for a, p in pdf)
    var = sum(p * (a - mean) ** 2 for a, p in pdf)
    return mean, var


def _secular(pdf: Pdf) -> float:
    """Solve sum_i p_i a_i / (1 + x a_i) = 0 on the interval where every 1 + x a_i > 0 (bisection: the function
    is strictly decreasing there, so this is what fishtest's brentq finds)."""
    values = [a for a, _ in pdf]
    v, w = min(values), max(values)
    if not v * w < 0:
        raise ValueError("the hypothesis' score must lie strictly inside the observed range")
    eps = 1e-9
    lo, hi = -1.0 / w + eps, -1.0 / v - eps

    def f(x: float) -> float:
        return sum(p * a / (1.0 + x * a) for a, p in pdf)

    for _ in range(200):
        mid = (lo + hi) / 2.0
        if f(mid) > 0:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-15:
            break
    return (lo + hi) / 2.0


def mle_expected(pdf: Pdf, s: float) -> Pdf:
    """The distribution on the same support closest (max likelihood) to `pdf` whose mean is `s`."""
    x = _secular([(a - s, p) for a, p in pdf])
    return [(a, p / (1.0 + x * (a - s))) for a, p in pdf]


def llr_per_sample(pdf: Pdf, s0: float, s1: float) -> float:
    """fishtest's `LLR(pdf, s0, s1)`: the GLLR divided by the number of samples."""
    pdf0, pdf1 = mle_expected(pdf, s0), mle_expected(pdf, s1)
    return sum(p * (math.log(p1) - math.log(p0)) for (_, p), (_, p0), (_, p1) in zip(pdf, pdf0, pdf1))


def results_to_pdf(counts: Sequence[float]) -> tuple[float, Pdf]:
    """fishtest's `results_to_pdf`: zero counts become 1e-3, values i/(len−1)."""
    reg = [c if c else 1e-3 for c in counts]
    n = sum(reg)
    size = len(reg)
    return n, [(i / (size - 1), c / n) for i, c in enumerate(reg)]


def llr_logistic(elo0: float, elo1: float, counts: Sequence[float]) -> float:
    """fishtest's `LLR_logistic`: the GLLR of H1 (B is elo1 better) against H0 (elo0) for these counts."""
    if sum(counts) == 0:
        return 0.0
    n, pdf = results_to_pdf(counts)
    return n * llr_per_sample(pdf, logistic(elo0), logistic(elo1))


# --------------------------------------------------------------------------------------------- the summary

@dataclass(frozen=True)
class Summary:
    pairs: int
    llr: float
    lower: float
    upper: float
    decision: str          # "accepted" (B better by elo1), "rejected" (not better than elo0) or "" (go on)
    score: float           # mean pair score
    elo: float             # B over A
    elo_low: float         # 95% interval
    elo_high: float
    los: float             # likelihood of superiority, P(B better than A)

    def to_dict(self) -> dict:
        return {k: (None if isinstance(v, float) and not math.isfinite(v) else v) for k, v in asdict(self).items()}


def summarize(counts: Sequence[int], elo0: float = DEFAULT_ELO0, elo1: float = DEFAULT_ELO1,
              alpha: float = ALPHA, beta: float = BETA) -> Summary:
    """Everything a test page shows, from the pair-score counts (grid as in `counts_of`)."""
    lower, upper = bounds(alpha, beta)
    pairs = int(sum(counts))
    llr = llr_logistic(elo0, elo1, counts)
    decision = "accepted" if llr >= upper else "rejected" if llr <= lower else ""
    if pairs == 0:
        return Summary(0, 0.0, lower, upper, "", 0.5, 0.0, -math.inf, math.inf, 0.5)
    size = len(counts)
    values = [i / (size - 1) for i in range(size)]
    mean = sum(c * v for c, v in zip(counts, values)) / pairs
    var = sum(c * (v - mean) ** 2 for c, v in zip(counts, values)) / pairs
    se = math.sqrt(var / pairs)
    if se > 0:
        los = 0.5 * (1.0 + math.erf((mean - 0.5) / se / math.sqrt(2.0)))
    else:
        los = 1.0 if mean > 0.5 else 0.0 if mean < 0.5 else 0.5
    return Summary(pairs, llr, lower, upper, decision, mean, elo_of(mean), elo_of(mean - 1.96 * se),
                   elo_of(mean + 1.96 * se), los)
