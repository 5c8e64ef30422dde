"""The leaderboard's rating: a maximum-likelihood fit over all of a ladder's results, with its own 95% interval.

Plain Python and NumPy, no Django (the simulation in `bench/rating_calibration.py` calls it as the platform does).

A player of the fit is one bot version (`matches.ratings` keys the results by version): a bot that uploads a new
version gets a new player, rated from that version's games only, and its opponents' old versions stay in the fit
as the opponents they were. The versions of one bot are chained by a prior on each step, θ(v2) − θ(v1) ~
N(0, `VERSION_SD`²) (`previous`): a new version starts at its predecessor's rating with an interval wider by that
step, and its own games take over within tens of games (a dynamic Bradley–Terry whose time steps are uploads).

The model. Every pair of seats of a finished game is one comparison, won by the better rank (equal ranks: half
each): for 2 players this is Bradley–Terry, for 3–4 the pairwise decomposition of the game. A bot's rating θ (in
natural units; Elo = θ · 400/ln 10) gives ``P(i beats j) = 1/(1 + e^(θj − θi))`` — Elo's logistic curve.
If a game's finishing order is a Plackett–Luce draw (each seat's performance is its strength plus Gumbel noise),
every pair's result is exactly this logistic, so the fit is consistent for any number of seats.

The estimate. A Gaussian prior N(0, `PRIOR_SD`²) on every θ that has no previous version keeps a bot that won (or lost) every game finite and
makes the problem strictly concave; with tens of games it moves a rating by well under its interval. The maximum
of the penalised log-likelihood is found by Newton's method (a handful of steps from the last fit). The
likelihood only sees differences: a rating is "how much stronger than the ladder's average bot", the average of
the players `centred_on` (the platform: every bot's playing version) shown as `centre` (1500).

The interval. ±1.96 × the standard error of θi − that average, from the inverse of the Fisher information plus the
prior's precision (the observed information of the fit). The seats of one 3–4-player game are not independent
comparisons (a bot that played well beat everyone at once): their scores vary more than independent pairs would.
That is measured, not assumed: the dispersion φ = Σ (observed − expected score)² / Σ expected variance over all
seats of all games, the quasi-likelihood scale (Σ over a game's seats, so its correlations count); the data's
information is divided by φ. φ ≈ 1 for 2 players without draws, (N+1)/3 for N evenly matched players, below 1
when draws are common. `bench/rating_calibration.py` checks the coverage of the truth and the scale's slope.

The cost. Dense: each Newton step solves one players × players system and the interval inverts one, so a refit
grows with the cube of a ladder's players (bot versions ever rated there): ~1 s at 500, ~30 s at 2,000 on a
loaded 2-core machine (`bench/refit_versions.py`). The information is a sparse graph Laplacian (a version meets
the versions of its time): past ~1,000 versions a ladder would need a sparse solve (conjugate gradients on the
pair list) and intervals for the playing versions only.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

# One BLAS thread (unless the environment says otherwise; effective when this is the process's first NumPy import,
# as in the platform: nothing else imports it). The refit is a dense solve of one matrix per Newton step; OpenBLAS
# spinning a thread per core against the workers' own processes made it 10× slower on a loaded 2-core machine
# (bench/refit_versions.py: 500 players, 8 s → 0.8 s), and a worker runs tasks side by side anyway.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402
from numpy.typing import NDArray  # noqa: E402

ELO_PER_NAT = 400.0 / math.log(10.0)
PRIOR_SD = 400.0   # Elo; a new bot's interval is about ±1.96 × 400
# Elo; how far a new version may plausibly be from the one before (one SD). Chosen by measurement
# (bench/rating_calibration.py --case version): wide enough that a +200 jump is covered from the first games,
# narrow enough that an unchanged upload keeps a useful rating until it has played.
VERSION_SD = 200.0
Z95 = 1.959963984540054


@dataclass
class Results:
    """The finished games of one ladder: for each table size, the bots' ids and finishing ranks seat by seat."""

    tables: dict[int, list[tuple[tuple[int, ...], tuple[int, ...]]]] = field(default_factory=dict)

    def add(self, bots: Sequence[int], ranks: Sequence[int]) -> None:
        """One game. Ranks: 1 is best, equal ranks tie. A bot can't sit twice at one table."""
        if len(bots) != len(ranks):
            raise ValueError("one rank per seat")
        if len(set(bots)) != len(bots):
            raise ValueError("a bot can sit only once at a table")
        if len(bots) >= 2:
            self.tables.setdefault(len(bots), []).append((tuple(bots), tuple(ranks)))

    def bots(self) -> set[int]:
        return {b for games in self.tables.values() for bots, _ in games for b in bots}

    def games_of(self) -> dict[int, int]:
        """How many games each player played."""
        counts: dict[int, int] = {}
        for games in self.tables.values():
            for bots, _ in games:
                for b in bots:
                    counts[b] = counts.get(b, 0) + 1
        return counts

    def __len__(self) -> int:
        return sum(len(g) for g in self.tables.values())


