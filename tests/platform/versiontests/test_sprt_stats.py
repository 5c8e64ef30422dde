"""The SPRT statistics of version tests (`versiontests.stats`, plain Python): fishtest's GSPRT on pair scores,
the bounds, the game and pair scores, Elo ± CI and LOS, and how the test decides on synthetic sequences."""

from __future__ import annotations

import math
import random

import pytest

from ladders.rating import share_beaten
from versiontests import stats


def test_bounds_for_alpha_beta_five_percent():
    lo, hi = stats.bounds(0.05, 0.05)
    assert lo == pytest.approx(-2.944439, abs=1e-6)
    assert hi == pytest.approx(2.944439, abs=1e-6)


def test_logistic_and_its_inverse():
    assert stats.logistic(0) == 0.5
    assert stats.logistic(400) == pytest.approx(10 / 11)
    for elo in (-300, -30, 0, 5, 120):
        assert stats.elo_of(stats.logistic(elo)) == pytest.approx(elo)
    assert stats.elo_of(1.0) == math.inf and stats.elo_of(0.0) == -math.inf


def test_two_valued_sample_llr_is_the_bernoulli_one():
    """On a support of two values the mean fixes the distribution, so the GLLR is the plain Bernoulli LLR:
    n·[p·ln(s1/s0) + (1−p)·ln((1−s1)/(1−s0))]."""
    p, s0, s1 = 0.6, 0.5, 0.55
    expected = p * math.log(s1 / s0) + (1 - p) * math.log((1 - s1) / (1 - s0))
    assert stats.llr_per_sample([(0.0, 1 - p), (1.0, p)], s0, s1) == pytest.approx(expected, rel=1e-9)


def test_mle_keeps_the_support_and_reaches_the_requested_mean():
    pdf = [(0.0, 0.1), (0.25, 0.2), (0.5, 0.4), (0.75, 0.2), (1.0, 0.1)]
    for s in (0.4, 0.5, 0.62):
        mle = stats.mle_expected(pdf, s)
        assert sum(p for _, p in mle) == pytest.approx(1.0, abs=1e-9)
        assert sum(a * p for a, p in mle) == pytest.approx(s, abs=1e-9)
    # the observed distribution is its own MLE at its own mean
    assert [p for _, p in stats.mle_expected(pdf, 0.5)] == pytest.approx([p for _, p in pdf], abs=1e-9)


def test_pentanomial_llr_matches_fishtest_normal_approximation():
    """fishtest's LLR_alt2, (s1−s0)(2s−s0−s1)/(2·var) per pair, is close to the exact GLLR for small Elo."""
    counts = [10, 40, 100, 45, 15]
    n, pdf = stats.results_to_pdf(counts)
    mean = sum(a * p for a, p in pdf)
    var = sum(p * (a - mean) ** 2 for a, p in pdf)
    s0, s1 = stats.logistic(0), stats.logistic(30)
    approx = n * (s1 - s0) * (2 * mean - s0 - s1) / var / 2
    exact = stats.llr_logistic(0, 30, counts)
    assert exact == pytest.approx(approx, rel=0.03)
    assert exact < 0  # observed ≈ +12 Elo: nearer to H0 (0) than to H1 (30)


def test_llr_sign_follows_the_evidence():
    assert stats.llr_logistic(0, 30, [0, 0, 0, 0, 0]) == 0.0
    assert stats.llr_logistic(0, 30, [1, 5, 10, 20, 10]) > 0
    assert stats.llr_logistic(0, 30, [10, 20, 10, 5, 1]) < 0
    assert stats.llr_logistic(10, 10, [3, 5, 10, 5, 3]) == pytest.approx(0.0, abs=1e-12)


def test_game_scores_from_finishing_positions():
    # the one home of the rule (ladders.rating), shared with tournaments and the Elo
    assert share_beaten(1, [2]) == 1.0
    assert share_beaten(2, [1]) == 0.0
    assert share_beaten(1, [1]) == 0.5
    # 4 players: beat two, tied one
    assert share_beaten(2, [3, 4, 2]) == pytest.approx(2.5 / 3)
    assert share_beaten(4, [1, 2, 3]) == 0.0


