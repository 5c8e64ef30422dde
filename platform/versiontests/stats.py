"""The statistics of a version test: fishtest's generalized SPRT (GSPRT) on paired games, Elo ± 95% CI and LOS.

Plain Python, no Django, no SciPy. It follows `official-stockfish/fishtest` `server/fishtest/stats/LLRcalc.py`
(`results_to_pdf` → `MLE_expected` → `LLR`, i.e. `LLR_logistic`) and the bounds of `sprt.py`, on our own unit:

- A *pair* is one seed and seat layout played twice, once with version A and once with version B in the same
  seat against the same opponents (duplicate style: the deal's luck cancels out).
- Each side's game scores its share of the opponents it finished ahead of, ties counting half (1 / ½ / 0 in a
  2-player game; multiples of 1/(2(n−1)) with n players): `ladders.rating.share_beaten`, as tournaments do.
- The pair score is ``(score_B − score_A + 1) / 2`` in [0, 1]: ½ when B did as well as A, 1 when B won and A
  lost. It lives on a grid of ``4(n−1) + 1`` values (the five of fishtest's pentanomial for 2 players).
- The LLR is fishtest's general one: the log-likelihood ratio of the observed pair-score counts under the
  maximum-likelihood distributions whose mean is ``L(elo1)`` versus ``L(elo0)`` (logistic Elo,
  ``L(x) = 1/(1+10^(−x/400))``), zero counts regularised to 1e-3 as fishtest does (`results_to_pdf`, fishtest's
  `regularize`: an empty cell is not impossible, only unseen so far).
- Two Elo scales. fishtest's functions here (`llr_logistic`, `overshoot_of`, `sprt_estimate`) take and give
  *pair Elo*, the logistic Elo of the mean pair score, as fishtest does for its pentanomial. But a pair is A and
  B each against the same opponents, not against each other: against opponents of A's strength, B that is
  ``h`` Elo better head to head scores ``L(h)`` where A scores ½, so the pair mean is ``(L(h) + ½)/2`` and the
  pair Elo about h/2. What a user asks and reads is the head-to-head Elo, so `summarize` and
  `head_to_head_estimate` convert the bounds in (`pair_elo`) and the estimates out (`head_to_head_elo`).
  The conversion is exact for opponents as strong as A under the logistic (Bradley–Terry) model — the
  opponents are drawn near the bot's own rating — and understates |h| a little against far weaker or stronger
  opponents (there a game is less sensitive to strength).
- The test stops when the LLR leaves ``[ln(β/(1−α)), ln((1−β)/α)]`` (≈ ±2.94 for α = β = 0.05): above it B is
  better by elo1 (accepted), below it B is not better than elo0 (rejected). As in fishtest's
  `stat_util.update_SPRT`, each bound is pulled in by the expected overshoot (Siegmund, *Sequential Analysis*,
  Corollary 8.33: E[H²]/(2·E[H]) over the ladder heights H, the jumps by which the LLR path set a new maximum,
  resp. minimum). fishtest updates once per batch of pairs; we update after every pair, so the batch is one pair
  and the LLR path is replayed over the pairs in their order (`sequential`). With elo1 − elo0 = 30 one pair
  moves the LLR by up to ~0.4, so the correction is not negligible here.
- The Elo estimate of a test the SPRT stopped is biased (a lucky run stops early). For such a test fishtest shows
  `stat_util.SPRT_elo` (`sprt.sprt.analytics`): the median-unbiased Elo, the Elo at which the observed outcome is
  the median outcome of the sequential test, modelled as a Brownian motion between the bounds
  (`brownian.Brownian.outcome_cdf`), with the 2.5% / 97.5% quantiles as interval and P(outcome no better | Elo 0)
  as LOS. `sprt_estimate` ports it, with a bisection for SciPy's brentq and `math.erf` for the normal CDF.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass

ALPHA = 0.05
BETA = 0.05
# Bots differ by tens of Elo between versions, not the 1–2 of an engine patch, and a game costs seconds: the
# defaults ask "is B at least 30 Elo better than A?", head-to-head Elo (see the two scales above): elo1 = 30 is
# B winning ~54% of its games against A.
DEFAULT_ELO0 = 0.0
DEFAULT_ELO1 = 30.0
# How many pairs a test may take by default (the API's maximum). A +30 head-to-head change is ~15 pair Elo:
# where A's and B's results on a deal correlate 0.36 to 0.64, the SPRT takes a median 400–900 pairs and
# 1,100–2,000 one time in ten (bench/sprt_error_rates.py); 400, the old default, left most tests undecided.
DEFAULT_MAX_PAIRS = 2000
ELO_CLAMP = 1000.0  # fishtest's search window for estimates; past it an estimate is reported as ±1000

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


def pair_elo(head_to_head: float) -> float:
    """The pair Elo (fishtest's unit on our pair scores) of a version `head_to_head` Elo better than A, against
    opponents as strong as A: the logistic Elo of the mean pair score ``(L(h) + ½)/2``."""
    return elo_of((logistic(head_to_head) + 0.5) / 2.0)


def head_to_head_elo(pair: float) -> float:
    """The inverse of `pair_elo`; ±inf from a pair Elo of ±191 on (a mean pair score past ¾ or ¼: B would
    have to score more than everything, or less than nothing, against the opponents A draws with)."""
    if not math.isfinite(pair):
        return pair
    return elo_of(2.0 * logistic(pair) - 0.5)


def _clamp(elo: float) -> float:
    return max(-ELO_CLAMP, min(ELO_CLAMP, elo))


def bounds(alpha: float = ALPHA, beta: float = BETA) -> tuple[float, float]:
    """(lower, upper) LLR bounds of the SPRT."""
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


# ------------------------------------------------------------------------------------------- scores of games

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


# ------------------------------------------------------------------- fishtest's overshoot (update_SPRT)

@dataclass
class Overshoot:
    """fishtest's dynamic overshoot estimate (`update_SPRT`'s ``sprt["overshoot"]``, batch size one pair).

    ``ref0``/``ref1`` are the lowest/highest LLR seen so far (starting at 0, the LLR before any pair); each new
    record adds its jump to ``m`` and its square to ``sq``. The expected overshoot over the lower/upper bound is
    then ``sq/(2m)`` (Siegmund's ladder-height formula), with the sign fishtest gives it."""
    ref0: float = 0.0
    m0: float = 0.0
    sq0: float = 0.0
    ref1: float = 0.0
    m1: float = 0.0
    sq1: float = 0.0

    def update(self, llr: float) -> None:
        """Record the LLR after one more pair."""
        if llr < self.ref0:
            delta = llr - self.ref0
            self.m0 += delta
            self.sq0 += delta ** 2
            self.ref0 = llr
        if llr > self.ref1:
            delta = llr - self.ref1
            self.m1 += delta
            self.sq1 += delta ** 2
            self.ref1 = llr

    @property
    def lower(self) -> float:
        """o0 ≥ 0: how far the lower stopping bound is raised."""
        return -self.sq0 / self.m0 / 2.0 if self.m0 != 0 else 0.0

    @property
    def upper(self) -> float:
        """o1 ≥ 0: how far the upper stopping bound is lowered."""
        return self.sq1 / self.m1 / 2.0 if self.m1 != 0 else 0.0


def overshoot_of(pair_scores: Sequence[float], players: int, elo0: float, elo1: float) -> Overshoot:
    """Replay the LLR after each pair, in the order the pairs were played, through `Overshoot`."""
    o = Overshoot()
    counts = [0] * grid_size(players)
    size = len(counts)
    for s in pair_scores:
        counts[round(s * (size - 1))] += 1
        o.update(llr_logistic(elo0, elo1, counts))
    return o


# ------------------------------------------------------ fishtest's SPRT Elo estimate (sprt.py, brownian.py)

def phi(x: float) -> float:
    """Standard normal CDF."""
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def llr_drift_variance(pdf: Pdf, s0: float, s1: float, s: float | None = None) -> tuple[float, float]:
    """fishtest's `LLR_drift_variance_alt2`: drift and variance per pair of the LLR, approximated as a Brownian
    motion, if the true mean score is `s` (default: the observed one).

    The variance is the observed one whatever `s` is, as in current fishtest (PR #2581, "Fix for issue 2571"):
    the older code replaced it by its MLE given `s`, which made `outcome_prob` non-monotone in Elo, so the
    bisection of `sprt_estimate` fell through to ±1000 for tests that stopped with a large observed Elo."""
    s_, v = _stats(pdf)
    if s is None:
        s = s_
    return (s - (s0 + s1) / 2.0) * (s1 - s0) / v, (s1 - s0) ** 2 / v


def _ladder_u(n: int, gamma: float, width: float, y: float) -> float:
    """fishtest's `brownian.U`."""
    return (2 * width * gamma * math.sin(math.pi * n * y / width)
            - 2 * math.pi * n * math.cos(math.pi * n * y / width)) / (width ** 2 * gamma ** 2 + math.pi ** 2 * n ** 2)


def outcome_cdf(a: float, b: float, mu: float, sigma2: float, t: float, y: float) -> float:
    """fishtest's `Brownian(a, b, mu, sigma).outcome_cdf(T, y)`: the probability that a Brownian motion with
    drift `mu` and variance `sigma2` per unit time, started at 0 and stopped at `a` or `b`, passes to the right of
    (t, y), i.e. has a worse outcome than stopping at time t at level y."""
    gamma = mu / sigma2
    width = b - a
    if sigma2 * t / width ** 2 < 1e-2 or abs(gamma * width) > 15:
        # Siegmund's approximation, fishtest's fallback where the series converges slowly
        denom = math.sqrt(t * sigma2)
        offset = mu * t
        z = (y - offset) / denom
        za = (-y + offset + 2 * a) / denom
        zb = (y - offset - 2 * b) / denom
        if gamma * a >= 5:
            t2 = -math.exp(-(za ** 2) / 2 + 2 * gamma * a) / math.sqrt(2 * math.pi) * (1 / za - 1 / za ** 3)
        else:
            t2 = math.exp(2 * gamma * a) * phi(za)
        if gamma * b >= 5:
            t3 = -math.exp(-(zb ** 2) / 2 + 2 * gamma * b) / math.sqrt(2 * math.pi) * (1 / zb - 1 / zb ** 3)
        else:
            t3 = math.exp(2 * gamma * b) * phi(zb)
        return phi(z) + t2 - t3
    x = -a
    y = y - a
    lambda_1 = (math.pi / width) ** 2 * sigma2 / 2 + (mu ** 2 / sigma2) / 2
    t0 = math.exp(-lambda_1 * t - x * gamma + y * gamma)
    total, n = 0.0, 1
    while True:
        lambda_n = (n * math.pi / width) ** 2 * sigma2 / 2 + (mu ** 2 / sigma2) / 2
        t1 = math.exp(-(lambda_n - lambda_1) * t)
        t3 = _ladder_u(n, gamma, width, y)
        total += t1 * t3 * math.sin(n * math.pi * x / width)
        if abs(t0 * t1 * t3) <= 1e-9:
            break
        n += 1
    if gamma * width > 30:
        pre = math.exp(-2 * gamma * x)
    elif abs(gamma * width) < 1e-8:
        pre = (width - x) / width
    else:
        pre = (1 - math.exp(2 * gamma * (width - x))) / (1 - math.exp(2 * gamma * width))
    return pre + t0 * total


@dataclass(frozen=True)
class Estimate:
    """fishtest's `SPRT_elo` for a test the SPRT stopped: median-unbiased Elo, its interval, LOS."""
    elo: float
    elo_low: float
    elo_high: float
    los: float

    def to_dict(self) -> dict:
        return asdict(self)


def sprt_estimate(counts: Sequence[int], elo0: float = DEFAULT_ELO0, elo1: float = DEFAULT_ELO1,
                  alpha: float = ALPHA, beta: float = BETA, p: float = 0.05) -> Estimate | None:
    """fishtest's `sprt.sprt(alpha, beta, elo0, elo1)` → `set_state(counts)` → `analytics(p)`.

    The test is taken to have stopped at a bound: the (approximate, drift × pairs) LLR is clamped to the bound it
    passed and the stopping time scaled to match, as fishtest does. None without pairs or with elo0 = elo1."""
    if sum(counts) == 0 or elo0 == elo1:
        return None
    a, b = bounds(alpha, beta)
    s0, s1 = logistic(elo0), logistic(elo1)
    n, pdf = results_to_pdf(counts)
    mu_llr, _ = llr_drift_variance(pdf, s0, s1)
    llr, t = n * mu_llr, n
    if llr < a:
        t, llr = a / mu_llr, a
    elif llr > b:
        t, llr = b / mu_llr, b

    def outcome_prob(elo: float) -> float:
        mu, var = llr_drift_variance(pdf, s0, s1, logistic(elo))
        return outcome_cdf(a, b, mu, var, t, llr)

    def lower_cb(q: float) -> float:
        """The Elo at which the observed outcome has probability 1 − q of being beaten (fishtest's brentq from
        ±30 widths around the middle of [elo0, elo1], doubling up to ±1000; bisection here)."""
        avg, delta, k = (elo0 + elo1) / 2.0, abs(elo1 - elo0), 30

        def f(elo: float) -> float:
            return outcome_prob(elo) - (1.0 - q)

        while True:
            lo, hi = max(avg - k * delta, -1000.0), min(avg + k * delta, 1000.0)
            f_lo, f_hi = f(lo), f(hi)
            if (f_lo > 0) != (f_hi > 0):
                break
            if lo > -1000 or hi < 1000:
                k *= 2
                continue
            return hi if f_lo > 0 else lo
        for _ in range(200):
            mid = (lo + hi) / 2.0
            f_mid = f(mid)
            if (f_mid > 0) == (f_lo > 0):
                lo, f_lo = mid, f_mid
            else:
                hi = mid
            if hi - lo < 1e-10:
                break
        return (lo + hi) / 2.0

    return Estimate(lower_cb(0.5), lower_cb(p / 2), lower_cb(1 - p / 2), outcome_prob(0.0))


def head_to_head_estimate(counts: Sequence[int], elo0: float = DEFAULT_ELO0, elo1: float = DEFAULT_ELO1,
                          alpha: float = ALPHA, beta: float = BETA, p: float = 0.05) -> Estimate | None:
    """`sprt_estimate` of a test whose bounds are head-to-head Elo, on the head-to-head scale."""
    if elo0 == elo1:
        return None
    e = sprt_estimate(counts, pair_elo(elo0), pair_elo(elo1), alpha, beta, p)
    if e is None:
        return None
    # clamped as fishtest clamps its own search, so the estimate stays finite (and JSON)
    elo, low, high = (_clamp(head_to_head_elo(x)) for x in (e.elo, e.elo_low, e.elo_high))
    return Estimate(elo, low, high, e.los)


# --------------------------------------------------------------------------------------------- the summary

@dataclass(frozen=True)
class Summary:
    pairs: int
    llr: float
    lower: float
    upper: float
    decision: str          # "accepted" (B better by elo1), "rejected" (not better than elo0) or "" (go on)
    score: float           # mean pair score
    elo: float             # B over A, head-to-head Elo (±inf past a mean pair score of ¾ or ¼: null in JSON)
    elo_low: float         # 95% interval, head-to-head Elo
    elo_high: float
    los: float             # likelihood of superiority, P(B better than A)
    stop_lower: float = -math.inf  # the bounds the decision used: lower + o0, upper − o1 (overshoot-corrected)
    stop_upper: float = math.inf

    def to_dict(self) -> dict:
        return {k: (None if isinstance(v, float) and not math.isfinite(v) else v) for k, v in asdict(self).items()}


def summarize(counts: Sequence[int], elo0: float = DEFAULT_ELO0, elo1: float = DEFAULT_ELO1,
              alpha: float = ALPHA, beta: float = BETA, history: Sequence[float] | None = None) -> Summary:
    """Everything a test page shows, from the pair-score counts (grid as in `counts_of`). `elo0`/`elo1` and the
    Elo estimates are head-to-head Elo of B over A (see the two scales in the module's docstring); the LLR is
    fishtest's on the matching pair-Elo bounds.

    `history`, the same pairs' scores in the order they were played, turns on fishtest's overshoot correction
    of the stopping bounds (`overshoot_of`); without it the bounds are the plain ones."""
    lower, upper = bounds(alpha, beta)
    elo0, elo1 = pair_elo(elo0), pair_elo(elo1)
    o0 = o1 = 0.0
    if history is not None:
        o = overshoot_of(history, (len(counts) - 1) // 4 + 1, elo0, elo1)
        o0, o1 = o.lower, o.upper
    stop_lower, stop_upper = lower + o0, upper - o1
    pairs = int(sum(counts))
    llr = llr_logistic(elo0, elo1, counts)
    # strict, as update_SPRT: with the correction the LLR may stop inside the plain bounds
    decision = "accepted" if llr > stop_upper else "rejected" if llr < stop_lower else ""
    if pairs == 0:
        return Summary(0, 0.0, lower, upper, "", 0.5, 0.0, -math.inf, math.inf, 0.5, stop_lower, stop_upper)
    size = len(counts)
    values = [i / (size - 1) for i in range(size)]
    mean = sum(c * v for c, v in zip(counts, values)) / pairs
    var = sum(c * (v - mean) ** 2 for c, v in zip(counts, values)) / pairs
    se = math.sqrt(var / pairs)
    if se > 0:
        los = 0.5 * (1.0 + math.erf((mean - 0.5) / se / math.sqrt(2.0)))
    else:
        los = 1.0 if mean > 0.5 else 0.0 if mean < 0.5 else 0.5
    h2h = [head_to_head_elo(elo_of(m)) for m in (mean, mean - 1.96 * se, mean + 1.96 * se)]
    return Summary(pairs, llr, lower, upper, decision, mean, h2h[0], h2h[1], h2h[2], los, stop_lower, stop_upper)
