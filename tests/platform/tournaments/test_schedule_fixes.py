"""What the schedule audit found, pinned: seats balanced across a table's repeats, full round-robin rounds where
they exist (Baranyai), and Swiss byes chosen inside the search for the fewest rematches. Exhaustive on small
fields; deterministic (no chance involved)."""

import itertools
import math
from collections import Counter, defaultdict

import pytest

from tournaments.schedule import GameResult, _byes_and_groups, bye_options, round_robin, swiss_round


def seat_counts(rounds):
    counts = defaultdict(Counter)
    for r in rounds:
        for t in r.tables:
            for s, e in enumerate(t.seats):
                counts[e][s] += 1
    return counts


# ------------------------------------------------------------------------------ seats across a table's repeats

def test_six_entrants_at_four_players_two_games_a_table_sit_five_times_in_every_seat():
    """Each entrant plays 10 tables × 2 games: 5 in each of the 4 seats exists, and is what it gets (the old
    schedule balanced one game per table, and the second game's rotation gave some 4/5/5/6)."""
    counts = seat_counts(round_robin(list(range(6)), 4, games_per_pairing=2))
    assert {e: [c[s] for s in range(4)] for e, c in counts.items()} == {e: [5, 5, 5, 5] for e in range(6)}


@pytest.mark.parametrize("k", [2, 3, 4])
@pytest.mark.parametrize("games", [1, 2, 3])
def test_every_small_round_robin_seats_everyone_within_one_of_even(k, games):
    for n in range(k, 10):
        counts = seat_counts(round_robin(list(range(n)), k, games_per_pairing=games))
        for e in range(n):
            seats = [counts[e][s] for s in range(k)]
            assert max(seats) - min(seats) <= 1, (n, e, seats)


# --------------------------------------------------------------------------------- full rounds where they exist

def test_twelve_entrants_at_three_players_play_55_full_rounds():
    rounds = round_robin(list(range(12)), 3)
    assert len(rounds) == 55
    assert all(not r.byes and len(r.tables) == 4 for r in rounds)


@pytest.mark.parametrize("k, n", [(3, 3), (3, 6), (3, 9), (3, 12), (3, 15), (4, 4), (4, 8), (4, 12)])
def test_when_k_divides_n_every_round_is_full_and_every_table_played_once(k, n):
    rounds = round_robin(list(range(n)), k, seed=5)
    assert len(rounds) == math.comb(n - 1, k - 1)  # the fewest possible: every round seats everyone
    tables = Counter()
    for r in rounds:
        assert not r.byes
        assert sorted(e for t in r.tables for e in t.seats) == list(range(n))
        tables.update(frozenset(t.seats) for t in r.tables)
    assert set(tables.values()) == {1}
    assert len(tables) == math.comb(n, k)


def test_full_rounds_keep_duplicate_sets_and_repeats():
    rounds = round_robin(list(range(6)), 3, games_per_pairing=2, duplicate=True, seed=1)
    assert len(rounds) == 10 and all(len(r.tables) == 2 * 2 * 3 for r in rounds)
    assert round_robin(list(range(6)), 3, seed=1) == round_robin(list(range(6)), 3, seed=1)


# --------------------------------------------------------------------------------------- Swiss byes in the search

def test_the_bye_goes_where_it_avoids_a_rematch():
    """a met b; the lowest-ranked, c, would be the usual bye, but then a meets b again. b is as entitled to the
    bye (no byes yet), and with b out a meets c: no rematch."""
    met = Counter({frozenset("ab"): 1})
    byes, groups = _byes_and_groups(list("abc"), 2, met, {}, 20000)
    assert byes == ["b"] and groups == [("a", "c")]


def test_swiss_round_avoids_the_rematch_a_fixed_bye_would_force():
    """Through the public function: a beat b, and nobody has had a bye yet, so any of the three may sit out;
    whoever does, a v b must not be played again while a v c or b v c is possible."""
    results = [GameResult(("a", "b"), (1, 2), (1.0, 0.0), None, 1)]
    r = swiss_round(list("abc"), 2, results, 2, byes_so_far={})
    (table,) = r.tables
    assert frozenset(table.seats) != frozenset("ab")


def _partitions(items, k):
    if not items:
        yield []
        return
    head, rest = items[0], items[1:]
    for partners in itertools.combinations(rest, k - 1):
        left = [e for e in rest if e not in partners]
        for more in _partitions(left, k):
            yield [(head, *partners), *more]


def _rematches(groups, met):
    return sum(met[frozenset(p)] > 0 for g in groups for p in itertools.combinations(g, 2))


@pytest.mark.parametrize("k, n", [(2, 3), (2, 5), (3, 4), (3, 5)])
def test_byes_and_groups_reach_the_fewest_rematches_over_every_entitled_bye(k, n):
    """Every history of who has met whom on n entrants (all 2^C(n,2) of them) and two bye histories: the
    rematches are the fewest any entitled bye choice and grouping allow, and among the bye choices that reach
    it, the most preferred one (the lowest standings) is taken."""
    order = list(range(n))
    pairs = list(itertools.combinations(order, 2))
    for byes_so_far in ({}, {n - 1: 1, 0: 1}):
        options = bye_options(order, k, byes_so_far)
        for mask in range(2 ** len(pairs)):
            met = Counter({frozenset(p): 1 for i, p in enumerate(pairs) if mask >> i & 1})
            best = {b: min(_rematches(g, met) for g in _partitions([e for e in order if e not in b], k))
                    for b in options}
            fewest = min(best.values())
            byes, groups = _byes_and_groups(order, k, met, byes_so_far, 20000)
            assert tuple(byes) in options
            assert _rematches(groups, met) == fewest, (mask, byes, groups)
            assert tuple(byes) == next(b for b in options if best[b] == fewest)
            assert sorted(e for g in groups for e in g) == sorted(e for e in order if e not in byes)


def test_bye_options_are_only_the_entitled():
    # 0 and 4 have had a bye: of 5 entrants at 2 players one sits out, one of 1, 2, 3, lowest standing first
    assert bye_options(list(range(5)), 2, {0: 1, 4: 1}) == [(3,), (2,), (1,)]
    # two must sit out at 3 players of 5: 4 has none (forced), then one of those with one bye
    assert bye_options(list(range(5)), 3, {0: 1, 1: 1, 2: 1, 3: 1}) == [(4, 3), (4, 2), (4, 1), (4, 0)]
    assert bye_options(list(range(6)), 3, {}) == [()]
