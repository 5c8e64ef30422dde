"""`arena play` options: --no-sandbox for one's own bots, the time-control flags, and a clear refusal of a wrong
number of bots."""

import json

from referee_helpers import BOTS

from arena import replay
from arena.cli import main


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
    assert header["time_control"] == {"decision_ms": 400, "bank_ms": 700, "startup_ms": 10_000, "max_faults": 1,
                                      "auto_single_action": True}
    assert isinstance(header["seed"], int)


def test_ask_forced_flag_turns_forced_decisions_off(tmp_path, capsys):
    path = tmp_path / "m.replay.json.gz"
    argv = ["play", "nim", "--bot", str(BOTS / "good"), "--bot", str(BOTS / "good"), "--no-sandbox",
            "--ask-forced", "--json", "--replay", str(path)]
    assert main(argv) == 0
    result = json.loads(capsys.readouterr().out)
    rp = replay.load(path)
    assert rp["header"]["time_control"]["auto_single_action"] is False
    assert not any(d["forced"] for d in rp["decisions"]) and [s["forced"] for s in result["seats"]] == [0, 0]
    assert sum(s["decisions"] for s in result["seats"]) == len(rp["decisions"])


def test_wrong_number_of_bots(capsys):
    assert main(["play", "nim", "--players", "3", "--bot", str(BOTS / "good")]) == 2
    assert "--players 3 needs 3 --bot options, got 1" in capsys.readouterr().err
    assert main(["play", "nim", "--bot", str(BOTS / "good")]) == 2
    assert "nim is played by 2 to 2 players, not 1" in capsys.readouterr().err


def test_an_unknown_game_option_is_refused_clearly(capsys):
    argv = ["play", "nim", "--bot", str(BOTS / "good"), "--bot", str(BOTS / "good"), "--no-sandbox",
            "--param", "speed=9"]
    assert main(argv) == 2
    assert "speed" in capsys.readouterr().err
    assert main(argv[:-2] + ["--param", "speed"]) == 2
    assert "--param takes key=value" in capsys.readouterr().err
