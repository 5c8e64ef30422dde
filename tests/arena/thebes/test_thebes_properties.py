"""Properties over thousands of random games for 2, 3 and 4 players: every game ends; cards and tokens are
conserved; markers never move backwards or past the end; scores are the sum of their parts; serialise → parse
→ continue gives the identical game."""

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from arena.games import load
from arena.games.thebes.data import END_TIME

GAMES_PER_COUNT = 700          # random playouts per player count, checked at every decision
MAX_DECISIONS = 2_000


def _check_game(game, seed):
    state = game.new_state(seed)
    rng = random.Random(seed)
    times = list(state.time)
    n = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        assert legal, "a player who has not finished always has an action (at least retiring)"
        mover = state.current_player()
        state.apply(legal[rng.randrange(len(legal))])
        n += 1
        assert n < MAX_DECISIONS
        for p, (old, new) in enumerate(zip(times, state.time)):
            assert old <= new <= END_TIME
            assert new == old or p == mover
        assert state.time[mover] > times[mover] or times[mover] == END_TIME
        times = list(state.time)
        if n % 5 == 0:
            assert state.conservation_problem() is None
            for parts in state.score_breakdown():
                assert parts["total"] == parts["artifacts"] + parts["exhibitions"] + parts["congress"] \
                    + parts["majority"]
    assert state.conservation_problem() is None
    assert state.time == [END_TIME] * game.players
    assert state.scores() == [p["total"] for p in state.score_breakdown()]
    return n


def test_random_games_end_conserve_and_never_go_back():
    total = 0
    for players in (2, 3, 4):
        game = load("thebes", players=players)
        for i in range(GAMES_PER_COUNT):
            total += _check_game(game, players * 100_000 + i)
    assert total > 3 * GAMES_PER_COUNT * 20


@settings(max_examples=150, deadline=None)
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**64 - 1), cut=st.integers(0, 150),
       choice_seed=st.integers(0, 2**32))
def test_serialise_parse_continue_is_identical(players, seed, cut, choice_seed):
    game = load("thebes", players=players)
    state = game.new_state(seed)
    rng = random.Random(choice_seed)
    for _ in range(cut):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    copy = game.state_from_json(json.loads(json.dumps(state.to_json())))
    tail_rng = random.Random(choice_seed + 1)
    other_rng = random.Random(choice_seed + 1)
    while not state.is_terminal():
        legal = state.legal_actions()
        assert copy.legal_actions() == legal
        i = tail_rng.randrange(len(legal))
        assert other_rng.randrange(len(legal)) == i
        assert state.apply(legal[i]) == copy.apply(copy.legal_actions()[i])
    assert copy.is_terminal() and copy.to_json() == state.to_json()
