"""The spectator's view (`State.public_observation`): what every seat knows, nothing one seat knows alone.

Shown to anyone watching a running match (platform live view), so it is tested as the seats' views are: from a
seat's DecideRequest, determinization (`arena_bot.forward.determinize`) builds states that differ from the real
one only in what that seat cannot know (other hands, deck orders, covered tiles); their public views must be the
real state's, field for field, at every player count of both games."""

from __future__ import annotations

import importlib
import json
import random
from pathlib import Path

import pytest

from arena import games
from arena.match.protocol import Encoder

SDK = Path(__file__).resolve().parents[2] / "bots/python/sdk"


@pytest.fixture()
def forward(monkeypatch):
    monkeypatch.syspath_prepend(str(SDK))
    return importlib.import_module("arena_bot.forward")


def _positions(name: str, players: int, n_games: int, every: int):
    game = games.load(name, players=players)
    encoder = Encoder(game)
    for seed in range(n_games):
        state = game.new_state(500 + seed)
        pick = random.Random(seed)
        k = 0
        while not state.is_terminal():
            if k % every == every - 1:
                seat = state.current_player()
                yield game, state, encoder.decide(k, seat, state.observation(seat), state.legal_actions(), 1000, 0)
            state.apply(pick.choice(state.legal_actions()))
            k += 1


def _comparable(public: dict, seat: int) -> dict:
    """The public view less what a sample cannot reproduce: which of the requesting seat's own Minos cards the
    others saw it take (its own view shows its whole hand, not which of it is known to the others; other seats'
    hands, where the hidden information varies, are compared whole)."""
    out = json.loads(json.dumps(public))
    for p in out.get("player_states", []):
        if p["seat"] == seat:
            for key in ("hand", "hand_unknown_i", "hand_unknown_ii"):
                p.pop(key)
    return out


CASES = [("thebes", 2, 4, 7), ("thebes", 4, 3, 7), ("minos", 1, 2, 9), ("minos", 2, 2, 9), ("minos", 4, 1, 9)]


@pytest.mark.parametrize(("name", "players", "n_games", "every"), CASES)
def test_states_differing_only_in_hidden_information_look_the_same_to_spectators(forward, name, players, n_games,
                                                                                  every):
    checked = differed = 0
    for game, state, request in _positions(name, players, n_games, every):
        public = state.public_observation()
        sample = forward.determinize(request, random.Random(checked), game)
        if sample.observation(None) != state.observation(None):
            differed += 1  # the sample really has other hidden information
        assert _comparable(sample.public_observation(), request.seat) == _comparable(public, request.seat)
        checked += 1
    assert checked > 20 and differed > checked // 2


@pytest.mark.parametrize(("name", "players"), [("thebes", 3), ("minos", 2), ("minos", 1)])
def test_the_public_view_is_never_more_than_a_seats_view(name, players):
    """Every value of the spectator's view is in each seat's view, hidden parts (hands, piles) left out."""
    game = games.load(name, players=players)
    state = game.new_state(7)
    pick = random.Random(7)
    for _ in range(60):
        if state.is_terminal():
            break
        public = state.public_observation()
        assert public["seat"] == -1
        text = json.dumps(public, sort_keys=True)
        omni = state.observation(None)
        if name == "thebes":
            assert public["draw_pile"] == [] and public["stack3"] == []
            assert {k: v for k, v in public.items() if k != "seat"} == \
                {k: v for k, v in state.observation(0).items() if k != "seat"}
        else:
            assert "hidden" not in public and "hidden" in omni
            for p in public["player_states"]:
                assert p["setup_drawn"] == [] and p["pending"] == []
                for seat in range(players):
                    if seat != p["seat"]:  # what another seat sees of this one's hand
                        assert p["hand"] == state.observation(seat)["player_states"][p["seat"]]["hand"]
        assert "rng" not in text
        state.apply(pick.choice(state.legal_actions()))
