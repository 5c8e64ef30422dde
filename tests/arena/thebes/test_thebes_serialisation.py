"""Determinism, JSON round trip (RNG included) and clone()."""

import json
import random

import pytest
from thebes_positions import random_game

from arena.games import load


def _play_on(state, rng_seed, steps=10_000):
    rng = random.Random(rng_seed)
    log = []
    n = 0
    while not state.is_terminal() and n < steps:
        legal = state.legal_actions()
        action = legal[rng.randrange(len(legal))]
        log.append((str(action), state.apply(action)))
        n += 1
    return log


@pytest.mark.parametrize("players,seed,cut", [(2, 1, 0), (3, 2, 17), (4, 3, 33), (4, 4, 51)])
def test_serialise_parse_continue_gives_the_identical_game(players, seed, cut):
    state = random_game(players, seed, cut)
    doc = json.loads(json.dumps(state.to_json()))
    copy = state.game.state_from_json(doc)
    assert copy.to_json() == state.to_json()
    assert _play_on(copy, seed) == _play_on(state, seed)
    assert copy.to_json() == state.to_json() and copy.scores() == state.scores()


def test_the_same_seed_and_actions_give_the_same_game():
    a, b = random_game(4, 77), random_game(4, 77)
    assert a.to_json() == b.to_json()
    assert random_game(4, 78).to_json() != a.to_json()


def test_the_rng_is_splitmix64_bit_for_bit():
    # first outputs of SplitMix64 seeded with 0 (reference values of the published algorithm)
    from arena.games.rng import SplitMix64
    rng = SplitMix64(0)
    assert [rng.next64() for _ in range(3)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]


def test_a_clone_is_independent():
    state = random_game(3, 8, 20)
    before = state.to_json()
    clone = state.clone()
    _play_on(clone, 1)
    assert clone.is_terminal() and state.to_json() == before
    assert _play_on(state.clone(), 2) == _play_on(state, 2)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_clones_share_nothing_they_change_whichever_plays_first(players):
    """A clone shares its piles and generator with its twin until either changes them (copy on write): playing
    the original, the clone or a clone of the clone on (with `apply` or with `step`) changes none of the others,
    and every one of them plays on exactly as a state rebuilt from the position's JSON does."""
    game = load("thebes", players=players)
    rng = random.Random(players)
    checked = 0
    for seed in range(4):
        state = game.new_state(seed)
        while not state.is_terminal():
            if rng.random() < 0.15:
                before = state.to_json()
                first = state.clone()
                second = first.clone()
                order = [state, first, second]
                rng.shuffle(order)
                for i, mover in enumerate(order):  # each plays on in turn; the others must not change
                    stepped = i % 2 == 1
                    if stepped:
                        for _ in range(12):
                            if mover.is_terminal():
                                break
                            legal = mover.legal_actions()
                            mover.step(legal[rng.randrange(len(legal))])
                    else:
                        _play_on(mover, rng.randrange(1000), steps=12)
                    for other in order[i + 1:]:
                        assert other.to_json() == before
                state = game.state_from_json(before)
                twin = state.clone()
                assert _play_on(twin, seed) == _play_on(game.state_from_json(before), seed)
                checked += 1
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
    assert checked > 10


def test_inconsistent_documents_are_refused():
    game = load("thebes", players=2)
    doc = game.new_state(1).to_json()
    doc["seats"][0]["cards"].append(doc["draw_pile"][0])  # the card is now in two places
    with pytest.raises(ValueError, match="held twice"):
        game.state_from_json(doc)
    doc = game.new_state(1).to_json()
    doc["bags"]["egypt"].append("artifact7")
    with pytest.raises(ValueError, match="egypt"):
        game.state_from_json(doc)
    with pytest.raises(ValueError):
        load("thebes", players=3).state_from_json(game.new_state(1).to_json())


def test_events_and_observations_are_plain_json():
    state = load("thebes", players=3).new_state(12)
    rng = random.Random(12)
    while not state.is_terminal():
        legal = state.legal_actions()
        events = state.apply(legal[rng.randrange(len(legal))])
        assert json.loads(json.dumps(events)) == events
    assert json.loads(json.dumps(state.observation(None))) == state.observation(None)
    assert events[-1]["type"] == "game_over" and events[-1]["scores"] == state.scores()


def test_step_plays_like_apply_without_events():
    a, b = load("thebes", players=4).new_state(21), load("thebes", players=4).new_state(21)
    rng = random.Random(21)
    while not a.is_terminal():
        legal = a.legal_actions()
        i = rng.randrange(len(legal))
        a.apply(legal[i])
        b.step(b.legal_actions()[i])
        assert a.to_json() == b.to_json()
    assert b.is_terminal()
