"""The SPRT statistics of version tests (`versiontests.stats`, plain Python): fishtest's GSPRT on pair scores,
the bounds, the game and pair scores, Elo ± CI and LOS, and how the test decides on synthetic sequences."""

from __future__ import annotations

import math
import random

import pytest

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
    assert stats.game_score(1, [2]) == 1.0
    assert stats.game_score(2, [1]) == 0.0
    assert stats.game_score(1, [1]) == 0.5
    # 4 players: beat two, tied one
    assert stats.game_score(2, [3, 4, 2]) == pytest.approx(2.5 / 3)
    assert stats.game_score(4, [1, 2, 3]) == 0.0


def test_pair_scores_and_their_grid():
    assert stats.pair_score(0.0, 1.0) == 1.0       # A lost, B won the same deal
    assert stats.pair_score(0.5, 0.5) == 0.5
    assert stats.pair_score(1.0, 0.5) == 0.25
    assert stats.grid_size(2) == 5 and stats.grid_size(4) == 13
    assert stats.counts_of([0.0, 0.25, 0.5, 0.5, 1.0], 2) == [1, 1, 2, 0, 1]
    four = [stats.pair_score(stats.game_score(2, [1, 3, 3]), stats.game_score(1, [2, 3, 4]))]
    assert sum(stats.counts_of(four, 4)) == 1
    with pytest.raises(ValueError):
        stats.counts_of([1.5], 2)


def test_summary_elo_interval_and_los():
    counts = [2, 8, 20, 12, 8]
    s = stats.summarize(counts, 0, 30)
    values = [0, 0.25, 0.5, 0.75, 1]
    mean = sum(c * v for c, v in zip(counts, values)) / 50
    assert s.pairs == 50 and s.score == pytest.approx(mean)
    assert s.elo == pytest.approx(stats.elo_of(mean))
    assert s.elo_low < s.elo < s.elo_high
    var = sum(c * (v - mean) ** 2 for c, v in zip(counts, values)) / 50
    se = math.sqrt(var / 50)
    assert s.elo_high == pytest.approx(stats.elo_of(mean + 1.96 * se))
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
