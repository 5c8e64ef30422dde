"""The training doors (`arena.envs`): the fixed action spaces map every legal action to its own slot and back
exactly; the PettingZoo environments pass PettingZoo's own API and seed tests on both games at every player count;
the Gymnasium single-seat environment passes Gymnasium's env checker; the encoded observation holds only what the
seat may know; the environments play the engine's own games."""

from __future__ import annotations

import functools
import importlib
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

from arena import games  # noqa: E402
from arena.envs import SeatEnv, action_space, env, raw_env  # noqa: E402
from arena.envs.encoding import OBS_SIZE, encode, encode_observation  # noqa: E402
from arena.match.protocol import Encoder  # noqa: E402

ROOT = Path(__file__).resolve().parents[3]
CONFIGS = [("thebes", 2), ("thebes", 3), ("thebes", 4), ("minos", 1), ("minos", 2), ("minos", 3), ("minos", 4)]


def random_positions(name: str, players: int, n_games: int, seed0: int = 0):
    """Every position of `n_games` random games (seeded: the same every run)."""
    game = games.load(name, players=players)
    for seed in range(seed0, seed0 + n_games):
        state = game.new_state(seed)
        pick = random.Random(seed)
        while not state.is_terminal():
            yield state
            legal = state.legal_actions()
            state.apply(legal[pick.randrange(len(legal))])


@pytest.mark.parametrize(("name", "players"), CONFIGS)
def test_every_legal_action_has_its_own_slot_and_comes_back(name, players):
    space = action_space(name)
    positions = 0
    for state in random_positions(name, players, 1000):
        legal = [str(a) for a in state.legal_actions()]
        slots = space.indices(legal)
        assert len(set(slots)) == len(slots)  # no two legal actions share a slot
        mask = space.mask(legal)
        assert sum(mask) == len(legal) and all(mask[i] == 1 for i in slots)
        for text, slot in zip(legal, slots):
            assert 0 <= slot < space.n
            assert space.text(slot, legal) == text
            assert space.index(text, legal) == slot
            assert str(state.game.parse_action(text)) == text
        illegal = next(i for i in range(space.n) if not mask[i])
        with pytest.raises(KeyError):
            space.text(illegal, legal)
        positions += 1
        if positions == 1500:
            break
    assert positions == 1500


def test_thebes_slots_do_not_depend_on_the_position():
    space = action_space("thebes")
    from arena.games.thebes.actions import ALL_ACTIONS
    assert space.n == len(ALL_ACTIONS)
    for text in ALL_ACTIONS:
        assert space.slots[space.index(text, [text])] == text


def test_minos_copies_of_one_card_take_ranked_slots():
    space = action_space("minos")
    legal = ["play:I-07#3", "play:I-07#1", "main:finish"]
    assert [space.slots[i] for i in space.indices(legal)] == ["play:I-07@1", "play:I-07@0", "main:finish"]
    assert space.text(space.slots.index("play:I-07@1"), legal) == "play:I-07#3"
    # `move:` may offer all three copies of a card: one from the play area, two told apart in hand
    moves = ["move:I-10#2", "move:I-10#1", "move:I-10#3"]
    assert [space.slots[i] for i in space.indices(moves)] == ["move:I-10@1", "move:I-10@0", "move:I-10@2"]
    with pytest.raises(KeyError, match="no slot"):
        space.indices(["play:I-99#1"])


@pytest.mark.parametrize(("name", "players"), CONFIGS)
def test_pettingzoo_api_and_seed_tests(name, players):
    api_test(env(name, players), num_cycles=400)
    seed_test(functools.partial(env, name, players), num_cycles=200)


@pytest.mark.parametrize(("name", "players"), [("thebes", 3), ("minos", 2)])
def test_max_cycles_truncates_every_seat(name, players):
    e = env(name, players, max_cycles=5)
    e.reset(seed=3)
    decisions = 0
    finished = []
    for agent in e.agent_iter(1000):
        obs, _reward, terminated, truncated, _info = e.last()
        if terminated or truncated:
            assert truncated and not terminated
            assert not obs["action_mask"].any()
            finished.append(agent)
            e.step(None)
            continue
        e.step(int(np.flatnonzero(obs["action_mask"])[0]))
        decisions += 1
    assert decisions == 5
    assert sorted(finished) == [f"seat_{i}" for i in range(players)] and e.agents == []


