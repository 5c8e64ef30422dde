"""`arena bench` reports playout speed and per-call costs (the figures themselves are not asserted)."""

import json

from arena.cli import main


def test_bench_prints_speed_figures(capsys):
    assert main(["bench", "thebes", "--players", "4", "--games", "20", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    for key in ("games_per_second", "decisions_per_second", "clone_us", "apply_us", "legal_actions_us"):
        assert out[key] > 0
    assert out["games"] == 20 and out["decisions"] > 20
