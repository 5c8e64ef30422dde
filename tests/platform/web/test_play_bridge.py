"""A person plays a seat from the browser (matches.people ↔ web.play): the referee runs a real Thebes game with
a `BrowserPerson` in seat 0 against the random bot, over the real Redis, and a scripted person answers every
decision through `POST /matches/<id>/play/`. Forged answers — anonymous, another user, another seat, a stale
decision, an action outside the legal list, a second answer — get a clear 4xx and change nothing; a person who
never answers loses on time and the match ends with nothing left waiting."""

from __future__ import annotations

import json
import random
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from django.test import Client

from arena import replay as replays
from arena.match import BotSpec, FaultKind, TimeControl, run_match
from tests.platform.web.test_live_watch import events_of

ROOT = Path(__file__).resolve().parents[3]
#: How long the test waits for the worker's side to ask (generous: the machine may be slow; no timing asserted).
WAIT_S = 120


@pytest.fixture
def table(db, make_user):
    from matches.models import Match

    match = Match.objects.create(kind=Match.Kind.CHALLENGE, rated=False, game="thebes", params={"players": 2},
                                 seed=2501, status=Match.Status.RUNNING)
    return match, make_user("player"), make_user("intruder")


def client_of(user=None) -> Client:
    c = Client()
    if user is not None:
        c.force_login(user)
    return c


def start_match(match, user, tmp_path, tc: TimeControl):
    """Run the match in a thread as the worker does: the person in seat 0, the random bot in seat 1."""
    from matches.people import BrowserPerson

    out: dict = {}

    def run():
        out["result"] = run_match(
            "thebes", {}, match.seed, [BotSpec("", name=user.username), BotSpec(str(ROOT / "bots/python/random"))],
            people={0: BrowserPerson(match.pk, 0, user.pk)}, time_control=tc,
            replay_path=str(tmp_path / "m.replay.json.gz"))

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, out


def next_turn(c: Client, match, running: Callable[[], bool], last: int | None, seat: int = 0,
              wait_s: float = WAIT_S):
    """The next decision asked of `seat` after `last`, or None once the match is over (`running()` false)."""
    deadline = time.monotonic() + wait_s
    while time.monotonic() < deadline:
        resp = c.get(f"/matches/{match.pk}/play/", {"seat": seat})
        if resp.status_code == 200 and resp.json()["decision"] != last:
            return resp.json()
        assert resp.status_code in (200, 204, 409), resp.content  # 409: the match is over
        if not running():
            return None
        time.sleep(0.02)
    raise AssertionError("the worker never asked")


def play_to_the_end(c: Client, match, running: Callable[[], bool], turn, seed: int, seat: int = 0) -> int:
    """Answer every decision asked of `seat` with a seeded random legal action through the endpoint, from `turn`
    until the match is over; the number of answers."""
    rng = random.Random(seed)
    answered = 0
    while turn is not None:
        choice = rng.choice(turn["legal"])["text"]
        resp = post(c, match, seat=seat, decision=turn["decision"], action=choice)
        assert resp.status_code == 200, resp.content
        answered += 1
        turn = next_turn(c, match, running, turn["decision"], seat)
    return answered


def post(c: Client, match, **body):
    return c.post(f"/matches/{match.pk}/play/", json.dumps(body), content_type="application/json")


def test_a_person_plays_a_whole_game_through_the_endpoint_and_forged_answers_are_refused(table, tmp_path):
    match, player, intruder = table
    tc = TimeControl(decision_ms=60_000, bank_ms=60_000, startup_ms=60_000)
    thread, out = start_match(match, player, tmp_path, tc)
    me, them, anon = client_of(player), client_of(intruder), client_of()

    turn = next_turn(me, match, thread.is_alive, None)
    assert turn["seat"] == 0 and turn["legal"] and "user" not in turn
    assert turn["time_left"] == {"decision_ms": 60_000, "bank_ms": 60_000}
    legal = [a["text"] for a in turn["legal"]]
    assert all(a["kind"] == a["text"].split(" ")[0] for a in turn["legal"])  # grouped by their first word
    d = turn["decision"]
    # only the seat's user sees the turn
    assert anon.get(f"/matches/{match.pk}/play/", {"seat": 0}).status_code == 401
    assert them.get(f"/matches/{match.pk}/play/", {"seat": 0}).status_code == 403
    # forged answers: each refused, with a reason, and the decision is still open afterwards
    refused = [
        (anon, {"seat": 0, "decision": d, "action": legal[0]}, 401),
        (them, {"seat": 0, "decision": d, "action": legal[0]}, 403),
        (me, {"seat": 1, "decision": d, "action": legal[0]}, 409),   # the bot's seat: not asked, not the person's
        (me, {"seat": 7, "decision": d, "action": legal[0]}, 400),   # no such seat
        (me, {"seat": 0, "decision": d + 1, "action": legal[0]}, 409),  # not the current decision
        (me, {"seat": 0, "decision": d - 1, "action": legal[0]}, 409),
        (me, {"seat": 0, "decision": str(d), "action": legal[0]}, 409),
        (me, {"seat": 0, "decision": d, "action": "take everything"}, 400),  # outside the legal list
        (me, {"seat": 0, "decision": d, "action": 0}, 400),
    ]
    for c, body, status in refused:
        resp = post(c, match, **body)
        assert resp.status_code == status, (body, resp.content)
        assert resp.json()["error"]
    assert me.post(f"/matches/{match.pk}/play/", "[1, 2", content_type="application/json").status_code == 400
    assert me.get(f"/matches/{match.pk}/play/", {"seat": 0}).json()["decision"] == d  # still asked

    assert post(me, match, seat=0, decision=d, action=legal[0]).status_code == 200
    # a second answer to the same decision (a double click) is refused
    assert post(me, match, seat=0, decision=d, action=legal[-1]).status_code == 409
    answered = 1 + play_to_the_end(me, match, thread.is_alive, next_turn(me, match, thread.is_alive, d), 7)
    thread.join(WAIT_S)
    result = out["result"]
    assert not result.void and answered > 5
    assert not result.seats[0].faults and not result.seats[0].disqualified
    replay = replays.load(result.replay_path)
    replays.verify(replay)  # the game replays from its seed and actions, like any other
    assert post(me, match, seat=0, decision=0, action=legal[0]).status_code == 409  # over: nothing is asked


