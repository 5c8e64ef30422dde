"""Every starter bot plays a full sandboxed Thebes match through `arena play` without a fault, and the replay the
command writes verifies."""

import json
from pathlib import Path

import pytest

from arena import replay
from arena.cli import main

ROOT = Path(__file__).resolve().parents[2]

MATCHES = {
    # the "done when" command
    "done-when": ["python/random", "node/random", "python/greedy", "python/random"],
    "every-kit": ["node/greedy", "python/greedy", "node/random", "python/random"],
}


@pytest.mark.parametrize("bots", MATCHES.values(), ids=MATCHES.keys())
def test_match_through_the_command(bots, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the default replay goes to ./replays/
    argv = ["play", "thebes", "--players", "4", "--seed", "3", "--json"]
    for b in bots:
        argv += ["--bot", str(ROOT / "bots" / b)]
    assert main(argv) == 0
    out, err = capsys.readouterr()
    result = json.loads(out)  # one JSON object, nothing else on stdout
    assert "played" in err and "decisions" in err
    seats = result["seats"]
    assert [s["seat"] for s in seats] == [0, 1, 2, 3]
    assert sorted(s["rank"] for s in seats)[0] == 1 and all(1 <= s["rank"] <= 4 for s in seats)
    assert all(s["faults"] == [] and not s["disqualified"] and s["decisions"] > 0 for s in seats)
    assert [s["name"] for s in seats] == [b.replace("/", "-") for b in bots]
    path = Path(result["replay_path"])
    assert path.parent == Path("replays") and path.name.endswith(".replay.json.gz")
    replay.verify(replay.load(path))


def test_result_table(tmp_path, capsys):
    argv = ["play", "thebes", "--bot", str(ROOT / "bots/python/greedy"), "--bot", str(ROOT / "bots/node/random"),
            "--seed", "8", "--replay", str(tmp_path / "m.replay.json.gz")]
    assert main(argv) == 0
    out = capsys.readouterr().out
    header, rule, *rows = out.splitlines()
    assert header.split()[:4] == ["rank", "seat", "bot", "score"]
    assert set(rule.replace(" ", "")) == {"-"}
    assert rows[0].split()[0] == "1" and rows[1].split()[0] in ("1", "2")
    assert f"replay: {tmp_path / 'm.replay.json.gz'}" in out


def test_random_bots_play_minos(tmp_path, capsys):
    argv = ["play", "minos", "--bot", str(ROOT / "bots/python/random"), "--bot", str(ROOT / "bots/node/random"),
            "--seed", "4", "--json", "--replay", str(tmp_path / "minos.replay.json.gz")]
    assert main(argv) == 0
    result = json.loads(capsys.readouterr().out)
    assert all(s["faults"] == [] and s["decisions"] > 0 for s in result["seats"])
    replay.verify(replay.load(result["replay_path"]))
