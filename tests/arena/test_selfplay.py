"""`arena selfplay`: in-process games between built-in policies, reproducible run to run, for every game."""

import json
import re

import pytest

from arena import games
from arena.cli import main


def _selfplay(capsys, *args):
    code = main(["selfplay", *args, "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_selfplay_prints_one_json_summary(capsys):
    code, out = _selfplay(capsys, "thebes", "--players", "4", "--games", "30", "--seed", "1")
    assert code == 0
    assert out["games"] == 30 and out["errors"] == 0 and out["seconds"] >= 0
    assert len(out["mean_scores"]) == 4 and len(out["wins"]) == 4 and sum(out["wins"]) >= 30
    assert out["policies"] == ["random"] * 4


def test_the_same_command_gives_the_same_scores(capsys):
    args = ("thebes", "--players", "3", "--games", "25", "--seed", "7")
    _, first = _selfplay(capsys, *args)
    _, second = _selfplay(capsys, *args)
    _, other = _selfplay(capsys, "thebes", "--players", "3", "--games", "25", "--seed", "8")
    assert first["scores_sha256"] == second["scores_sha256"]
    assert first["mean_scores"] == second["mean_scores"] and first["wins"] == second["wins"]
    assert other["scores_sha256"] != first["scores_sha256"]


def test_one_policy_per_seat(capsys):
    code, out = _selfplay(capsys, "thebes", "--players", "2", "--games", "10", "--seed", "2",
                          "--policy", "greedy", "--policy", "random")
    assert code == 0 and out["policies"] == ["greedy", "random"]


def test_unknown_policy_or_wrong_count_is_an_error(capsys):
    assert main(["selfplay", "thebes", "--players", "2", "--policy", "oracle"]) == 2
    assert "no policy 'oracle'" in capsys.readouterr().err
    assert main(["selfplay", "thebes", "--players", "3", "--policy", "random", "--policy", "random"]) == 2


@pytest.mark.parametrize("name", games.names())
def test_selfplay_works_for_every_registered_game(capsys, name):
    players = str(games.game_class(name).min_players)
    code, out = _selfplay(capsys, name, "--players", players, "--games", "2", "--seed", "3",
                          "--policy", "greedy")
    assert code == 0 and out["errors"] == 0 and out["games"] == 2


def test_replay_dir_writes_replays_that_verify_and_leaves_the_summary_alone(capsys, tmp_path):
    from arena import replay as replays

    args = ("thebes", "--players", "3", "--games", "4", "--seed", "5", "--policy", "greedy", "--policy", "random",
            "--policy", "random")
    _, plain = _selfplay(capsys, *args)
    code, with_replays = _selfplay(capsys, *args, "--replay-dir", str(tmp_path / "replays"))
    assert code == 0
    timing = ("seconds", "games_per_second")
    assert {k: v for k, v in with_replays.items() if k not in timing} == \
        {k: v for k, v in plain.items() if k not in timing}
    written = sorted(p.name for p in (tmp_path / "replays").iterdir())
    assert written == [f"thebes-5-{i}.replay.json.gz" for i in range(4)]
    total_decisions = 0
    for name in written:
        replay = replays.load(tmp_path / "replays" / name)
        replays.verify(replay)
        assert [s["name"] for s in replay["header"]["seats"]] == \
            ["greedy (seat 0)", "random (seat 1)", "random (seat 2)"]
        total_decisions += len(replay["decisions"])
    assert total_decisions == plain["decisions"]
    assert main(["replay", "verify", str(tmp_path / "replays" / written[0])]) == 0


def test_replay_dir_text_summary_is_unchanged(capsys, tmp_path):
    args = ["selfplay", "thebes", "--players", "2", "--games", "3", "--seed", "9"]
    main(args)
    plain = capsys.readouterr().out
    main(args + ["--replay-dir", str(tmp_path)])
    with_replays = capsys.readouterr().out
    untimed = lambda text: re.sub(r" in [0-9.]+ s,", " in … s,", text)
    assert untimed(with_replays) == untimed(plain) and "3 games of thebes" in plain
    assert len(list(tmp_path.iterdir())) == 3
