"""Swiss: rounds paired by current score, no rematch while one can be avoided, byes to the lowest."""

import itertools
from collections import Counter

import pytest

from tournaments.schedule import GameResult, swiss_round


def _play(rnd, strength):
    """Results where the stronger entrant (by `strength`) always finishes ahead."""
    out = []
    for t in rnd.tables:
        order = sorted(t.seats, key=lambda e: -strength[e])
        ranks = tuple(order.index(e) + 1 for e in t.seats)
        out.append(GameResult(t.seats, ranks, tuple(float(strength[e]) for e in t.seats), t.set_key, rnd.number))
    return out


@pytest.mark.parametrize("k,n,rounds", [(2, 8, 7), (2, 6, 5), (3, 9, 4), (2, 7, 4), (4, 16, 3)])
def test_no_rematches_while_avoidable(k, n, rounds):
    entrants = list(range(n))
    strength = {e: (e * 7) % n for e in entrants}
    results, byes = [], Counter()
    met = Counter()
    for number in range(1, rounds + 1):
        rnd = swiss_round(entrants, k, results, number, byes_so_far=byes, seed=2)
        playing = [e for t in rnd.tables for e in t.seats]
        assert sorted(playing + list(rnd.byes)) == entrants
        assert len(rnd.byes) == n % k
        for t in rnd.tables:
            for a, b in itertools.combinations(t.seats, 2):
                met[frozenset((a, b))] += 1
        byes.update(rnd.byes)
        results += _play(rnd, strength)
    assert max(met.values()) == 1, "a pair met twice although the rounds allowed avoiding it"
    assert max(byes.values(), default=0) <= 1, "an entrant got a second bye before others had one"


def test_round_two_pairs_leaders_together():
    entrants = ["a", "b", "c", "d", "e", "f", "g", "h"]
    r1 = swiss_round(entrants, 2, [], 1)
    strength = {e: 10 - i for i, e in enumerate(entrants)}
    res = _play(r1, strength)
    winners = {t.seats[0] if strength[t.seats[0]] > strength[t.seats[1]] else t.seats[1] for t in r1.tables}
    r2 = swiss_round(entrants, 2, res, 2)
    for t in r2.tables:
        # winners meet winners, losers meet losers
        assert (t.seats[0] in winners) == (t.seats[1] in winners)


def test_rematch_only_when_unavoidable():
    # 4 entrants, 2 players: after 3 rounds everyone has met everyone; round 4 must rematch but still pairs all.
    entrants = list(range(4))
    strength = {0: 4, 1: 3, 2: 2, 3: 1}
    results = []
    for number in range(1, 4):
        results += _play(swiss_round(entrants, 2, results, number), strength)
    pairs = {frozenset(r.seats) for r in results}
    assert len(pairs) == 6
    r4 = swiss_round(entrants, 2, results, 4)
    assert sorted(e for t in r4.tables for e in t.seats) == entrants


def test_seats_alternate_for_two_players():
    entrants = list(range(6))
    strength = {e: e for e in entrants}
    results = []
    for number in range(1, 6):
        results += _play(swiss_round(entrants, 2, results, number), strength)
    first = Counter(r.seats[0] for r in results)
    assert all(2 <= first[e] <= 3 for e in entrants), first
