"""Standings on hand-made results: points, tie-breaks, and the mean score with its 95% interval."""

import math

import pytest

from ladders.rating import shares_beaten
from tournaments.schedule import GameResult, mean_ci, standings


def test_points_are_the_share_of_opponents_beaten_for_two_and_four_players():
    assert shares_beaten([1, 2]) == [1.0, 0.0]
    assert shares_beaten([1, 1]) == [0.5, 0.5]
    assert shares_beaten([2, 1, 4, 3]) == pytest.approx([2 / 3, 1.0, 0.0, 1 / 3])
    assert shares_beaten([1, 1, 3, 4]) == pytest.approx([5 / 6, 5 / 6, 1 / 3, 0.0])


def test_points_then_buchholz_decide_the_order():
    # a and b both win twice; a beat stronger opposition (c, who also won), b beat the weakest.
    g = [
        GameResult(("a", "c"), (1, 2), (3, 1)),
        GameResult(("a", "d"), (1, 2), (3, 1)),
        GameResult(("b", "d"), (1, 2), (3, 1)),
        GameResult(("b", "e"), (1, 2), (3, 1)),
        GameResult(("c", "e"), (1, 2), (3, 1)),
        GameResult(("c", "d"), (1, 2), (3, 1)),
    ]
    table = standings(["b", "a", "c", "d", "e"], g)
    by = {s.entrant: s for s in table}
    assert by["a"].points == by["b"].points == by["c"].points == 2
    assert by["a"].buchholz == 2 + 0 and by["b"].buchholz == 0 + 0
    assert by["a"].rank < by["b"].rank


def test_fully_equal_entrants_share_a_rank_listed_in_seeding_order():
    g = [GameResult(("x", "y"), (1, 1), (2, 2))]
    table = standings(["y", "x"], g)
    assert [(s.entrant, s.rank) for s in table] == [("y", 1), ("x", 1)]


def test_game_score_breaks_ties_left_by_points_and_opposition():
    g = [GameResult(("a", "b", "c"), (1, 2, 3), (30, 20, 10)), GameResult(("b", "a", "c"), (1, 2, 3), (25, 24, 0))]
    table = standings(["b", "a", "c"], g)
    assert [s.entrant for s in table] == ["a", "b", "c"]  # equal points and Buchholz, a has 54 vs 45


def test_byes_add_points_but_not_samples():
    g = [GameResult(("a", "b"), (1, 2), (1, 0))]
    table = standings(["a", "b", "c"], g, {"c": 0.5}, bye_counts={"c": 1})
    c = next(s for s in table if s.entrant == "c")
    assert c.points == 0.5 and c.units == 0 and c.mean is None and c.byes == 1


def test_mean_and_confidence_interval():
    mean, half = mean_ci([1.0, 0.0, 1.0, 1.0])
    assert mean == 0.75
    sd = math.sqrt(((0.25 ** 2) * 3 + 0.75 ** 2) / 3)
    assert half == pytest.approx(1.96 * sd / 2)
    assert mean_ci([1.0]) == (1.0, None)
    assert mean_ci([]) == (None, None)
    g = [GameResult(("a", "b"), (1, 2), (1, 0)), GameResult(("b", "a"), (2, 1), (0, 1)),
         GameResult(("a", "b"), (2, 1), (0, 1))]
    a = next(s for s in standings(["a", "b"], g) if s.entrant == "a")
    assert a.mean == pytest.approx(2 / 3) and a.ci95 == pytest.approx(1.96 * math.sqrt(1 / 3) / math.sqrt(3))
