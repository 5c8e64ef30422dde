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


# The rollout policies are compiled with the engines (arena.games.<game>.rollout): compiled and pure choose
# alike for the same random numbers (values, choices, whole playouts), every player count.
_SAME = """
import hashlib, json, random, sys
sys.path.insert(0, {sdk!r})
from arena import games
from arena_bot.rollout import playout, rollout_policy
out = {{"engine": games.ENGINE}}
for name, players in (("thebes", 2), ("thebes", 3), ("thebes", 4), ("minos", 1), ("minos", 2), ("minos", 3),
                      ("minos", 4)):
    game = games.load(name, players=players)
    policy = rollout_policy(name)
    h = hashlib.sha256()
    for seed in range(3):
        state, rng = game.new_state(seed), random.Random(seed)
        for _ in range(5 + seed):
            state.apply(state.legal_actions()[0])
        if name == "thebes":
            h.update(repr(policy.values(state, state.legal_actions())).encode())
        stepped = state.clone()
        for _ in range(10):  # choose() one decision at a time, then the whole loop in playout()
            if stepped.is_terminal():
                break
            action = policy.choose(stepped, stepped.legal_actions(), rng.random)
            h.update(str(action).encode())
            stepped.apply(action)
        h.update(repr(playout(stepped, policy, rng)).encode() + repr(stepped.scores()).encode())
    out[f"{{name}}{{players}}"] = h.hexdigest()
print(json.dumps(out))
"""


def test_compiled_and_pure_rollout_policies_choose_alike():
    from arena.games import native

    if not native.built_files():
        pytest.skip("the compiled engines are not built (`arena engines build`)")
    import json
    import os
    import subprocess
    import sys

    results = []
    for pure in (False, True):
        env = {k: v for k, v in os.environ.items() if k != "ARENA_PURE"}
        if pure:
            env["ARENA_PURE"] = "1"
        done = subprocess.run([sys.executable, "-c", _SAME.format(sdk=str(ROOT / "bots/python/sdk"))], cwd=ROOT,
                              env=env, capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr
        results.append(json.loads(done.stdout))
    compiled, pure = results
    assert (compiled.pop("engine"), pure.pop("engine")) == ("compiled", "pure")
    assert compiled == pure
