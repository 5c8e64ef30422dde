"""Local tournaments (`arena tournament`, arena.tournament): the schedule rotates seats over shared deals, the Elo
fit orders bots by their results with intervals that hold the estimate, and a real sandboxed tournament keeps
every replay (each one verifies) and reports the table."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from arena import replay
from arena.cli import main
from arena.tournament import elo_table, fit_elo, schedule

ROOT = Path(__file__).resolve().parents[2]


def test_round_robin_rotates_seats_over_shared_deals():
    games = schedule(4, 3, rounds=2)
    groups = Counter(frozenset(g.bots) for g in games)
    assert len(groups) == 4 and set(groups.values()) == {6}  # C(4,3) sets, 2 deals x 3 rotations each
    for deal in {g.deal for g in games}:
        of_deal = [g for g in games if g.deal == deal]
        assert len(of_deal) == 3 and len({frozenset(g.bots) for g in of_deal}) == 1
        for seat in range(3):  # every bot of the deal sits at every seat once
            assert sorted(g.bots[seat] for g in of_deal) == sorted(of_deal[0].bots)
    assert [g.index for g in games] == list(range(len(games)))


def test_gauntlet_puts_the_challenger_in_every_game():
    games = schedule(4, 2, rounds=1, gauntlet=True)
    assert len(games) == 6 and all(0 in g.bots for g in games)
    assert Counter(g.bots.index(0) for g in games) == {0: 3, 1: 3}
    with pytest.raises(ValueError):
        schedule(1, 2, rounds=1)


def test_elo_orders_bots_by_results_and_the_interval_holds_the_estimate():
    # bot 0 beats 1 three times in four, 1 beats 2 three times in four, 0 always beats 2
    games = ([[(0, 1), (1, 2)]] * 30 + [[(0, 2), (1, 1)]] * 10 + [[(1, 1), (2, 2)]] * 30
             + [[(1, 2), (2, 1)]] * 10 + [[(0, 1), (2, 2)]] * 20)
    elo = fit_elo(3, games)
    assert elo[0] > elo[1] > elo[2] and abs(sum(elo)) < 1e-6
    table = elo_table(3, games, bootstrap=100)
    for estimate, low, high in table:
        assert low <= estimate <= high
    assert table[0][1] > table[2][2]  # 0's interval lies above 2's
    assert fit_elo(2, [[(0, 1), (1, 1)]] * 5) == pytest.approx([0.0, 0.0])  # draws: level
    assert all(abs(e) < 1000 for e in fit_elo(2, [[(0, 1), (1, 2)]] * 5))  # the prior keeps a loser finite


def test_a_bad_folder_is_refused(tmp_path, capsys):
    assert main(["tournament", "thebes", "--bot", str(tmp_path), "--bot", str(tmp_path)]) == 2
    assert "not a bot folder" in capsys.readouterr().err


@pytest.mark.sandbox
def test_a_sandboxed_tournament_keeps_replays_and_reports_elo(tmp_path, capsys):
    out = tmp_path / "t"
    argv = ["tournament", "thebes", "--bot", str(ROOT / "bots/python/random"), "--bot",
            str(ROOT / "bots/python/greedy"), "--rounds", "1", "--jobs", "2", "--seed", "5", "--out", str(out)]
    assert main(argv) == 0
    printed = capsys.readouterr().out
    assert "Elo" in printed and "python-greedy" in printed and "python-random" in printed
    doc = json.loads((out / "results.json").read_text())
    assert len(doc["games"]) == 2 and doc["void"] == []
    names = [[s["name"] for s in g["result"]["seats"]] for g in doc["games"]]
    assert names == [["python-random", "python-greedy"], ["python-greedy", "python-random"]]  # seats rotated
    assert doc["games"][0]["result"]["seed"] == doc["games"][1]["result"]["seed"]  # one deal, both seatings
    for g in doc["games"]:
        replay.verify(replay.load(g["result"]["replay_path"]))
    assert {r["name"]: r["games"] for r in doc["table"]} == {"python-random": 2, "python-greedy": 2}
