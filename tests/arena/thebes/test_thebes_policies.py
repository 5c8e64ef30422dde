"""Built-in policies: registered, choose legal actions from the observation only, greedy beats random."""

import random

from arena.commands.selfplay import run
from arena.games import load, policies
from arena.games.policy import Policy


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


def test_greedy_counts_a_declined_car_as_the_full_trip():
    """The greedy policy (and its ports in bots/*/greedy) prices `nocar` actions at the trip's full length."""
    from thebes_positions import Position
    greedy = policies("thebes")["greedy"]()
    state = Position(4).give(0, "R05").display("R57").only(0, "london").state()   # london-moscow: 3 segments
    obs = state.observation(0)
    me = obs["seats"][0]
    by_text = {str(a): a.to_dict() for a in state.legal_actions()}
    driven, declined = by_text["take R57"], by_text["take R57 nocar"]
    card = greedy.value(obs, me, driven) * (2 + 1)   # the gain: value x weeks with the car
    assert abs(greedy.value(obs, me, declined) - card / (3 + 1)) < 1e-9
    assert greedy.choose(obs, state.legal_actions(), random.Random(0)) != state.legal_actions().index(
        state.game.parse_action("take R57 nocar"))
