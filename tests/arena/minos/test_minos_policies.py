"""The built-in Minos policies: random, greedy, and Rhadamanthus as an opponent in any 2-player match."""

from __future__ import annotations

import random

from minos_helpers import new

from arena.games import policies


def _match(players, names, seed):
    pols = policies("minos")
    seats = [pols[n]() for n in names]
    st = new(players, seed=seed)
    rngs = [random.Random(seed * 10 + i) for i in range(players)]
    while not st.is_terminal():
        s = st.current_player()
        legal = st.legal_actions()
        obs = st.observation(s) if seats[s].needs_observation else None
        st.apply(legal[seats[s].choose(obs, legal, rngs[s])])
    return st


def test_registry_lists_the_three_policies():
    assert set(policies("minos")) == {"random", "greedy", "rhadamanthus"}


def test_rhadamanthus_policy_plays_two_player_matches_and_outscores_random():
    totals = [0.0, 0.0]
    for seed in range(8):
        st = _match(2, ["rhadamanthus", "random"], seed)
        totals = [t + x for t, x in zip(totals, st.scores())]
    assert totals[0] > 1.3 * totals[1]


def test_greedy_beats_random():
    wins = sum(_match(2, ["greedy", "random"], seed).ranking()[0] == 1 for seed in range(6))
    assert wins >= 5


def test_policies_play_every_player_count():
    for players in (1, 3, 4):
        names = (["greedy", "rhadamanthus", "random", "greedy"])[:players]
        assert _match(players, names, players).is_terminal()


def test_invariants_hold_in_deep_games_played_by_the_heuristic_policies():
    """Random play rarely builds much; greedy and Rhadamanthus games reach towers, fights, vases and full palaces."""
    from test_minos_properties import check_invariants
    pols = policies("minos")
    for players in (1, 2, 3, 4):
        for g in range(6):
            names = random.Random(g).choices(["greedy", "rhadamanthus"], k=players)
            seats = [pols[n]() for n in names]
            st = new(players, seed=7000 + g)
            rngs = [random.Random(g * 7 + i) for i in range(players)]
            k = 0
            while not st.is_terminal():
                s = st.current_player()
                legal = st.legal_actions()
                obs = st.observation(s) if seats[s].needs_observation else None
                st.apply(legal[seats[s].choose(obs, legal, rngs[s])])
                k += 1
                if k % 29 == 0:
                    check_invariants(st)
            check_invariants(st)
            assert st.round == 4 and st.scores() == [b["total"] for b in st.score_breakdown()]
