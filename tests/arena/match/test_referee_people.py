"""A seat played by a person (arena.match.person): the same messages and the same rules as a bot's seat.

The person's side is given only the protobuf messages the referee builds for a bot in that seat; these tests
check, decision by decision, that each DecideRequest a person got is the one the seat's observation and legal
actions make (nothing more reaches them), and that a person's timeouts, illegal answers and leaving are faults
with substitute moves and disqualification, as a bot's are."""

from __future__ import annotations

import random
import time
from pathlib import Path

from referee_helpers import FIXED_KEY

from arena import games
from arena import replay as replays
from arena.match import BotSpec, FaultKind, TimeControl, run_match
from arena.match.protocol import Encoder
from arena.v1 import arena_pb2

ROOT = Path(__file__).resolve().parents[3]


class Scripted:
    """A person who answers at once with a seeded random choice, recording every message they were given."""

    def __init__(self, seed: int, answer=None):
        self.rng = random.Random(seed)
        self.messages: list[object] = []
        self.answer = answer

    def start(self, request):
        self.messages.append(request)

    def decide(self, request, wait_s):
        self.messages.append(request)
        if self.answer is not None:
            return self.answer(request)
        return arena_pb2.DecideResponse(index=self.rng.randrange(len(request.legal_actions)))

    def resigned(self):
        return False

    def end(self, request):
        self.messages.append(request)


class Gone:
    """A person who closed the tab: never answers (waits out every decision's time)."""

    def __init__(self):
        self.asked = 0

    def start(self, request):
        pass

    def decide(self, request, wait_s):
        self.asked += 1
        time.sleep(wait_s)
        return None

    def resigned(self):
        return False

    def end(self, request):
        pass


def test_a_person_gets_exactly_the_requests_a_bot_in_the_seat_would_get(tmp_path):
    person = Scripted(3)
    tc = TimeControl(decision_ms=5000, bank_ms=5000, startup_ms=20_000)
    result = run_match("thebes", {}, 11, [BotSpec("", name="ann"), BotSpec(str(ROOT / "bots/python/random"))],
                       people={0: person}, time_control=tc, replay_path=str(tmp_path / "m.replay.json.gz"),
                       bot_seed_key=FIXED_KEY)
    assert not result.void and result.seats[0].name == "ann" and not result.seats[0].faults
    replay = replays.load(result.replay_path)
    replays.verify(replay)  # the match replays from seed + actions like any other

    start, *decides, end = person.messages
    assert isinstance(start, arena_pb2.StartMatchRequest) and start.seat == 0
    assert isinstance(end, arena_pb2.EndMatchRequest) and end.seat == 0
    assert all(isinstance(m, arena_pb2.DecideRequest) for m in decides)
    # rebuild every request from the replay: the seat's own observation and the legal actions, nothing else
    game = games.load("thebes", players=2)
    encoder = Encoder(game)
    state = game.new_state(11)
    asked = iter(decides)
    for i, d in enumerate(replay["decisions"]):
        if d["seat"] == 0 and not d["forced"]:
            got = next(asked)
            expected = encoder.decide(i, 0, state.observation(0), state.legal_actions(), tc.decision_ms,
                                      got.time_left.bank_ms)
            assert got == expected
        state.apply_text(d["action"])
    assert next(asked, None) is None


def test_a_person_who_leaves_times_out_is_disqualified_and_the_game_ends():
    gone = Gone()
    tc = TimeControl(decision_ms=40, bank_ms=60, max_faults=2)
    result = run_match("nim", {}, 5, [BotSpec("", name="gone"), BotSpec("", name="here")],
                       people={0: gone, 1: Scripted(1)}, time_control=tc, sandbox=False)
    seat = result.seats[0]
    kinds = [f.kind for f in seat.faults]
    assert kinds == [FaultKind.TIMEOUT] * 3 + [FaultKind.DISQUALIFIED]
    assert seat.disqualified and seat.rank == 2 and gone.asked == 3  # never asked again once out
    assert seat.substituted >= 3  # the referee's substitute moves played the seat to the end


def test_an_answer_outside_the_legal_list_is_a_fault_and_the_substitute_move_is_played(tmp_path):
    texts = Scripted(2, answer=lambda r: arena_pb2.DecideResponse(text="take 99"))
    indices = Scripted(2, answer=lambda r: arena_pb2.DecideResponse(index=len(r.legal_actions)))
    tc = TimeControl(decision_ms=1000, bank_ms=0, max_faults=50)
    result = run_match("nim", {}, 5, [BotSpec("", name="a"), BotSpec("", name="b")],
                       people={0: texts, 1: indices}, time_control=tc, sandbox=False,
                       replay_path=str(tmp_path / "nim.replay.json.gz"))
    for seat in result.seats:
        assert seat.faults and all(f.kind == FaultKind.ILLEGAL for f in seat.faults)
        assert seat.substituted == len(seat.faults)
    decisions = replays.load(result.replay_path)["decisions"]
    assert all(d["substitute"] for d in decisions if not d["forced"])