@dataclass(frozen=True)
class Fit:
    """Ratings on the Elo scale (their mean is `centre`), the half-width of their 95% interval, and the fit's
    dispersion φ. `interval[b]` is 1.96 standard errors of b's rating relative to the ladder's average."""

    rating: dict[int, float]
    interval: dict[int, float]
    dispersion: float
    games: int

    def low(self, bot: int) -> float:
        return self.rating[bot] - self.interval[bot]

    def high(self, bot: int) -> float:
        return self.rating[bot] + self.interval[bot]


def _comparisons(results: Results, index: dict[int, int]
                 ) -> tuple[NDArray[Any], NDArray[Any], NDArray[Any], NDArray[Any], list[tuple[NDArray[Any], NDArray[Any]]]]:
    """Every pair of seats aggregated by pair of bots: (i, j, n, wins of i), i < j as indices; and the tables as
    index/rank arrays per table size (for the dispersion)."""
    n = len(index)
    keys, scores, tables = [], [], []
    for size, games in results.tables.items():
        idx = np.array([[index[b] for b in bots] for bots, _ in games], dtype=np.int64)
        ranks = np.array([ranks for _, ranks in games], dtype=np.float64)
        tables.append((idx, ranks))
        for a in range(size):
            for b in range(a + 1, size):
                ia, ib = idx[:, a], idx[:, b]
                s = np.where(ranks[:, a] < ranks[:, b], 1.0, np.where(ranks[:, a] == ranks[:, b], 0.5, 0.0))
                swap = ia > ib
                i, j = np.where(swap, ib, ia), np.where(swap, ia, ib)
                keys.append(i * n + j)
                scores.append(np.where(swap, 1.0 - s, s))
    if not keys:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, np.zeros(0), np.zeros(0), tables
    key, s = np.concatenate(keys), np.concatenate(scores)
    unique, inverse = np.unique(key, return_inverse=True)
    count = np.bincount(inverse).astype(np.float64)
    wins = np.bincount(inverse, weights=s)
    return unique // n, unique % n, count, wins, tables


