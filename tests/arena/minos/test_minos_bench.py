"""`arena bench minos` reports decisions per game and how many of them had a single legal action (figures not
asserted, only their consistency)."""

import json

from arena.cli import main


def test_bench_reports_decisions_and_forced_decisions_per_game(capsys):
    assert main(["bench", "minos", "--players", "2", "--games", "2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["decisions_per_game"] == round(out["decisions"] / 2, 1)
    assert 0 < out["forced_decisions_per_game"] < out["decisions_per_game"]
    assert 0 < out["forced_share"] < 1 and out["legal_actions_per_decision"] > 1
    assert main(["bench", "minos", "--players", "2", "--games", "1"]) == 0
    assert "forced decisions per game" in capsys.readouterr().out
