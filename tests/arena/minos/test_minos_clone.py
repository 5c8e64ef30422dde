"""`MinosState.clone()` (a typed field-by-field copy) is a deep copy: equal to one, sharing nothing mutable with the
original, and a clone plays on exactly as the original does (searches clone thousands of times a decision)."""

from __future__ import annotations

import copy
import random

import pytest

from arena import games


def _mutables(value: object, found: dict[int, object]) -> None:
    """Every list and dict reachable from `value`, by id (kept alive in `found`)."""
    if isinstance(value, dict):
        found[id(value)] = value
        for v in value.values():
            _mutables(v, found)
    elif isinstance(value, (list, tuple)):
        if isinstance(value, list):
            found[id(value)] = value
        for v in value:
            _mutables(v, found)


def _play_on(state, seed: int, play) -> None:
    """Up to 15 decisions, each `play(state, index)` of a legal action drawn from `random.Random(seed)`."""
    follow = random.Random(seed)
    for _ in range(15):
        if state.is_terminal():
            break
        play(state, follow.randrange(len(state.legal_texts())))


def _fields(state) -> dict[str, object]:
    d = {k: getattr(state, k) for k in state.SAVED}
    d["regions"] = state.regions
    return d


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_clone_is_a_deep_copy_that_plays_on_alike(players):
    game = games.load("minos", players=players)
    rng = random.Random(players)
    checked = 0
    for seed in range(3):
        state = game.new_state(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            if rng.random() < 0.08:
                clone = state.clone()
                assert _fields(clone) == copy.deepcopy(_fields(state))
                assert clone.rng.state == state.rng.state and clone.rng is not state.rng
                original, copied = {}, {}
                _mutables(_fields(state), original)
                _mutables(_fields(clone), copied)
                assert not set(original) & set(copied), "the clone shares a list or dict with the original"
                # both play the same actions on: the same states (nothing leaks from one into the other)
                before = state.to_json()
                _play_on(clone, seed, lambda st, i: st.apply(st.legal_actions()[i]))
                assert state.to_json() == before
                replay = state.clone()
                _play_on(replay, seed, lambda st, i: st.step(st.legal_texts()[i]))
                assert replay.to_json() == clone.to_json()  # and step() plays as apply() does
                checked += 1
            state.apply(legal[rng.randrange(len(legal))])
    assert checked > 20
