"""The SDK's documented rollout policies (`arena_bot.rollout`): they play any position of both games to the end
with legal actions only, reproducibly for a seed, and are the policies the built-in search plays with."""

from __future__ import annotations

import importlib
import random
from pathlib import Path

import pytest

from arena import games

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture()
def rollout(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT / "bots/python/sdk"))
    return importlib.import_module("arena_bot.rollout")


@pytest.mark.parametrize(("name", "players"), [("thebes", 2), ("thebes", 4), ("minos", 1), ("minos", 3)])
def test_playout_reaches_the_end_with_legal_actions_reproducibly(rollout, name, players):
    game = games.load(name, players=players)
    policy = rollout.rollout_policy(name)
    finals = []
    for _ in range(2):
        state, rng = game.new_state(5), random.Random(9)
        for _ in range(7):  # from a position deeper in the game, as a search starts from one
            state.apply(state.legal_actions()[0])
        checked = state.clone()
        n = rollout.playout(state, policy, rng)
        assert state.is_terminal() and n > 0
        finals.append((n, state.scores()))
        # the same choices, applied one by one through apply() (which refuses an illegal action)
        rng = random.Random(9)
        while not checked.is_terminal():
            legal = checked.legal_actions()
            action = policy.choose(checked, legal, rng.random)
            assert action in legal
            checked.apply(action)
        assert checked.scores() == state.scores()
    assert finals[0] == finals[1]


def test_max_decisions_stops_early_and_the_search_uses_these_policies(rollout, monkeypatch):
    state = games.load("minos", players=2).new_state(1)
    assert rollout.playout(state, rollout.rollout_policy("minos"), random.Random(1), max_decisions=5) == 5
    assert not state.is_terminal()
    search = importlib.import_module("arena_bot.search")
    assert search.ThebesRollout is rollout.ThebesRollout
    with pytest.raises(ValueError):
        rollout.rollout_policy("chess")
