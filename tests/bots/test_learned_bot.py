"""The learned bot (bots/python/learned) plays real sandboxed matches as an ordinary bot: its model files inside
its folder, plain Python in the sandbox's runtime, every answer legal and in time, each one annotated with its
estimate; and its model was made for the engine's current observation encoding."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena import botlogs, replay
from arena.cli import main
from arena.games.features import OBS_SIZE, OBS_VERSION

ROOT = Path(__file__).resolve().parents[2]
LEARNED = ROOT / "bots/python/learned"


@pytest.mark.parametrize("game", ["thebes", "minos"])
def test_the_model_files_match_the_encoding(game):
    model = json.loads((LEARNED / f"model-{game}.json").read_text())
    assert model["obs_version"] == OBS_VERSION and model["game"] == game
    assert model["weights"] and all(0 <= int(k) < OBS_SIZE for k in model["weights"])


@pytest.mark.sandbox
@pytest.mark.parametrize(("game", "opponent"), [("thebes", "greedy"), ("minos", "minos-greedy")])
def test_it_plays_a_sandboxed_match(game, opponent, tmp_path, capsys):
    path = tmp_path / "m.replay.json.gz"
    argv = ["play", game, "--bot", str(LEARNED), "--bot", str(ROOT / "bots/python" / opponent), "--seed", "4",
            "--replay", str(path), "--json"]
    assert main(argv) == 0
    result = json.loads(capsys.readouterr().out)
    learned = result["seats"][0]
    assert learned["name"] == "python-learned" and learned["faults"] == [] and not learned["disqualified"]
    assert learned["decisions"] > 5
    replay.verify(replay.load(path))
    logs = botlogs.load(botlogs.logs_path(path))
    notes = [d["annotation"] for d in logs["seats"][0]["decisions"] if d["annotation"]]
    assert notes and all(n.startswith("P(first) ") for n in notes)