def test_pair_scores_and_their_grid():
    assert stats.pair_score(0.0, 1.0) == 1.0       # A lost, B won the same deal
    assert stats.pair_score(0.5, 0.5) == 0.5
    assert stats.pair_score(1.0, 0.5) == 0.25
    assert stats.grid_size(2) == 5 and stats.grid_size(4) == 13
    assert stats.counts_of([0.0, 0.25, 0.5, 0.5, 1.0], 2) == [1, 1, 2, 0, 1]
    four = [stats.pair_score(share_beaten(2, [1, 3, 3]), share_beaten(1, [2, 3, 4]))]
    assert sum(stats.counts_of(four, 4)) == 1
    with pytest.raises(ValueError):
        stats.counts_of([1.5], 2)


def test_summary_elo_interval_and_los():
    counts = [2, 8, 20, 12, 8]
    s = stats.summarize(counts, 0, 30)
    values = [0, 0.25, 0.5, 0.75, 1]
    mean = sum(c * v for c, v in zip(counts, values)) / 50
    assert s.pairs == 50 and s.score == pytest.approx(mean)
    assert s.elo == pytest.approx(stats.head_to_head_elo(stats.elo_of(mean)))  # the head-to-head scale
    assert s.elo_low < s.elo < s.elo_high
    var = sum(c * (v - mean) ** 2 for c, v in zip(counts, values)) / 50
    se = math.sqrt(var / 50)
    assert s.elo_high == pytest.approx(stats.head_to_head_elo(stats.elo_of(mean + 1.96 * se)))
    assert s.los == pytest.approx(0.5 * (1 + math.erf((mean - 0.5) / se / math.sqrt(2))))
    assert 0.9 < s.los < 1.0
    assert stats.summarize([0] * 5).to_dict()["elo_low"] is None  # JSON-safe: no infinities


def _run(p_a: float, p_b: float, rng: random.Random, elo0: float, elo1: float, max_pairs: int,
         coupling: float = 0.6) -> tuple[str, int]:
    """Play synthetic pairs until the SPRT decides. Each game is a win or a loss; the two games of a pair share
    the deal's luck with probability `coupling` (duplicate style)."""
    counts = [0] * 5
    for n in range(1, max_pairs + 1):
        u = rng.random()
        ua = u if rng.random() < coupling else rng.random()
        ub = u if rng.random() < coupling else rng.random()
        score = stats.pair_score(float(ua < p_a), float(ub < p_b))
        counts[round(score * 4)] += 1
        if n % 5 == 0:
            s = stats.summarize(counts, elo0, elo1)
            if s.decision:
                return s.decision, n
    return "", max_pairs


def test_a_clearly_better_version_is_accepted_and_a_worse_one_rejected():
    rng = random.Random(7)
    for _ in range(5):
        decision, n = _run(0.35, 0.65, rng, 0, 30, 2000)
        assert decision == "accepted", n
        decision, n = _run(0.65, 0.35, rng, 0, 30, 2000)
        assert decision == "rejected", n


def test_equal_versions_are_rarely_accepted():
    """Under H0 (no difference) the chance of accepting is at most about α = 5%."""
    rng = random.Random(11)
    outcomes = [_run(0.5, 0.5, rng, 0, 60, 600)[0] for _ in range(40)]
    assert outcomes.count("accepted") <= 5, outcomes
    assert outcomes.count("rejected") >= 30, outcomes


# ------------------------------------------------------------------------ fishtest's overshoot correction

# A path of 66 pairs (pair score ×4 per character, in play order) found by a throwaway run of fishtest's own
# code path: `stat_util.update_SPRT` called once per pair (batch_size 1, pentanomial, logistic, elo0 0, elo1 30)
# with LLRcalc.LLR_logistic on SciPy's brentq. It first leaves [lower + o0, upper − o1] at pair 66, upwards,
# with the LLR still inside the plain bounds; fishtest gave llr 2.9433159882122, o0 0.0426440964343638,
# o1 0.0544023600042227, state "accepted".
_PATH = "243124344140323223333341241330411402023433343121013224342333423434"
_SCORES = [int(c) / 4 for c in _PATH]


