"""`arena replay ask` rebuilds the request a seat got at any decision of a real match and sends it to a bot folder
(any language, sandboxed or not); `arena replay show --turns` prints a range of turns with each bot's annotation
beside its turns."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena import botlogs, replay
from arena.cli import main
from arena.match import BotSpec, TimeControl, run_match

pytestmark = pytest.mark.sandbox

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def match(tmp_path_factory):
    """Thebes, the C++ random bot (it annotates each decision with its number of legal actions) against the
    Python greedy bot, sandboxed."""
    path = tmp_path_factory.mktemp("ask") / "m.replay.json.gz"
    bots = [BotSpec(str(ROOT / "bots/cpp/random")), BotSpec(str(ROOT / "bots/python/greedy"))]
    result = run_match("thebes", {"players": 2}, 7, bots, replay_path=str(path),
                       time_control=TimeControl(decision_ms=2000, bank_ms=10_000))
    assert all(s.faults == [] for s in result.seats)
    return path


def _annotations(path):
    return {d["decision"]: d["annotation"] for s in botlogs.load(botlogs.logs_path(path))["seats"]
            for d in s["decisions"] if d["annotation"]}


def test_ask_sends_the_recorded_position(match, capsys):
    rp = replay.load(match)
    notes = _annotations(match)
    # a decision of the C++ seat with a choice: its answer now names the same number of legal actions
    d = next(i for i, x in enumerate(rp["decisions"]) if x["seat"] == 0 and not x["forced"] and i > 3)
    assert main(["replay", "ask", str(match), "--decision", str(d), "--bot", str(ROOT / "bots/cpp/random"),
                 "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["seat"] == 0 and answer["recorded"] == rp["decisions"][d]["action"]
    assert answer["answer"] in answer["legal"] and answer["error"] == ""
    assert answer["annotation"] == notes[d] == f"random among {len(answer['legal'])} legal actions"
    # the greedy bot is deterministic: asked again, unsandboxed, it answers what it played
    g = next(i for i, x in enumerate(rp["decisions"]) if x["seat"] == 1 and not x["forced"] and i > 3)
    assert main(["replay", "ask", str(match), "--decision", str(g), "--bot", str(ROOT / "bots/python/greedy"),
                 "--no-sandbox"]) == 0
    out = capsys.readouterr().out
    assert f"recorded: {rp['decisions'][g]['action']}\nanswer:   {rp['decisions'][g]['action']}  [" in out


def test_ask_refuses_a_decision_that_does_not_exist(match, capsys):
    n = len(replay.load(match)["decisions"])
    assert main(["replay", "ask", str(match), "--decision", str(n), "--bot", str(ROOT / "bots/cpp/random")]) == 2
    assert f"decisions 0..{n - 1}" in capsys.readouterr().err


def test_show_a_range_of_turns_with_annotations(match, capsys):
    notes = _annotations(match)
    assert main(["replay", "show", str(match), "--turns", "3-6"]) == 0
    out = capsys.readouterr().out
    shown = [line for line in out.splitlines() if line[:5].strip().rstrip(".").isdigit()]
    assert [int(line.split(".")[0]) for line in shown] == [3, 4, 5, 6]
    assert "start:" not in out and "result:" not in out
    for d in range(2, 6):
        if d in notes:
            assert f"note: {notes[d]}" in out
    # from the greedy seat's view the C++ bot's notes are not shown
    assert main(["replay", "show", str(match), "--turns", "1-", "--seat", "1"]) == 0
    out = capsys.readouterr().out
    assert "start:" in out and "result:" in out and "note: random among" not in out
    assert main(["replay", "show", str(match), "--turns", "5-2"]) == 2
    assert "--turns" in capsys.readouterr().err
