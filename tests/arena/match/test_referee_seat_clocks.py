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
from arena.v1 import arena_pb2

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


class Resigning(Scripted):
    """A person who answers like `Scripted`, and resigns: on their own decision number `own` (the decide then
    comes back without an answer, as the browser's wakes up), or when `trigger` is set by someone else."""

    def __init__(self, seed: int, own: int | None = None):
        super().__init__(seed)
        self.own = own
        self.gave_up = False
        self.asked_after = 0  # decisions asked after resigning: must stay 0

    def decide(self, request, wait_s):
        if self.gave_up:
            self.asked_after += 1
        if self.own is not None and len(self.messages) - 1 == self.own:
            self.messages.append(request)
            self.gave_up = True
            return None
        return super().decide(request, wait_s)

    def resigned(self):
        return self.gave_up


def _faults(seat):
    return [(f.kind, f.decision) for f in seat.faults]


def test_a_person_who_resigns_on_their_turn_is_out_ranked_last_and_the_match_ends_normally(tmp_path):
    """Resigning is not a timeout: no fault is counted, the seat is disqualified at that decision, never asked
    again, ranked last, its remaining decisions are the referee's substitutes, and the replay verifies."""
    quitter = Resigning(3, own=2)
    # a clock of minutes: the match must end without waiting on it
    long = TimeControl(decision_ms=600_000, bank_ms=600_000, startup_ms=20_000)
    result = run_match("thebes", {}, 31, [BotSpec("", name="quits"), BotSpec(str(ROOT / "bots/python/random"))],
                       people={0: quitter}, time_control=TimeControl(startup_ms=20_000),
                       seat_time_controls={0: long}, replay_path=str(tmp_path / "m.replay.json.gz"))
    assert not result.void
    out, bot = result.seats
    decision = quitter.messages[3].decision  # the third DecideRequest it was sent (after StartMatch)
    assert _faults(out) == [(FaultKind.RESIGNED, decision), (FaultKind.DISQUALIFIED, decision)]
    assert out.disqualified and out.rank == 2 and bot.rank == 1 and not bot.faults
    assert quitter.asked_after == 0 and out.substituted > 0
    replay = replays.load(result.replay_path)
    replays.verify(replay)  # the ranks re-simulated: the resigned seat last
    record = replay["decisions"][decision]
    assert record["seat"] == 0 and record["substitute"] and record["fault"]["kind"] == "resigned"
    later = [d for d in replay["decisions"][decision + 1:] if d["seat"] == 0]
    assert later and all(d["substitute"] or d["forced"] for d in later) and not any(d["fault"] for d in later)


def test_a_resignation_on_another_seats_turn_takes_effect_at_the_next_decision_and_all_people_gone_ends_the_match():
    """Two people in nim: the second resigns while the first is asked; the first resigns later on their own turn.
    Neither is asked again; with no person left the match finishes on substitute moves, not on the clock."""
    first, second = Resigning(1, own=3), Resigning(2)

    def answer(request):  # the first person's answer; as they decide, the second one resigns from their tab
        if len(first.messages) == 3:
            second.gave_up = True
        return arena_pb2.DecideResponse(index=0)

    first.answer = answer
    long = TimeControl(decision_ms=600_000, bank_ms=600_000)
    result = run_match("nim", {}, 5, [BotSpec("", name="a"), BotSpec("", name="b")],
                       people={0: first, 1: second}, time_control=long, sandbox=False)
    a, b = result.seats
    resigned_at = first.messages[2].decision + 1  # noticed before the decision after the one being asked
    assert _faults(b) == [(FaultKind.RESIGNED, resigned_at), (FaultKind.DISQUALIFIED, resigned_at)]
    assert [k for k, _d in _faults(a)] == [FaultKind.RESIGNED, FaultKind.DISQUALIFIED]
    assert first.asked_after == 0 and second.asked_after == 0
    assert a.disqualified and b.disqualified and sorted([a.rank, b.rank]) == [1, 2]
