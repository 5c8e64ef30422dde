"""Built-in policies: registered, choose legal actions from the observation only, greedy beats random."""

import random

from arena.games import load, policies
from arena.games.policy import Policy
from arena.commands.selfplay import run


def test_random_and_greedy_are_the_thebes_policies():
    pols = policies("thebes")
    assert set(pols) == {"random", "greedy"}
    assert all(issubclass(cls, Policy) for cls in pols.values())
    assert pols["greedy"].needs_observation


def test_greedy_chooses_a_legal_index_deterministically_from_what_a_bot_sees():
    greedy = policies("thebes")["greedy"]()
    game = load("thebes", players=3)
    state = game.new_state(4)
    rng = random.Random(0)
    while not state.is_terminal():
        legal = state.legal_actions()
        obs = state.observation(state.current_player())
        i = greedy.choose(obs, legal, rng)
        assert 0 <= i < len(legal)
        assert greedy.choose(obs, list(legal), random.Random(99)) == i
        state.apply(legal[i])


def test_greedy_beats_random_clearly():
    result = run("thebes", 4, 60, 5, ["greedy", "random", "random", "random"])
    assert result["errors"] == 0
    assert result["wins"][0] >= 45                     # far above the 15 a random seat would get
    assert result["mean_scores"][0] > 2 * max(result["mean_scores"][1:])
