"""The result of a match, typed: what the referee returns, replays record and the platform stores (its JSON form),
read back by `MatchResult.from_json` with fault kinds as `FaultKind`."""

from __future__ import annotations

import json
import random

import pytest

from arena import games
from arena import replay as replays
from arena.games.policy import RandomPolicy
from arena.match import Fault, FaultKind, MatchResult, SeatResult


def a_result() -> MatchResult:
    return MatchResult(game="thebes", params={"players": 2}, seed=7, engine_version="thebes-1", seats=[
        SeatResult(seat=0, name="a", sha256="0" * 64, score=3.0, rank=1, time_ms=12.5, decisions=30, forced=2),
        SeatResult(seat=1, name="b", sha256="1" * 64, score=1.0, rank=2, disqualified=True, faults=[
            Fault(FaultKind.TIMEOUT, "no answer within 1000 ms", decision=4),
            Fault(FaultKind.DISQUALIFIED, "more than 3 faults", decision=9)])],
        replay_path="/tmp/x.replay.json.gz")


def test_the_json_form_is_plain_json_and_reads_back_equal():
    result = a_result()
    data = result.to_json()
    assert json.loads(json.dumps(data)) == data  # nothing that JSON would change
    kinds = [f["kind"] for f in data["seats"][1]["faults"]]
    assert kinds == ["timeout", "disqualified"] and all(type(k) is str for k in kinds)
    again = MatchResult.from_json(json.loads(json.dumps(data)))
    assert again.to_json() == data
    assert [s.name for s in again.seats] == ["a", "b"] and again.seats[1].disqualified
    assert again.seats[1].faults[0].kind is FaultKind.TIMEOUT


def test_a_fault_kind_is_its_stored_string():
    assert FaultKind.CRASH == "crash" and "crash" in {FaultKind.CRASH}
    assert Fault("crash", "m").kind is FaultKind.CRASH  # a plain string naming a kind is taken as it


def test_an_unknown_fault_kind_is_refused():
    data = a_result().to_json()
    data["seats"][1]["faults"][0]["kind"] = "exploded"
    with pytest.raises(ValueError):
        MatchResult.from_json(data)
    with pytest.raises(ValueError):
        Fault("exploded", "m")


def test_a_result_stored_before_a_field_existed_still_reads():
    data = a_result().to_json()
    for seat in data["seats"]:
        del seat["forced"], seat["time_ms"]
        seat["a field from the future"] = 1
    old = MatchResult.from_json(data)
    assert [s.forced for s in old.seats] == [0, 0] and [s.time_ms for s in old.seats] == [0.0, 0.0]


def test_a_replay_records_the_result_in_its_json_form():
    game = games.load("thebes", players=2)
    replay = replays.of_selfplay(game, 3, [RandomPolicy(), RandomPolicy()], [random.Random(1), random.Random(2)],
                                 ["a", "b"])
    result = MatchResult.from_json(replay["result"])
    assert [s.name for s in result.seats] == ["a", "b"] and result.seed == 3
    assert result.to_json() == {**replay["result"], "replay_path": None}
