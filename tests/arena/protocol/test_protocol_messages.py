"""What the referee sends is exactly the game's view: the typed observation in a DecideRequest reads back as
`state.observation(seat)`, each legal action carries its index, canonical text and structured form, and an
answer names a legal action by index or text or is a fault of the right kind."""

import random

import pytest
from google.protobuf import json_format

from arena import games
from arena.match.protocol import BadAnswer, Encoder, bot_seed, chosen_index
from arena.match.types import TimeControl
from arena.v1 import arena_pb2


def _positions(n=12, seed=7, name="thebes"):
    game = games.load(name, players=3)
    state = game.new_state(seed)
    rng = random.Random(seed)
    out = []
    while not state.is_terminal() and len(out) < n:
        out.append(state.clone())
        for _ in range(rng.randint(1, 6)):
            if state.is_terminal():
                break
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
    return game, out


@pytest.mark.parametrize("name", ["thebes", "minos"])
def test_observation_and_actions_round_trip(name):
    game, positions = _positions(name=name)
    encoder = Encoder(game)
    for state in positions:
        seat = state.current_player()
        legal = state.legal_actions()
        request = encoder.decide(17, seat, state.observation(seat), legal, 1000, 2500)
        request = arena_pb2.DecideRequest.FromString(request.SerializeToString())  # over the wire
        assert request.WhichOneof("observation") == name
        back = json_format.MessageToDict(getattr(request, name), preserving_proto_field_name=True,
                                         always_print_fields_with_no_presence=True)
        observation = state.observation(seat)
        # every key the game sends arrives with its value (the message may add fields at their defaults)
        assert {k: back.get(k) for k in observation} == observation
        assert [a.index for a in request.legal_actions] == list(range(len(legal)))
        assert [a.text for a in request.legal_actions] == [str(a) for a in legal]
        for item, action in zip(request.legal_actions, legal):
            assert item.WhichOneof("action") == name
            assert json_format.MessageToDict(getattr(item, name), preserving_proto_field_name=True,
                                             always_print_fields_with_no_presence=True) == action.to_dict()
        assert (request.decision, request.seat) == (17, seat)
        assert (request.time_left.decision_ms, request.time_left.bank_ms) == (1000, 2500)


def test_start_match_describes_the_match():
    game = games.load("thebes", players=4)
    key = bytes(range(32))
    request = Encoder(game).start(2, ["a", "b", "c", "d"], 99, TimeControl(decision_ms=300, bank_ms=900), key)
    assert request.protocol == "arena.v1" and request.game == "thebes" and request.seat == 2
    assert request.params_json == '{"players": 4}'
    assert [(p.seat, p.name) for p in request.players] == [(0, "a"), (1, "b"), (2, "c"), (3, "d")]
    assert (request.time_control.decision_ms, request.time_control.bank_ms) == (300, 900)
    assert request.engine_version == game.engine_version
    assert request.bot_seed == bot_seed(key, 99, 2) != bot_seed(key, 99, 1)
    assert request.bot_seed != bot_seed(bytes(32), 99, 2)  # keyed: another key, another seed
    assert request.bot_seed != 99


@pytest.fixture
def legal():
    game, positions = _positions(1)
    return positions[0].legal_actions()


def test_answer_by_index_or_text(legal):
    assert chosen_index(arena_pb2.DecideResponse(index=0), legal) == 0
    last = len(legal) - 1
    assert chosen_index(arena_pb2.DecideResponse(text=str(legal[last])), legal) == last


@pytest.mark.parametrize("response,kind", [
    (arena_pb2.DecideResponse(), "malformed"),
    (arena_pb2.DecideResponse(index=10_000), "illegal"),
    (arena_pb2.DecideResponse(text="dig atlantis 3"), "illegal"),
])
def test_bad_answers(legal, response, kind):
    with pytest.raises(BadAnswer) as err:
        chosen_index(response, legal)
    assert err.value.kind == kind


def test_a_bot_is_sent_its_own_view_only():
    game, positions = _positions()
    encoder = Encoder(game)
    for state in positions:
        seat = state.current_player()
        request = encoder.decide(0, seat, state.observation(seat), state.legal_actions(), 1000, 0)
        assert request.thebes.seat == seat
        assert list(request.thebes.draw_pile) == [] and list(request.thebes.stack3) == []
        assert state.observation(None)["draw_pile"], "the omniscient view does hold the deck order"
