"""The search bots (bots/python/mcts-level1..3) and the forward-model example of bots/README.md: they play real
sandboxed matches through `arena play`, within the time control (no fault), with the engines the Python runtime
installs (`arena.games`, the referee's own code)."""

from __future__ import annotations

import importlib.util
import json
import re
import tomllib
from pathlib import Path

import pytest

from arena import replay
from arena.cli import main
from arena.sandbox import runtimes
from arena.v1 import arena_pb2

ROOT = Path(__file__).resolve().parents[2]
LEVELS = {1: 0.1, 2: 0.3, 3: 1.0}


def play(argv: list[str], capsys) -> dict:
    assert main(argv + ["--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    replay.verify(replay.load(result["replay_path"]))
    return result


def assert_clean(result: dict) -> None:
    for seat in result["seats"]:
        assert seat["faults"] == [] and not seat["disqualified"] and seat["decisions"] > 0, seat


def test_python_runtime_carries_the_referees_engines():
    """The forward model bots import is the referee's code, file for file: the rules cannot drift."""
    runtimes.install(("python",), log=lambda line: None)  # up to date unless an engine changed meanwhile
    site = next(runtimes.runtime_path("python").glob("lib/python3*/site-packages"))
    engines = ROOT / "arena/games"
    sources = [p for p in engines.rglob("*") if p.suffix in (".py", ".json") and "__pycache__" not in p.parts]
    assert any(p.name == "determinize.py" for p in sources)
    for source in sources:
        assert (site / "arena/games" / source.relative_to(engines)).read_bytes() == source.read_bytes(), source
    assert not (site / "arena/match").exists() and not (site / "arena/sandbox").exists()


def test_levels_are_one_bot_with_three_budgets():
    """The levels differ by their manifest's --think only, so a ladder climber meets the same player, stronger."""
    code = {(ROOT / f"bots/python/mcts-level{n}/bot.py").read_bytes() for n in LEVELS}
    assert len(code) == 1
    for n, think in LEVELS.items():
        manifest = tomllib.loads((ROOT / f"bots/python/mcts-level{n}/bot.toml").read_text())
        assert manifest["name"] == f"python-mcts-level{n}"
        assert manifest["games"] == ["thebes", "minos"] and manifest["runtime"] == "python"
        assert manifest["command"] == ["python", "bot.py", "--think", str(think)]


def _bot_module():
    """`arena_bot.search`, the search every level runs (callers put the SDK on sys.path first)."""
    return importlib.import_module("arena_bot.search")


@pytest.mark.parametrize(("decision_ms", "bank_ms"), [(1000, 10_000), (1000, 0), (200, 0), (100, 500), (0, 0)])
def test_the_budget_stays_inside_the_clock(decision_ms, bank_ms, monkeypatch):
    """Whatever the level, the search ends well before the decision's time and a share of the bank run out."""
    monkeypatch.syspath_prepend(str(ROOT / "bots/python/sdk"))
    module = _bot_module()
    for think in LEVELS.values():
        bot = module.SearchBot(think)
        request = arena_pb2.DecideRequest(time_left=arena_pb2.TimeLeft(decision_ms=decision_ms, bank_ms=bank_ms))
        budget = bot.budget(request)
        assert budget <= think
        assert budget <= max(0.005, 0.75 * decision_ms / 1000 + bank_ms / 1000 / module.BANK_SHARE
                             - module.MARGIN_S)


def test_thebes_search_bot_plays_greedy_in_the_sandbox(tmp_path, capsys):
    """The issue's "done when": `arena play thebes --players 2 --bot bots/python/mcts-level1 --bot
    bots/python/greedy --seed 1`, sandboxed, within the time control, no faults."""
    result = play(["play", "thebes", "--players", "2", "--bot", str(ROOT / "bots/python/mcts-level1"),
                   "--bot", str(ROOT / "bots/python/greedy"), "--seed", "1",
                   "--replay", str(tmp_path / "t.replay.json.gz")], capsys)
    assert_clean(result)


@pytest.mark.slow
def test_minos_search_bot_plays_greedy_in_the_sandbox(tmp_path, capsys):
    result = play(["play", "minos", "--players", "2", "--bot", str(ROOT / "bots/python/mcts-level1"),
                   "--bot", str(ROOT / "bots/python/minos-greedy"), "--seed", "1",
                   "--replay", str(tmp_path / "m.replay.json.gz")], capsys)
    assert_clean(result)


def readme_example() -> str:
    text = (ROOT / "bots/README.md").read_text()
    section = text.split("## Python: planning with the forward model", 1)[1]
    return re.search(r"```python\n(.*?)```", section, re.DOTALL).group(1)


def test_readme_example_is_short():
    assert len(readme_example().strip().splitlines()) <= 32


def test_readme_example_bot_plays_in_the_sandbox(tmp_path, capsys):
    """The forward-model example of bots/README.md, as an author would copy it, plays a sandboxed match."""
    folder = tmp_path / "example"
    folder.mkdir()
    (folder / "bot.py").write_text(readme_example())
    (folder / "bot.toml").write_text('name = "flat-mc"\ngames = ["thebes"]\nruntime = "python"\n'
                                     'command = ["python", "bot.py"]\n')
    result = play(["play", "thebes", "--players", "2", "--bot", str(folder),
                   "--bot", str(ROOT / "bots/python/random"), "--seed", "2",
                   "--replay", str(tmp_path / "e.replay.json.gz")], capsys)
    assert_clean(result)


def test_a_position_the_model_cannot_rebuild_costs_no_fault(monkeypatch, capsys):
    """Should the forward model fail on a request (here: one without an observation), the bot still answers a
    legal index, and says why in its log."""
    monkeypatch.syspath_prepend(str(ROOT / "bots/python/sdk"))
    bot = _bot_module().SearchBot(0.01)
    bot.start(arena_pb2.StartMatchRequest(game="thebes", params_json='{"players": 2}', seat=0, bot_seed=1))
    request = arena_pb2.DecideRequest(seat=0, legal_actions=[arena_pb2.LegalAction(index=0, text="retire"),
                                                             arena_pb2.LegalAction(index=1, text="exchange")],
                                      time_left=arena_pb2.TimeLeft(decision_ms=1000))
    assert bot.decide(request) == 0
    assert "no observation" in capsys.readouterr().err


def test_thebes_rollouts_value_actions_as_the_greedy_policy_does(monkeypatch):
    """The rollouts model the other seats by the greedy heuristic: `ThebesRollout.values`, read from the state
    for speed, gives every legal action the value the engine's greedy policy gives it from the observation."""
    import random

    from arena import games
    from arena.games.thebes.policies import GreedyPolicy

    monkeypatch.syspath_prepend(str(ROOT / "bots/python/sdk"))
    rollout, greedy = _bot_module().ThebesRollout(), GreedyPolicy()
    for players, seed in ((2, 1), (3, 2), (4, 3)):
        state, rng = games.load("thebes", players=players).new_state(seed), random.Random(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            obs = state.observation(state.current_player())
            me = obs["seats"][obs["current_player"]]
            expected = [greedy.value(obs, me, a.to_dict()) for a in legal]
            assert rollout.values(state, legal) == pytest.approx(expected, abs=1e-9)
            state.apply(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("game", ["thebes", "minos"])
def test_search_with_a_fixed_budget_answers_a_legal_action_reproducibly(game, monkeypatch):
    """With a fixed number of rollouts (the benchmark's --iterations) the answer is one of the request's legal
    actions and the same for the same seed: the measurements can be repeated on any machine, however loaded."""
    from arena import games
    from arena.match.protocol import Encoder

    monkeypatch.syspath_prepend(str(ROOT / "bots/python/sdk"))
    module = _bot_module()
    rules = games.load(game, players=2)
    state = rules.new_state(5)
    while len(state.legal_actions()) < 3:
        state.apply(state.legal_actions()[0])
    seat, legal = state.current_player(), state.legal_actions()
    request = Encoder(rules).decide(0, seat, state.observation(seat), legal, 1000, 10_000)
    answers = []
    for _ in range(2):
        bot = module.SearchBot(10.0, iterations=24)
        bot.start(arena_pb2.StartMatchRequest(game=game, params_json='{"players": 2}', seat=seat, bot_seed=3))
        answers.append(bot.decide(request))
        assert 0 < bot.iterations <= 30
    assert answers[0] == answers[1]
    assert answers[0] in [str(a) for a in legal]
