"""`arena play` options: --no-sandbox for one's own bots, the time-control flags, and a clear refusal of a wrong
number of bots."""

import json

from arena import replay
from arena.cli import main

from referee_helpers import BOTS


def test_unsandboxed_match_with_time_control_flags(tmp_path, capsys):
    path = tmp_path / "m.replay.json.gz"
    argv = ["play", "nim", "--bot", str(BOTS / "good"), "--bot", str(BOTS / "texter"), "--no-sandbox",
            "--decision-ms", "400", "--bank-ms", "700", "--max-faults", "1", "--json", "--replay", str(path)]
    assert main(argv) == 0
    out, err = capsys.readouterr()
    result = json.loads(out)
    assert "(no sandbox)" in err and "seed" in err
    assert all(s["faults"] == [] for s in result["seats"])
    header = replay.load(path)["header"]
    assert header["time_control"] == {"decision_ms": 400, "bank_ms": 700, "startup_ms": 10_000, "max_faults": 1}
    assert isinstance(header["seed"], int)


def test_wrong_number_of_bots(capsys):
    assert main(["play", "nim", "--players", "3", "--bot", str(BOTS / "good")]) == 2
    assert "--players 3 needs 3 --bot options, got 1" in capsys.readouterr().err
    assert main(["play", "nim", "--bot", str(BOTS / "good")]) == 2
    assert "nim is played by 2 to 2 players, not 1" in capsys.readouterr().err
