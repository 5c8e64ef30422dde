"""The rating math: Elo from finishing orders (known values, conservation, damping) and OpenSkill μ/σ."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ladders.rating import Skill, elo_changes, expected_score, initial_skill, openskill_update


def test_equal_ratings_two_players_move_by_half_k():
    assert elo_changes([1500, 1500], [1, 2], k=32) == [16.0, -16.0]


def test_known_upset_value():
    # 1400 beats 1600: E = 1 / (1 + 10^(200/400)) = 0.2403, so the winner gains 32 * 0.7597 = 24.31.
    winner_gain = elo_changes([1600, 1400], [2, 1], k=32)[1]
    assert winner_gain == pytest.approx(24.3119, abs=1e-4)
    assert expected_score(1400, 1600) == pytest.approx(0.240253, abs=1e-6)


def test_draw_between_equals_changes_nothing():
    assert elo_changes([1500, 1500], [1, 1]) == [0.0, 0.0]


def test_draw_moves_the_stronger_down():
    stronger, weaker = elo_changes([1700, 1500], [1, 1])
    assert stronger < 0 < weaker


@given(st.floats(800, 2400), st.floats(800, 2400), st.sampled_from([(1, 2), (2, 1), (1, 1)]))
def test_two_player_conservation(a, b, ranks):
    gain_a, gain_b = elo_changes([a, b], list(ranks))
    assert gain_a == pytest.approx(-gain_b, abs=1e-9)


@given(st.lists(st.floats(1000, 2000), min_size=2, max_size=4),
       st.lists(st.integers(1, 4), min_size=4, max_size=4))
def test_multiplayer_changes_sum_to_zero(ratings, ranks):
    assert sum(elo_changes(ratings, ranks[:len(ratings)])) == pytest.approx(0.0, abs=1e-9)


def test_four_player_known_values_damped_by_opponents():
    # Each of the 3 pairings is worth K/3: the winner of 4 equals gains 3 * (32/3) * 0.5 = 16, like a 2p win.
    assert elo_changes([1500] * 4, [1, 2, 3, 4], k=32) == pytest.approx([16.0, 16 / 3, -16 / 3, -16.0])


def test_shared_rank_is_a_draw_between_those_seats():
    changes = elo_changes([1500] * 3, [1, 1, 3], k=32)
    assert changes[0] == changes[1] == pytest.approx(8.0)
    assert changes[2] == pytest.approx(-16.0)


def test_openskill_winner_up_loser_down_both_more_certain():
    start = initial_skill()
    winner, loser = openskill_update([start, start], [1, 2])
    assert winner.mu > start.mu > loser.mu
    assert winner.sigma < start.sigma and loser.sigma < start.sigma


def test_openskill_uncertainty_shrinks_with_games():
    a, b = initial_skill(), Skill(25.0, 25 / 3)
    for _ in range(30):
        a, b = openskill_update([a, b], [1, 2])
    assert a.sigma < 0.75 * (25 / 3) and a.mu > b.mu