@pytest.mark.parametrize(("name", "players"), CONFIGS)
def test_the_environment_plays_the_engine_game(name, players):
    """Masked random play through the environment is the engine's game for that seed: the same actions from
    `new_state(seed)` give the same final scores, and the rewards follow the ranking."""
    e = raw_env(name, players)
    e.reset(seed=11)
    rng = np.random.default_rng(0)
    texts = []
    rewards = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        rewards[agent] += reward
        if terminated or truncated:
            e.step(None)
            continue
        legal_slots = np.flatnonzero(obs["action_mask"])
        assert [e.action_text(int(s)) for s in legal_slots] == e.legal_texts()
        slot = int(rng.choice(legal_slots))
        texts.append(e.action_text(slot))
        e.step(slot)
    state = games.load(name, players=players).new_state(11)
    for text in texts:
        state.apply_text(text)
    assert state.is_terminal() and state.scores() == e.state_.scores()
    ranks = state.ranking()
    competitors = players + state.game.engine_opponents  # Minos solo: Rhadamanthus is ranked too
    for seat, rank in enumerate(ranks):
        assert rewards[f"seat_{seat}"] == (1.0 if rank == 1 else -1.0 if rank == competitors
                                           else 1.0 - 2.0 * (rank - 1) / (competitors - 1))


def test_an_illegal_slot_is_refused():
    e = raw_env("thebes", 2)
    e.reset(seed=1)
    obs = e.observe(e.agent_selection)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = e.state_.to_json()
    with pytest.raises(ValueError, match="not a legal action"):
        e.step(illegal)
    assert e.state_.to_json() == before


@pytest.mark.parametrize(("name", "players", "opponents"),
                         [("thebes", 2, ["greedy"]), ("thebes", 4, ["random", "greedy", "random"]),
                          ("minos", 1, ["random"]), ("minos", 3, ["greedy"])])
def test_gymnasium_env_checker(name, players, opponents):
    check_env(SeatEnv(name, players, seat=players - 1, opponents=opponents), skip_render_check=True)


def test_seat_env_plays_to_the_end_with_masked_actions():
    e = SeatEnv("minos", 2, seat=1, opponents=["greedy"])
    obs, info = e.reset(seed=4)
    rng = np.random.default_rng(1)
    done, total = False, 0.0
    while not done:
        assert obs.shape == (OBS_SIZE,)
        obs, reward, done, truncated, info = e.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        total += reward
    assert e.state.is_terminal() and "illegal_action" not in info
    assert total == (1.0 if e.state.ranking()[1] == 1 else -1.0)
    # an action outside the mask loses, as an illegal answer forfeits on the platform
    e.reset(seed=4)
    _obs, reward, done, _t, info = e.step(int(np.flatnonzero(e.action_masks() == 0)[0]))
    assert done and reward == -1.0 and info["illegal_action"]


@pytest.fixture()
def forward(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT / "bots/python/sdk"))
    return importlib.import_module("arena_bot.forward")


@pytest.mark.parametrize(("name", "players", "n_games", "every"),
                         [("thebes", 2, 10, 3), ("thebes", 4, 6, 3), ("minos", 1, 3, 3), ("minos", 3, 3, 6)])
def test_the_encoding_holds_only_what_the_seat_may_know(forward, name, players, n_games, every):
    """States that differ only in what a seat cannot see (samples of the seat's information set, from the
    forward model) encode identically for that seat; the omniscient view, which holds the hidden parts, does not
    (the test would catch an encoding that read them)."""
    game = games.load(name, players=players)
    encoder = Encoder(game)
    checked = differs = 0
    for k, state in enumerate(random_positions(name, players, n_games)):
        if k % every:
            continue
        seat = state.current_player()
        request = encoder.decide(k, seat, state.observation(seat), state.legal_actions(), 1000, 0)
        sample = forward.determinize(request, random.Random(k), game)
        assert np.array_equal(encode(sample, seat), encode(state, seat))
        omniscient = [encode_observation(s.observation(None), seat, players) for s in (state, sample)]
        differs += not np.array_equal(*omniscient)
        checked += 1
    assert checked > 100 and differs > checked // 2


def test_importable_without_django():
    code = ("import sys, arena.envs; arena.envs.env('minos', 2).reset(seed=1); arena.envs.SeatEnv('thebes', 2); "
            "assert not any(m == 'django' or m.startswith('django.') for m in sys.modules), 'django imported'")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)
