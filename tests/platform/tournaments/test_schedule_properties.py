"""Schedule invariants over many field sizes (hypothesis): nobody plays twice in a round, everybody plays or
sits out, pairs meet equally often in a round robin, and duplicate sets cover every seat rotation."""

from __future__ import annotations

import itertools
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.schedule import GameResult, round_robin, swiss_round


@settings(max_examples=40, deadline=None)
@given(k=st.integers(2, 4), extra=st.integers(0, 6), games=st.integers(1, 2), duplicate=st.booleans(),
       seed=st.integers(0, 2 ** 31))
def test_round_robin_invariants(k, extra, games, duplicate, seed):
    entrants = list(range(k + extra))
    rounds = round_robin(entrants, k, games_per_pairing=games, duplicate=duplicate, seed=seed)
    pairs = Counter()
    for r in rounds:
        per_table = Counter()
        for t in r.tables:
            per_table[t.set_key or t.seed] += 1
            assert sorted(t.seats) == sorted(set(t.seats))
        groups = {frozenset(t.seats) for t in r.tables}
        playing = [e for g in groups for e in g]
        assert len(playing) == len(set(playing))
        assert sorted(playing + list(r.byes)) == entrants
        for t in r.tables:
            for a, b in itertools.combinations(t.seats, 2):
                pairs[frozenset((a, b))] += 1
        if duplicate:
            assert set(per_table.values()) == {k}
    assert len(pairs) == len(entrants) * (len(entrants) - 1) // 2
    assert len(set(pairs.values())) == 1


@settings(max_examples=30, deadline=None)
@given(k=st.integers(2, 4), n=st.integers(4, 12), rounds=st.integers(1, 4), seed=st.integers(0, 1000))
def test_swiss_rounds_seat_everyone_once_and_spread_byes(k, n, rounds, seed):
    entrants = list(range(n))
    results, byes = [], Counter()
    for number in range(1, rounds + 1):
        r = swiss_round(entrants, k, results, number, byes_so_far=byes, seed=seed)
        playing = [e for t in r.tables for e in t.seats]
        assert sorted(playing + list(r.byes)) == entrants
        assert len(r.byes) == n % k
        byes.update(r.byes)
        assert max(byes.values(), default=0) - min((byes[e] for e in entrants), default=0) <= 1
        for t in r.tables:
            order = sorted(t.seats, key=lambda e: (e * 7 + seed) % 11)
            results.append(GameResult(t.seats, tuple(order.index(e) + 1 for e in t.seats),
                                      tuple(float(e) for e in t.seats), None, number))
