"""Each seat on its own clock (`run_match(seat_time_controls=)`): a person's preset beside the bots' ladder clock.
A seat's StartMatch, DecideRequests, time limit and fault count follow its own clock; the others keep the match's;
the replay records the seat's own clock."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_referee_people import Gone, Scripted

from arena import replay as replays
from arena.match import BotSpec, FaultKind, TimeControl, run_match
from arena.match.ask import seat_clock

ROOT = Path(__file__).resolve().parents[3]


def test_a_person_on_their_own_clock_beside_a_sandboxed_bot_on_the_ladder_clock(tmp_path):
    person = Scripted(4)
    ladder = TimeControl(decision_ms=1000, bank_ms=5000, startup_ms=20_000)
    own = TimeControl(decision_ms=30_000, bank_ms=120_000, startup_ms=20_000)
    result = run_match("thebes", {}, 21, [BotSpec("", name="ann"), BotSpec(str(ROOT / "bots/python/random"))],
                       people={0: person}, time_control=ladder, seat_time_controls={0: own},
                       replay_path=str(tmp_path / "m.replay.json.gz"))
    assert not result.void and not any(s.faults for s in result.seats)
    start, *decides, _end = person.messages
    assert start.time_control.decision_ms == 30_000 and start.time_control.bank_ms == 120_000
    assert decides and all(r.time_left.decision_ms == 30_000 for r in decides)
    replay = replays.load(result.replay_path)
    replays.verify(replay)
    seats = {s["seat"]: s for s in replay["header"]["seats"]}
    assert seats[0]["time_control"]["decision_ms"] == 30_000 and "time_control" not in seats[1]
    assert replay["header"]["time_control"]["decision_ms"] == 1000
    # `arena replay ask` asks a decision again on the clock its seat played on
    assert seat_clock(replay["header"], 0) == own and seat_clock(replay["header"], 1) == ladder


def test_each_seat_times_out_and_is_disqualified_by_its_own_clock():
    gone, here = Gone(), Scripted(1)
    lenient = TimeControl(decision_ms=5000, bank_ms=5000, max_faults=50)
    tight = TimeControl(decision_ms=40, bank_ms=60, max_faults=1)
    result = run_match("nim", {}, 5, [BotSpec("", name="gone"), BotSpec("", name="here")],
                       people={0: gone, 1: here}, time_control=lenient, seat_time_controls={0: tight},
                       sandbox=False)
    # the tight clock's fault limit, not the match's 50: two timeouts, then out
    assert [f.kind for f in result.seats[0].faults] == [FaultKind.TIMEOUT] * 2 + [FaultKind.DISQUALIFIED]
    assert gone.asked == 2 and result.seats[0].rank == 2
    assert not result.seats[1].faults
    assert all(r.time_left.decision_ms == 5000 for r in here.messages[1:-1])


def test_a_clock_for_a_seat_the_match_does_not_have_is_refused():
    with pytest.raises(ValueError, match="clocks given for seats"):
        run_match("nim", {}, 5, [BotSpec("", name="a"), BotSpec("", name="b")],
                  people={0: Scripted(1), 1: Scripted(2)}, seat_time_controls={2: TimeControl()}, sandbox=False)
