"""Forced decisions (TimeControl.auto_single_action, on by default): a decision with exactly one legal action is
applied by the referee without asking the bot — no call, no time charged, no fault possible — and the replay marks
it `"forced": true`; `verify` still passes and refuses a replay that marks a real choice as forced. Off, every
decision is asked.

Two `reporter` bots always take 1 stone, so every Nim game between them ends on one forced decision (1 stone
left: "take 1" is the only legal action) and every other decision is a choice."""

import copy
import random
import re

import pytest
from referee_helpers import QUICK, play_nim

from arena import games, replay
from arena.commands.replay import show_lines
from arena.games.policy import RandomPolicy, play_game
from arena.match import TimeControl


def _asked(log: list[str]) -> list[tuple[int, int]]:
    """(decision index, number of legal actions) of every Decide call a reporter bot logged."""
    return [(int(d), int(n)) for d, n in re.findall(r"decide decision=(\d+) seat=\d legal=(\d+)", "\n".join(log))]


def test_a_single_legal_action_is_applied_without_asking_and_marked_forced(tmp_path):
    logs: list = []
    result = play_nim("reporter", "reporter", replay_path=tmp_path / "r.replay.json.gz", logs=logs)
    rp = replay.load(result.replay_path)
    records = rp["decisions"]
    forced = [i for i, d in enumerate(records) if d["forced"]]
    assert forced == [len(records) - 1] and records[-1]["action"] == "take 1"  # the last stone, nothing else
    last = records[-1]
    assert last["ms"] == 0 and last["fault"] is None
    asked = [_asked(log) for log in logs]
    assert all(n > 1 for seat in asked for _, n in seat)  # no bot was asked a question with one answer
    assert sorted(i for seat in asked for i, _ in seat) == list(range(len(records) - 1))
    mover = last["seat"]
    assert result.seats[mover].forced == 1 and result.seats[1 - mover].forced == 0
    for s in result.seats:  # decisions counts the questions; forced ones cost no time
        assert s.decisions == len(asked[s.seat]) == sum(1 for d in records if d["seat"] == s.seat and not d["forced"])
        assert s.faults == []
        assert s.time_ms == pytest.approx(sum(d["ms"] for d in records if d["seat"] == s.seat), abs=0.01)
    assert rp["header"]["time_control"]["auto_single_action"] is True
    replay.verify(rp)
    frames = replay.frames(rp)
    assert frames[-1]["forced"] and not any(f["forced"] for f in frames[:-1])
    assert "take 1  [forced: the only legal action]" in "\n".join(show_lines(rp))


def test_with_the_option_off_every_decision_is_asked(tmp_path):
    logs: list = []
    tc = TimeControl(**{**QUICK.to_dict(), "auto_single_action": False})
    result = play_nim("reporter", "reporter", time_control=tc, replay_path=tmp_path / "r.replay.json.gz", logs=logs)
    records = replay.load(result.replay_path)["decisions"]
    assert not any(d["forced"] for d in records)
    asked = [_asked(log) for log in logs]
    assert sorted(i for seat in asked for i, _ in seat) == list(range(len(records)))
    assert (len(records) - 1, 1) in asked[records[-1]["seat"]]  # the one-answer question was asked
    assert [s.forced for s in result.seats] == [0, 0]
    assert [s.decisions for s in result.seats] == [len(a) for a in asked]


def test_a_replay_that_marks_a_choice_as_forced_does_not_verify(tmp_path):
    result = play_nim("reporter", "reporter", replay_path=tmp_path / "r.replay.json.gz")
    bad = copy.deepcopy(replay.load(result.replay_path))
    bad["decisions"][0]["forced"] = True  # a full pile: three legal actions
    with pytest.raises(replay.ReplayMismatch, match="decision 0 .*marked forced, but 3 actions were legal"):
        replay.verify(bad)


def test_a_forced_decision_is_not_shown_as_forced_where_the_action_is_hidden():
    """A single legal action can depend on what a seat holds: a seat's view of another seat's hidden decision
    does not say it was forced. Minos hides a `keep:` choice from the other seats."""
    game = games.load("minos", players=2)
    decisions: list = []

    def record(seat, action, events):
        decisions.append({"seat": seat, "action": str(action), "ms": 0.0, "fault": None, "forced": True,
                          "events": events})

    state, _ = play_game(game, 7, [RandomPolicy(), RandomPolicy()], [random.Random(1), random.Random(2)],
                         on_decision=record)
    rp = replay.of_played(game, 7, state, decisions, ["a", "b"])
    for frame in replay.frames(rp, seat=0)[1:]:
        assert frame["forced"] == (frame["action"] is not None)
        # nor its time: a forced decision takes 0 ms
        assert (frame["ms"] is None) == (frame["action"] is None)