# summarize takes head-to-head Elo: these are the bounds whose pair-Elo bounds are fishtest's [0, 30]
H30 = stats.head_to_head_elo(30.0)


def test_overshoot_matches_fishtest_update_sprt_per_pair():
    o = stats.overshoot_of(_SCORES, 2, 0, 30)
    assert o.lower == pytest.approx(0.0426440964343638, rel=1e-7)
    assert o.upper == pytest.approx(0.0544023600042227, rel=1e-7)
    s = stats.summarize(stats.counts_of(_SCORES, 2), 0, H30, history=_SCORES)
    assert s.llr == pytest.approx(2.9433159882122, rel=1e-9)
    assert s.stop_upper == pytest.approx(s.upper - o.upper) and s.stop_lower == pytest.approx(s.lower + o.lower)
    assert s.llr < s.upper and s.decision == "accepted"


def test_the_correction_stops_a_test_the_plain_bounds_would_let_run():
    counts = stats.counts_of(_SCORES, 2)
    assert stats.summarize(counts, 0, H30).decision == ""
    # and it does not stop earlier than fishtest did
    for k in range(1, len(_SCORES)):
        assert stats.summarize(stats.counts_of(_SCORES[:k], 2), 0, H30, history=_SCORES[:k]).decision == "", k


def test_overshoot_is_the_ladder_height_formula():
    """Records of the LLR path: new maxima 0→1→1.5 give jumps 1 and 0.5, o1 = (1² + 0.5²)/(2·1.5); one new
    minimum, −0.2, gives o0 = 0.2²/(2·0.2) = 0.1; values between the records change nothing."""
    o = stats.Overshoot()
    for llr in (1.0, 0.5, 1.5, 1.2, -0.2, 0.0):
        o.update(llr)
    assert o.upper == pytest.approx(1.25 / 3)
    assert o.lower == pytest.approx(0.1)
    assert stats.Overshoot().lower == stats.Overshoot().upper == 0.0


# ----------------------------------------------------------------- fishtest's estimate for a stopped SPRT

# Expected values: current fishtest (after PR #2581, "Fix for issue 2571": LLR_drift_variance_alt2 keeps the
# observed variance) `sprt.sprt(alpha=.05, beta=.05, elo0, elo1)`, `set_state(counts)`, `analytics(0.05)`
# (brownian.Brownian, SciPy's brentq and norm.cdf), run by a throwaway script on the same counts: (elo, ci low,
# ci high, LOS). The first is the pentanomial of fishtest's own `stat_util.py` self-test; [0, 3, 15, 15, 3] is
# the audit's case, where fishtest before the fix (and Arena) gave 1000 [35, 1000].
@pytest.mark.parametrize("counts, elo0, elo1, expected", [
    ([10789, 19328, 33806, 19402, 10543], -3, 1,
     (-0.9925365594552716, -3.488492131294004, 1.4885858954857965, 0.18803479310880994)),
    ([3, 10, 25, 30, 12], 0, 30, (78.81701455957729, 24.985559955241072, 136.16469493724355, 0.9980038642609637)),
    ([12, 30, 25, 10, 3], 0, 30,
     (-78.81039328242552, -148.19386560476457, -14.827244935571116, 0.0077375274378086445)),
    ([0, 1, 3, 6, 12, 9, 6, 3, 1], 0, 30,  # a 3-player grid: fishtest's code is length-agnostic
     (40.22668599189081, -0.39449010540189366, 81.89266308692272, 0.9738640866461254)),
    ([0, 3, 15, 15, 3], 0, 30, (83.38485659547081, 27.750630124765237, 143.10639008495554, 0.9984166625320554)),
    ([3, 10, 25, 30, 12], 0, 14.972092815035271,  # = pair_elo(30): the bounds of a default test
     (82.32745484195587, 42.15780128346005, 124.67468242139851, 0.9999759421902066)),
])
def test_sprt_estimate_matches_fishtest_analytics(counts, elo0, elo1, expected):
    e = stats.sprt_estimate(counts, elo0, elo1)
    assert (e.elo, e.elo_low, e.elo_high, e.los) == pytest.approx(expected, abs=1e-6)


