"""The Minos starter bots (bots/python/minos-random, minos-greedy) play a full sandboxed match through
`arena play` without a fault, and the replay verifies."""

from __future__ import annotations

import json
from pathlib import Path

from arena import replay
from arena.cli import main

ROOT = Path(__file__).resolve().parents[3]


def test_minos_starter_bots_play_a_sandboxed_match(tmp_path, capsys):
    argv = ["play", "minos", "--players", "3", "--seed", "5", "--json", "--replay", str(tmp_path / "m.replay.json.gz"),
            "--bot", str(ROOT / "bots/python/minos-greedy"), "--bot", str(ROOT / "bots/python/minos-random"),
            "--bot", str(ROOT / "bots/python/minos-random")]
    assert main(argv) == 0
    result = json.loads(capsys.readouterr().out)
    seats = result["seats"]
    assert all(s["faults"] == [] and not s["disqualified"] and s["decisions"] > 0 for s in seats)
    assert [s["name"] for s in seats] == ["python-minos-greedy", "python-minos-random", "python-minos-random"]
    replay.verify(replay.load(result["replay_path"]))
