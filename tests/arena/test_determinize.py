"""Determinization, the forward model bots get (`arena_bot.forward.determinize`): from the DecideRequest a seat
receives, a full state whose observation for that seat is the request's, whose legal actions are the request's,
whose hidden parts are only what is still possible, and whose samples differ where the seat cannot know.

Property tests over thousands of positions of random games of both games, at every player count, through the
same protobuf request the referee sends (`Encoder.decide`)."""

from __future__ import annotations

import importlib
import random
from collections import Counter
from pathlib import Path

import pytest

from arena import games
from arena.games.minos import data as MD
from arena.match.protocol import Encoder

SDK = Path(__file__).resolve().parents[2] / "bots/python/sdk"


@pytest.fixture()
def forward(monkeypatch):
    monkeypatch.syspath_prepend(str(SDK))
    return importlib.import_module("arena_bot.forward")


def positions(name: str, players: int, games_n: int, every: int):
    """(state, request) at every `every`-th decision of `games_n` random games (seeded: the same every run)."""
    game = games.load(name, players=players)
    encoder = Encoder(game)
    for seed in range(games_n):
        state = game.new_state(1000 + seed)
        pick = random.Random(seed)
        k = 0
        while not state.is_terminal():
            if k % every == every - 1:
                seat = state.current_player()
                request = encoder.decide(k, seat, state.observation(seat), state.legal_actions(), 1000, 0)
                yield game, encoder, state, request
            state.apply(pick.choice(state.legal_actions()))
            k += 1


def assert_consistent(forward, game, encoder, state, request, rng):
    sample = forward.determinize(request, rng, game)
    seat = request.seat
    assert sample.current_player() == seat
    again = encoder.decide(request.decision, seat, sample.observation(seat), sample.legal_actions(), 1000, 0)
    assert again == request  # the observation field for field, and the legal actions in order
    return sample


# players: (random games, every n-th decision): about 1,000 positions per game in all, 2 samples each
THEBES = {2: (16, 2), 3: (11, 2), 4: (12, 2)}
MINOS = {1: (5, 2), 2: (5, 4), 3: (4, 5), 4: (3, 5)}


@pytest.mark.parametrize("players", THEBES)
def test_thebes_samples_agree_with_the_request(forward, players):
    n_games, every = THEBES[players]
    checked = varied = 0
    for game, encoder, state, request in positions("thebes", players, n_games, every):
        rng = random.Random(checked)
        piles = set()
        for _ in range(2):
            sample = assert_consistent(forward, game, encoder, state, request, rng)
            omni = sample.observation(None)
            piles.add((tuple(omni["draw_pile"]), tuple(omni["stack3"])))
            # only what is still possible: the unseen cards, and the setup's stacks while they last
            assert sample.conservation_problem() is None
            if players > 2 and not sample.stack3_used:
                assert all(c not in omni["draw_pile"] for c in _large_exhibitions())
        if len(request.thebes.unseen_cards) >= 6:
            varied += len(piles) > 1
            checked += 1
    assert checked > 250 and varied == checked  # with 6+ unseen cards, 2 samples (seeded) never agree


def _large_exhibitions() -> list[str]:
    from arena.games.thebes.data import CARD_IDS, LARGE_EXHIBITIONS
    return [CARD_IDS[c] for c in LARGE_EXHIBITIONS]


def test_thebes_sample_follows_the_setup_stacks(forward):
    """At the start, the top third of the pile is researchers only and (4 players) stack 3 holds the large
    exhibitions: a sample never puts an exhibition where the seat knows none can be."""
    game = games.load("thebes", players=4)
    state = game.new_state(7)
    request = Encoder(game).decide(0, 0, state.observation(0), state.legal_actions(), 1000, 0)
    from arena.games.thebes.determinize import setup_stack_sizes
    stack1 = setup_stack_sizes()[0]
    for k in range(50):
        omni = forward.determinize(request, random.Random(k), game).observation(None)
        top = omni["draw_pile"][:stack1]
        assert all(c.startswith("R") for c in top)  # researchers (R..), no exhibition (X..)
        assert set(_large_exhibitions()) <= set(omni["stack3"])


def _card_places(sample) -> Counter:
    places: Counter = Counter(c for c in sample.offer if c)
    for p in sample.players:
        places.update(p["hand"] + p["play"] + p["palace"] + p["drawn"])
    for era in ("I", "II"):
        places.update(sample.decks[era] + sample.discard[era])
    if sample.bot is not None:
        places.update(sample.bot["down"] + sample.bot["up"])
    return places


@pytest.mark.parametrize("players", MINOS)
def test_minos_samples_agree_with_the_request(forward, players):
    n_games, every = MINOS[players]
    all_cards = Counter(MD.DECK_INSTANCES["I"] + MD.DECK_INSTANCES["II"])
    checked = varied = 0
    for game, encoder, state, request in positions("minos", players, n_games, every):
        rng = random.Random(checked)
        hidden = set()
        for _ in range(2):
            sample = assert_consistent(forward, game, encoder, state, request, rng)
            # only what is still possible: every card exactly once, the seat's own cards where they are
            assert _card_places(sample) == all_cards
            assert sorted(sample.players[request.seat]["hand"]) == sorted(state.players[request.seat]["hand"])
            omni = sample.observation(None)["hidden"]
            hidden.add((tuple(omni["deck_i"]), tuple(omni["deck_ii"]), tuple(omni["goods_pile"])))
        if len(state.decks["I"]) + len(state.decks["II"]) >= 6:
            varied += len(hidden) > 1
        checked += 1
    assert checked > 250 and varied > 0.9 * checked


def test_the_sample_plays_on_to_the_end(forward):
    """A sampled state is a real position: random play from it reaches a terminal position with scores."""
    for name, players in (("thebes", 3), ("minos", 2), ("minos", 1)):
        for game, _encoder, _state, request in positions(name, players, 1, 40):
            sample = forward.determinize(request, random.Random(1), game)
            rng = random.Random(2)
            while not sample.is_terminal():
                sample.apply(rng.choice(sample.legal_actions()))
            assert len(sample.scores()) == players


def test_a_request_without_observation_is_refused(forward):
    from arena.v1 import arena_pb2
    with pytest.raises(ValueError, match="no observation"):
        forward.determinize(arena_pb2.DecideRequest(seat=0), random.Random(0))


def test_legal_index_names_the_request_index(forward):
    _, _, _, request = next(positions("thebes", 2, 1, 3))
    sample = forward.determinize(request, random.Random(0))
    for i, action in enumerate(sample.legal_actions()):
        assert forward.legal_index(request, action) == request.legal_actions[i].index
    with pytest.raises(ValueError):
        forward.legal_index(request, "not an action")
