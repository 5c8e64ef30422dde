from pathlib import Path

import pytest

from arena.match import BotSpec, TimeControl, run_match

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="session")
def thebes_replay_file(tmp_path_factory):
    """A real 3-player Thebes match between the built-in Python bots (sandboxed), with its replay."""
    path = tmp_path_factory.mktemp("replays") / "thebes.replay.json.gz"
    bots = [BotSpec(str(ROOT / "bots/python/random")), BotSpec(str(ROOT / "bots/python/greedy")),
            BotSpec(str(ROOT / "bots/python/random"))]
    result = run_match("thebes", {"players": 3}, 42, bots, replay_path=str(path),
                       time_control=TimeControl(decision_ms=2000, bank_ms=10_000))
    assert all(s.faults == [] for s in result.seats)
    return path