def test_a_person_who_never_answers_loses_on_time_and_nothing_is_left_waiting(table, tmp_path):
    from matches import live, people

    match, player, _ = table
    tc = TimeControl(decision_ms=200, bank_ms=200, startup_ms=60_000, max_faults=2)
    thread, out = start_match(match, player, tmp_path, tc)
    thread.join(WAIT_S)
    assert not thread.is_alive()
    seat = out["result"].seats[0]
    assert seat.disqualified
    assert [f.kind for f in seat.faults] == [FaultKind.TIMEOUT] * 3 + [FaultKind.DISQUALIFIED]
    conn = live.client()
    try:
        assert not conn.exists(people.turn_key(match.pk, 0), people.answer_key(match.pk, 0))
    finally:
        conn.close()
    assert client_of(player).get(f"/matches/{match.pk}/play/", {"seat": 0}).status_code == 204


def test_a_turn_groups_actions_by_their_first_word_in_both_games_and_shows_only_the_request():
    from arena.v1 import arena_pb2
    from matches.people import turn

    request = arena_pb2.DecideRequest(decision=4, seat=1, time_left=arena_pb2.TimeLeft(decision_ms=30_000, bank_ms=5))
    for i, text in enumerate(["dig egypt 3", "draft:red1:build", "end"]):
        request.legal_actions.add(index=i, text=text)
    shown = turn(request, user_id=9, deadline=100.0)
    assert [a["kind"] for a in shown["legal"]] == ["dig", "draft", "end"]
    assert shown == {"user": 9, "decision": 4, "seat": 1, "observation": {}, "deadline": 100.0,
                     "time_left": {"decision_ms": 30_000, "bank_ms": 5}, "legal": shown["legal"]}


def test_the_turn_is_pushed_on_the_persons_own_seat_stream_in_words_and_to_nobody_else(table, tmp_path):
    """The decision asked arrives as the event `turn` on the seat's own live stream (the page needs no polling),
    its actions in words with the board thing each is about; the same stream, opened by anyone else, is refused;
    the public stream carries no turn."""
    match, player, intruder = table
    match.people = {"0": player.pk}
    match.save(update_fields=["people"])
    tc = TimeControl(decision_ms=60_000, bank_ms=60_000, startup_ms=60_000)
    thread, _out = start_match(match, player, tmp_path, tc)
    me = client_of(player)
    first = next_turn(me, match, thread.is_alive, None)
    assert client_of(intruder).get(f"/matches/{match.pk}/live/", {"seat": 0}).status_code == 403
    stream = me.get(f"/matches/{match.pk}/live/", {"seat": 0}, HTTP_ACCEPT_LANGUAGE="pt-BR")
    pushed = None
    buffer = ""
    for chunk in stream.streaming_content:  # (left unfinished: response.close() would close the test's database)
        buffer += chunk.decode() if isinstance(chunk, bytes) else chunk
        turns = [e for e in events_of(buffer) if e["event"] == "turn"]
        if turns:
            pushed = json.loads(turns[0]["data"])
            break
    assert pushed is not None and pushed["decision"] == first["decision"] and "user" not in pushed
    assert [a["text"] for a in pushed["legal"]] == [a["text"] for a in first["legal"]]
    for a in pushed["legal"]:  # the board thing each action is about: the card taken, Warsaw, the site dug
        kind, *rest = a["text"].split()
        assert a["target"] == {"take": {"kind": "card", "id": rest[0] if rest else ""},
                               "exhibit": {"kind": "card", "id": rest[0] if rest else ""},
                               "exchange": {"kind": "place", "id": "warsaw"},
                               "dig": {"kind": "place", "id": rest[0] if rest else ""}}.get(kind), a
        assert a["label"] != a["text"] and a["group"] and a["ends_turn"]  # every Thebes action is a whole turn
    takes = [a for a in pushed["legal"] if a["text"].startswith("take ")]
    assert takes and takes[0]["label"].startswith("Pegar ") and takes[0]["group"] == "Pegar uma carta de pesquisa"
    post(me, match, seat=0, decision=first["decision"], action=first["legal"][0]["text"])
    play_to_the_end(me, match, thread.is_alive, next_turn(me, match, thread.is_alive, first["decision"]), 11)
    thread.join(WAIT_S)
    from matches import live

    conn = live.client()
    try:  # turns go on the person's own stream only, never on the spectators'
        assert not [e for _id, e in conn.xrange(live.key(match.pk)) if b"turn" in e]
        assert len([e for _id, e in conn.xrange(live.key(match.pk, 0)) if b"turn" in e]) > 5
    finally:
        conn.close()