def test_the_stopped_test_estimate_shrinks_a_lucky_early_stop():
    """Accepted after few pairs at a high observed Elo: the median-unbiased Elo is below the plain one and the
    interval still excludes elo0 = 0."""
    counts = [3, 10, 25, 30, 12]
    plain, corrected = stats.summarize(counts, 0, H30), stats.head_to_head_estimate(counts, 0, H30)
    assert plain.decision == "accepted"
    assert corrected.elo < plain.elo
    assert 0 < corrected.elo_low < corrected.elo < corrected.elo_high


def test_normal_cdf_and_the_brownian_outcome():
    assert stats.phi(0) == 0.5 and stats.phi(1.959963984540054) == pytest.approx(0.975, abs=1e-12)
    # no drift, symmetric bounds, passed at the upper bound after (practically) forever: the only worse outcome
    # is failing, which is as likely as passing
    assert stats.outcome_cdf(-2.0, 2.0, 0.0, 0.01, 1e5, 2.0) == pytest.approx(0.5, abs=1e-9)
    # fishtest's Brownian(a, b, mu, sigma).outcome_cdf(T, y), by the throwaway script: the series (alt1) and
    # Siegmund's approximation (alt2, T·σ²/(b−a)² < 1e-2)
    assert stats.outcome_cdf(-2.0, 2.0, 0.0, 0.01, 50.0, 2.0) == pytest.approx(0.9953222650187177, abs=1e-9)
    assert stats.outcome_cdf(-2.0, 2.0, 0.01, 0.01, 30.0, -2.0) == pytest.approx(3.0891140968405256e-05, rel=1e-6)
    assert stats.outcome_cdf(-2.9, 2.9, 0.2, 0.09, 2.0, 2.9) == pytest.approx(0.9999999966433476, abs=1e-12)
    assert stats.sprt_estimate([0] * 5) is None and stats.sprt_estimate([1, 2, 3, 2, 1], 10, 10) is None


def test_the_audits_case_gets_a_finite_estimate():
    """Before fishtest's PR #2581 the estimate ran off to the ±1000 clamp for this accepted test."""
    e = stats.sprt_estimate([0, 3, 15, 15, 3], 0, 30)
    assert (round(e.elo, 1), round(e.elo_low, 1), round(e.elo_high, 1)) == (83.4, 27.8, 143.1)


# ------------------------------------------------------------------------------- the head-to-head scale

def test_pair_elo_is_about_half_the_head_to_head_elo_and_round_trips():
    """A pair is A and B each against the same opponents: B that is h better head to head moves the pair
    score about as much as h/2 would head to head. The conversion is exact against opponents of A's
    strength: B scores L(h) where A scores ½."""
    for h in (-300.0, -30.0, 0.0, 5.0, 30.0, 120.0, 400.0):
        assert stats.head_to_head_elo(stats.pair_elo(h)) == pytest.approx(h, abs=1e-9)
        mean = (stats.logistic(h) - 0.5 + 1.0) / 2.0   # pair_score(½, L(h))
        assert stats.pair_elo(h) == pytest.approx(stats.elo_of(mean), abs=1e-9)
    assert stats.pair_elo(30) == pytest.approx(14.97, abs=0.01)
    assert stats.head_to_head_elo(math.inf) == math.inf and stats.head_to_head_elo(-250.0) == -math.inf


def test_a_summary_speaks_head_to_head_elo():
    """B beating the common opponents 54.3% of the time where A scores ½ is +30 head to head: the summary
    reads 30, where the pair Elo would read 15."""
    n = 100_000
    sb = stats.logistic(30.0)
    # pentanomial of one game each: A's result ½ on average (1 or 0 with equal odds), B's result 1 with prob sb
    p = {0.0: 0.5 * (1 - sb), 0.5: 0.5 * sb + 0.5 * (1 - sb), 1.0: 0.5 * sb}
    counts = [round(n * p[0.0]), 0, round(n * p[0.5]), 0, round(n * p[1.0])]
    s = stats.summarize(counts, 0, 30)
    assert s.elo == pytest.approx(30.0, abs=0.5)
    assert s.elo_low < 30.0 < s.elo_high
    assert s.decision == "accepted"
