"""Round robin: every pair meets equally often, nobody plays twice in a round, seats are balanced."""

import itertools
from collections import Counter, defaultdict

import pytest

from tournaments.schedule import round_robin


def _tally(rounds, k):
    pairs, seats = Counter(), defaultdict(Counter)
    for r in rounds:
        playing = [e for t in r.tables for e in t.seats]
        assert len(playing) == len(set(playing)), f"someone plays twice in round {r.number}"
        for t in r.tables:
            assert len(t.seats) == k
            for a, b in itertools.combinations(t.seats, 2):
                pairs[frozenset((a, b))] += 1
            for s, e in enumerate(t.seats):
                seats[e][s] += 1
    return pairs, seats


@pytest.mark.parametrize("k,n", [(2, 2), (2, 5), (2, 8), (3, 3), (3, 5), (3, 7), (3, 10), (4, 4), (4, 6), (4, 9)])
def test_every_pair_meets_equally_and_seats_are_balanced(k, n):
    entrants = [f"bot{i}" for i in range(n)]
    rounds = round_robin(entrants, k, seed=7)
    pairs, seats = _tally(rounds, k)
    assert set(pairs) == {frozenset(p) for p in itertools.combinations(entrants, 2)}
    assert len(set(pairs.values())) == 1, "some pair meets more often than another"
    for e in entrants:
        counts = [seats[e][s] for s in range(k)]
        assert max(counts) - min(counts) <= 1, f"{e} sits unevenly: {counts}"
    # everyone plays the same number of games
    assert len({sum(seats[e].values()) for e in entrants}) == 1


def test_two_player_circle_has_n_minus_one_rounds_and_a_sit_out_for_odd_fields():
    assert len(round_robin(list(range(6)), 2)) == 5
    odd = round_robin(list(range(5)), 2)
    assert len(odd) == 5
    assert sorted(b for r in odd for b in r.byes) == [0, 1, 2, 3, 4]


def test_games_per_pairing_repeats_with_seats_swapped_and_new_seeds():
    rounds = round_robin(["a", "b"], 2, games_per_pairing=2, seed=3)
    (r,) = rounds
    first, second = r.tables
    assert first.seats == tuple(reversed(second.seats))
    assert first.seed != second.seed


def test_schedule_is_deterministic_for_a_seed():
    a = round_robin(list(range(7)), 3, seed=11)
    b = round_robin(list(range(7)), 3, seed=11)
    assert a == b


def test_too_few_entrants_is_refused():
    with pytest.raises(ValueError, match="cannot fill"):
        round_robin(["a", "b"], 3)