def resign(c: Client, match, **body):
    return c.post(f"/matches/{match.pk}/play/resign/", json.dumps(body), content_type="application/json")


def test_a_person_resigns_mid_game_the_bots_finish_it_at_once_and_forged_resignations_are_refused(table, tmp_path):
    """The person resigns while their decision is asked (a clock of minutes: the wait must end at once): the seat
    is out (resigned, then disqualified; ranked last), the bot plays on against the referee's substitutes, the
    replay verifies, nothing is left in Redis. Forged resignations — anonymous, another user, the bot's seat, no
    such seat, without the CSRF token, a second one, after the end — are refused and change nothing."""
    from matches import live, people

    match, player, intruder = table
    match.people = {"0": player.pk}
    match.save(update_fields=["people"])
    tc = TimeControl(decision_ms=600_000, bank_ms=600_000, startup_ms=60_000)
    thread, out = start_match(match, player, tmp_path, tc)
    me, them, anon = client_of(player), client_of(intruder), client_of()
    turn = next_turn(me, match, thread.is_alive, None)
    assert post(me, match, seat=0, decision=turn["decision"], action=turn["legal"][0]["text"]).status_code == 200
    turn = next_turn(me, match, thread.is_alive, turn["decision"])

    strict = Client(enforce_csrf_checks=True)
    strict.force_login(player)
    assert strict.post(f"/matches/{match.pk}/play/resign/", json.dumps({"seat": 0}),
                       content_type="application/json").status_code == 403  # no CSRF token
    for c, body, status in [(anon, {"seat": 0}, 401), (them, {"seat": 0}, 403), (me, {"seat": 1}, 403),
                            (me, {"seat": 7}, 400), (me, {"seat": "x"}, 400), (me, {}, 400)]:
        resp = resign(c, match, **body)
        assert resp.status_code == status, (body, resp.content)
        assert resp.json()["error"]
    assert me.get(f"/matches/{match.pk}/play/", {"seat": 0}).json()["decision"] == turn["decision"]  # still asked

    assert resign(me, match, seat=0).json() == {"seat": 0, "resigned": True}
    assert resign(me, match, seat=0).status_code == 409  # not twice
    thread.join(WAIT_S)
    assert not thread.is_alive(), "the match waited on the resigned person's clock"
    result = out["result"]
    seat, bot = result.seats
    assert [f.kind for f in seat.faults] == [FaultKind.RESIGNED, FaultKind.DISQUALIFIED]
    assert seat.faults[0].decision == turn["decision"] and seat.disqualified and seat.rank == 2 and bot.rank == 1
    replays.verify(replays.load(result.replay_path))
    conn = live.client()
    try:
        assert not conn.exists(people.turn_key(match.pk, 0), people.answer_key(match.pk, 0),
                               people.resign_key(match.pk, 0))
    finally:
        conn.close()
    match.status = match.Status.FINISHED
    match.save(update_fields=["status"])
    assert resign(me, match, seat=0).status_code == 409  # the match is over


def test_a_resigned_seats_page_is_told_so_and_only_its_person_is(table):
    """Once resigned, the seat's GET answers 410 to its person (a reopened page says so), 403 to anyone else."""
    from matches import live, people

    match, player, intruder = table
    match.people = {"0": player.pk}
    match.save(update_fields=["people"])
    assert resign(client_of(player), match, seat=0).status_code == 200
    try:
        assert client_of(player).get(f"/matches/{match.pk}/play/", {"seat": 0}).status_code == 410
        assert client_of(intruder).get(f"/matches/{match.pk}/play/", {"seat": 0}).status_code == 403
    finally:
        conn = live.client()
        conn.delete(people.resign_key(match.pk, 0), people.answer_key(match.pk, 0))
        conn.close()
