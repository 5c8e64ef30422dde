"""Observations: everything public, never the deck order, future draws or the seed; None is omniscient."""

import json
import random

import pytest
from thebes_positions import random_game

from arena.games.thebes.state import ThebesState


def _hidden_twin(state: ThebesState, seed: int) -> ThebesState:
    """The same position with the draw pile and stack 3 re-dealt (same cards, other order and split) and
    another RNG: it differs from `state` in hidden information only."""
    doc = json.loads(json.dumps(state.to_json()))
    cards = doc["draw_pile"] + doc["stack3"]
    rng = random.Random(seed)
    rng.shuffle(cards)
    doc["draw_pile"], doc["stack3"] = cards[:len(doc["draw_pile"])], cards[len(doc["draw_pile"]):]
    doc["rng"] = rng.getrandbits(64)
    return state.game.state_from_json(doc)


@pytest.mark.parametrize("players,seed,steps", [(2, 1, 0), (3, 2, 15), (4, 3, 30), (4, 4, 70)])
def test_states_differing_only_in_hidden_information_look_the_same_to_every_seat(players, seed, steps):
    state = random_game(players, seed, steps)
    twin = _hidden_twin(state, seed)
    assert twin.to_json() != state.to_json()
    for seat in range(players):
        assert state.observation(seat) == twin.observation(seat)
    assert state.observation(None) != twin.observation(None)


def test_the_omniscient_view_holds_the_deck_order():
    state = random_game(4, 9, 20)
    doc, obs = state.to_json(), state.observation(None)
    assert obs["seat"] == -1
    assert obs["draw_pile"] == doc["draw_pile"] and obs["stack3"] == doc["stack3"]
    seat_view = state.observation(0)
    assert seat_view["draw_pile"] == [] and seat_view["stack3"] == []
    assert seat_view["unseen_cards"] == sorted(doc["draw_pile"] + doc["stack3"])


def test_no_observation_carries_the_seed_or_the_rng():
    state = random_game(4, 123456789, 10)
    text = json.dumps(state.observation(1))
    assert str(state.rng.state) not in text and "rng" not in text


def test_bag_contents_are_public():
    state = random_game(4, 5, 60)
    for bag, tokens in zip(state.observation(2)["bags"], state.bags):
        assert bag["size"] == len(tokens)


def test_observations_and_actions_parse_as_protocol_messages():
    from google.protobuf import json_format

    from arena.v1 import thebes_pb2
    for players, seed in ((2, 1), (3, 2), (4, 3)):
        game_state = random_game(players, seed, 0)
        rng = random.Random(seed)
        while True:
            for seat in [None, *range(players)]:
                json_format.ParseDict(game_state.observation(seat), thebes_pb2.ThebesObservation(),
                                      ignore_unknown_fields=False)
            if game_state.is_terminal():
                break
            legal = game_state.legal_actions()
            for action in legal:
                json_format.ParseDict(action.to_dict(), thebes_pb2.ThebesAction(), ignore_unknown_fields=False)
            game_state.apply(legal[rng.randrange(len(legal))])