def fit(results: Results, bots: Iterable[int] = (), *, centre: float = 1500.0, prior_sd: float = PRIOR_SD,
        previous: Mapping[int, int] | None = None, version_sd: float = VERSION_SD,
        centred_on: Iterable[int] | None = None, start: dict[int, float] | None = None, tolerance: float = 1e-7,
        max_steps: int = 100) -> Fit:
    """Fit the ratings of `bots` and of every player in `results` (see the module's docstring).

    `previous`: player → the player it follows (a bot's version → its version before, both then in the fit);
    such a player's prior is its predecessor's rating ± `version_sd` instead of the ladder's average ±
    `prior_sd`. `start`: earlier ratings (Elo scale, around `centre`) to start Newton's method from; the answer
    does not depend on it, only the number of steps does. `centred_on`: the players whose average is `centre`
    (the bots' playing versions, so that old versions and a new one without games move nobody's rating); all
    by default."""
    previous = dict(previous or {})
    ids = sorted(set(bots) | results.bots() | set(previous) | set(previous.values()))
    if not ids:
        return Fit({}, {}, 1.0, 0)
    index = {b: k for k, b in enumerate(ids)}
    n = len(ids)
    i, j, count, wins, tables = _comparisons(results, index)
    precision = (ELO_PER_NAT / prior_sd) ** 2      # prior precision in natural units
    # The prior's precision matrix: λ on the diagonal of every first version, and a Laplacian edge of precision
    # 1/τ² between each version and its predecessor (the chain prior). Every chain has a first version, so it
    # is positive definite and the penalised likelihood strictly concave.
    prior = np.zeros((n, n))
    for k, b in enumerate(ids):
        if b not in previous:
            prior[k, k] += precision
    step_precision = (ELO_PER_NAT / version_sd) ** 2
    for b, before in previous.items():
        a, c = index[b], index[before]
        if a == c:
            raise ValueError("a version cannot follow itself")
        prior[a, a] += step_precision
        prior[c, c] += step_precision
        prior[a, c] -= step_precision
        prior[c, a] -= step_precision
    theta = np.zeros(n)
    if start:
        theta = np.array([(start.get(b, centre) - centre) / ELO_PER_NAT for b in ids])
        theta -= theta.mean()

    def information(theta: np.ndarray, dispersion: float) -> tuple[np.ndarray, np.ndarray]:
        """Gradient of the penalised quasi-log-likelihood (the data's part divided by φ) and its Fisher
        information (a weighted graph Laplacian, also divided by φ)."""
        p = 1.0 / (1.0 + np.exp(theta[j] - theta[i]))
        resid = wins - count * p
        grad = (np.bincount(i, resid, n) - np.bincount(j, resid, n)) / dispersion - prior @ theta
        w = count * p * (1.0 - p)
        info = np.zeros((n, n))
        np.add.at(info, (i, j), -w)
        np.add.at(info, (j, i), -w)
        info[np.diag_indices(n)] = np.bincount(i, w, n) + np.bincount(j, w, n)
        return grad, info / dispersion

    def newton(theta: np.ndarray, dispersion: float) -> np.ndarray:
        for _ in range(max_steps):
            grad, info = information(theta, dispersion)
            step = np.linalg.solve(info + prior, grad)
            biggest = np.abs(step).max()
            if biggest > 2.0:  # Newton from far away can overshoot a logistic; the objective is concave: a cap is enough
                step *= 2.0 / biggest
            theta = theta + step
            if biggest < tolerance:
                break
        return theta

    theta = newton(theta, 1.0)
    # Draws do carry less variance than wins (φ < 1), but a ladder of nothing but draws measures φ = 0, which
    # divides by zero below, and a handful of them would let each game count many times over: a floor.
    dispersion = max(_dispersion(theta, tables), MIN_DISPERSION)
    if previous:
        # Against a chain prior the data's weight matters to the estimate too (without one the prior is a
        # negligible N(0, 400²)): once more with the data's information scaled by the measured φ.
        theta = newton(theta, dispersion)
        dispersion = max(_dispersion(theta, tables), MIN_DISPERSION)
    _, info = information(theta, dispersion)
    # Var(θi − mean θ), the diagonal of P·C·P with C = (A + Q)⁻¹ the posterior covariance (A = info/φ, Q the
    # prior's precision) and P = I − 11ᵀ/n: the uncertainty about the whole ladder's level widens nobody's
    # interval. Inverting A + Q itself would lose the digits of a wide prior to that level's huge variance;
    # instead the level is integrated out: with u = Q·1, H = A + Q − u·uᵀ/(1ᵀu) is the precision of P·θ
    # (a Schur complement; H·1 = 0, as A·1 = 0), and with J = 11ᵀ/n, P·C·P = (H + J)⁻¹ − J, as well
    # conditioned as the data however wide the prior. (Q = λI gives H = A + λP.)
    u = prior.sum(axis=1)
    h = info + prior - np.outer(u, u) / u.sum() + 1.0 / n
    spread = np.linalg.inv(h) - 1.0 / n
    # relative to the average of `centred_on` (weights w): θ − 1wᵀθ = (I − 1wᵀ)·Pθ, so its variance is
    # (I − 1wᵀ)·(P·C·P)·(I − w1ᵀ), whose diagonal is below
    w = np.full(n, 1.0 / n)
    if centred_on is not None:
        anchors = [index[b] for b in set(centred_on) if b in index]
        if anchors:
            w = np.zeros(n)
            w[anchors] = 1.0 / len(anchors)
    sw = spread @ w
    var = np.maximum(np.diag(spread) - 2.0 * sw + w @ sw, 0.0)
    rating = centre + ELO_PER_NAT * (theta - w @ theta)
    half = Z95 * ELO_PER_NAT * np.sqrt(var)
    return Fit({b: float(rating[k]) for b, k in index.items()}, {b: float(half[k]) for b, k in index.items()},
               dispersion, len(results))


MIN_DISPERSION = 0.25  # a game never counts for more than four independent ones


def _dispersion(theta: np.ndarray, tables: list[tuple[np.ndarray, np.ndarray]]) -> float:
    """φ = Σ over seats of (score − expected)² / Σ expected variance, a seat's score being its pairwise wins
    at the table (see the module's docstring). 1 without games."""
    observed = expected = 0.0
    for idx, ranks in tables:
        t = theta[idx]                                             # games × seats
        p = 1.0 / (1.0 + np.exp(t[:, None, :] - t[:, :, None]))    # p[g, a, b] = P(a beats b)
        s = np.where(ranks[:, :, None] < ranks[:, None, :], 1.0,
                     np.where(ranks[:, :, None] == ranks[:, None, :], 0.5, 0.0))
        off = ~np.eye(idx.shape[1], dtype=bool)
        u = ((s - p) * off).sum(axis=2)                            # the diagonal is ½ − ½ anyway
        observed += float((u ** 2).sum())
        expected += float((p * (1.0 - p) * off).sum())
    return observed / expected if expected > 0 else 1.0
