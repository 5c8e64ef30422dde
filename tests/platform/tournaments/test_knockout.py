"""Knockout (2 players): seeded brackets with byes for the top seeds, winners advance, one champion."""

from tournaments.schedule import GameResult, bracket_slots, knockout_champion, knockout_round


def _play(rnd, strength, games=None):
    out = []
    for t in rnd.tables:
        a, b = t.seats
        ranks = (1, 2) if strength[a] > strength[b] else (2, 1)
        out.append(GameResult(t.seats, ranks, (1.0, 0.0) if ranks[0] == 1 else (0.0, 1.0), t.set_key, rnd.number))
    return out


def test_bracket_keeps_top_seeds_apart_and_gives_them_the_byes():
    assert bracket_slots(8) == [0, 7, 3, 4, 1, 6, 2, 5]
    slots = bracket_slots(6)
    assert len(slots) == 8
    pairs = [tuple(slots[i:i + 2]) for i in range(0, 8, 2)]
    assert (0, None) in pairs and (1, None) in pairs  # the two byes go to seeds 1 and 2
    # seeds 0 and 1 are in different halves: they can only meet in the final
    assert (0 in slots[:4]) != (1 in slots[:4])


def test_a_six_entrant_knockout_runs_to_one_champion():
    entrants = ["s1", "s2", "s3", "s4", "s5", "s6"]
    strength = {"s1": 1, "s2": 6, "s3": 3, "s4": 4, "s5": 5, "s6": 2}  # s2 is the strongest
    results, number = [], 1
    r1 = knockout_round(entrants, results, 1)
    assert set(r1.byes) == {"s1", "s2"}
    assert {frozenset(t.seats) for t in r1.tables} == {frozenset({"s4", "s5"}), frozenset({"s3", "s6"})}
    rnd = r1
    while rnd is not None:
        results += _play(rnd, strength)
        number += 1
        rnd = knockout_round(entrants, results, number)
    assert number == 4  # quarter-finals with byes, semi-finals, final
    assert knockout_champion(entrants, results, 3) == "s2"
    final = [r for r in results if r.round == 3]
    assert {e for r in final for e in r.seats} == {"s2", "s5"}


def test_round_not_scheduled_before_the_previous_is_played():
    entrants = ["a", "b", "c", "d"]
    assert knockout_round(entrants, [], 2) is None


def test_tied_pairing_goes_to_more_game_score_then_to_the_better_seed():
    entrants = ["a", "b"]
    r1 = knockout_round(entrants, [], 1, games_per_pairing=2)
    g1, g2 = r1.tables
    results = [GameResult(g1.seats, (1, 2), (5.0, 3.0), None, 1), GameResult(g2.seats, (1, 2), (4.0, 0.0), None, 1)]
    # one win each; total scores decide
    totals = {}
    for r in results:
        for e, s in zip(r.seats, r.scores):
            totals[e] = totals.get(e, 0) + s
    expected = max(totals, key=totals.get)
    assert knockout_champion(entrants, results, 1) == expected
    equal = [GameResult(g1.seats, (1, 2), (1.0, 0.0), None, 1), GameResult(g2.seats, (1, 2), (1.0, 0.0), None, 1)]
    assert knockout_champion(entrants, equal, 1) == "a"
