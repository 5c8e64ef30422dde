"""The game registry: games by name with parameters, their policies, and the base contract on each game."""

import random

import pytest

from arena import games
from arena.games.base import Game, State


def test_thebes_is_registered_and_loads_with_its_parameters():
    assert "thebes" in games.names() and games.names() == sorted(games.names())
    game = games.load("thebes", players=3)
    assert isinstance(game, Game) and game.name == "thebes" and game.params == {"players": 3}
    assert game.engine_version and (game.min_players, game.max_players) == (2, 4)


def test_bad_parameters_are_refused_with_a_message():
    with pytest.raises(ValueError, match="2 to 4 players"):
        games.load("thebes", players=5)
    with pytest.raises(ValueError, match="no option"):
        games.load("thebes", players=2, variant="x")
    with pytest.raises(ValueError, match="unknown game"):
        games.load("chess", players=2)


def test_every_registered_game_has_random_and_greedy_policies():
    for name in games.names():
        pols = games.policies(name)
        assert {"random", "greedy"} <= set(pols), name


@pytest.mark.parametrize("name", games.names())
def test_every_registered_game_keeps_the_state_contract(name):
    cls = games.game_class(name)
    game = games.load(name, players=cls.min_players)
    state = game.new_state(3)
    assert isinstance(state, State)
    rng = random.Random(3)
    for _ in range(30):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        assert legal and len(set(map(str, legal))) == len(legal)
        for action in legal[:20]:
            assert game.parse_action(str(action)) == action
        doc = state.to_json()
        assert game.state_from_json(doc).to_json() == doc
        assert state.clone().to_json() == doc
        state.apply(legal[rng.randrange(len(legal))])
    assert len(state.scores()) == cls.min_players
