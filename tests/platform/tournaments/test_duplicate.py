"""Duplicate sets: a table's seed replayed with every rotation of its seats, and the set scored as one unit."""

from collections import Counter

from tournaments.schedule import GameResult, round_robin, standings, units


def test_each_table_is_played_in_every_rotation_with_one_seed():
    rounds = round_robin(["a", "b", "c", "d"], 4, duplicate=True, seed=5)
    (r,) = rounds
    assert len(r.tables) == 4
    assert len({t.seed for t in r.tables}) == 1
    assert len({t.set_key for t in r.tables}) == 1
    # every entrant sits in every seat exactly once across the set
    for seat in range(4):
        assert sorted(t.seats[seat] for t in r.tables) == ["a", "b", "c", "d"]
    # and the rotations are cyclic shifts of one order
    first = r.tables[0].seats
    assert {t.seats for t in r.tables} == {first[i:] + first[:i] for i in range(4)}


def test_sets_of_different_pairings_use_different_seeds():
    rounds = round_robin(["a", "b", "c"], 2, duplicate=True, games_per_pairing=2, seed=1)
    seeds = Counter(t.seed for r in rounds for t in r.tables)
    assert set(seeds.values()) == {2}  # each seed: one game per seat rotation of a 2-player set
    assert len(seeds) == 6  # 3 pairings x 2 sets


def test_a_set_is_scored_by_total_score_over_its_rotations():
    # Seat 0 is lucky on this seed: whoever sits there wins. Over the set, b scores more in total.
    games = [
        GameResult(("a", "b"), (1, 2), (10.0, 8.0), set_key="s1"),
        GameResult(("b", "a"), (1, 2), (15.0, 5.0), set_key="s1"),
    ]
    (unit,) = units(games)
    members, points, totals = unit
    assert dict(zip(members, points)) == {"a": 0.0, "b": 1.0}
    assert dict(zip(members, totals)) == {"a": 15.0, "b": 23.0}
    table = standings(["a", "b"], games)
    assert [s.entrant for s in table] == ["b", "a"]
    assert table[0].units == 1  # the set counts once, not per game


def test_equal_set_totals_fall_back_to_the_finishing_orders():
    games = [
        GameResult(("a", "b", "c"), (1, 2, 3), (9.0, 5.0, 1.0), set_key="x"),
        GameResult(("b", "c", "a"), (1, 2, 3), (7.0, 6.0, 0.0), set_key="x"),
        GameResult(("c", "a", "b"), (1, 2, 3), (8.0, 6.0, 3.0), set_key="x"),
    ]
    # totals: a 15, b 15, c 15; pairwise points: a 1+0+.5, b .5+1+0, c 0+.5+1 -> all equal too: a shared rank
    members, points, _ = units(games)[0]
    assert points == [0.5, 0.5, 0.5]
