"""A table with several people, played by a real Celery worker on the people's queue with the sandboxed built-in
random bot: two people set and join a 3-seat Minos table through its invitation, the match starts only then,
and both answer every decision through `POST /matches/<id>/play/` until the game ends; while it runs neither can
see the other's seat (its turn, its live view, its frames, the replay: refused) nor act for it, and nothing the
API says of the running match holds a hand. People who leave lose on time: their seats time out, are
disqualified, the bot's seat finishes the game and nothing is left waiting."""

from __future__ import annotations

import json
import random
import time

import pytest

from tests.platform.web.test_play_bridge import client_of, post
from tests.platform.web.test_play_form import house  # noqa: F401  (a fixture)

pytestmark = [pytest.mark.sandbox, pytest.mark.django_db(transaction=True), pytest.mark.timeout(500)]


def set_and_fill(ann, bea, bot, clock):
    """Ann sets a Minos 3-player table (her at seat 1, a person at 2, the bot at 3); Bea takes the free seat."""
    from tables import services
    from tables.models import Table

    new = services.create(user=ann, game="minos", players=3, seat=0, others=[None, bot.playing_version],
                          clock=clock)
    assert new.table.match is None  # nothing queued while a person's seat is free
    services.join(new.key, bea)
    table = Table.objects.select_related("match").get(pk=new.table.pk)
    assert table.status == Table.Status.STARTED
    return table.match


def done(match) -> bool:
    from matches.models import Match

    return Match.objects.get(pk=match.pk).done


def refused_the_other_seat(nosy, match, seat: int, decision: int, secret: set[str]) -> None:
    """Everything the person at the other seat could ask about `seat` while the match runs is refused, and what
    they may read (the match's page, the API) names none of the `secret` cards in its hand."""
    base = f"/matches/{match.pk}"
    page = nosy.get(f"{base}/").content.decode()
    assert not any(card in page for card in secret)
    assert nosy.get(f"{base}/play/", {"seat": seat}).status_code == 403
    assert post(nosy, match, seat=seat, decision=decision, action="pick:S1").status_code == 403
    assert nosy.get(f"{base}/live/", {"seat": seat}).status_code == 403
    assert nosy.get(f"{base}/frames.json", {"seat": seat}).status_code in (403, 404)
    assert nosy.get(f"{base}/replay.json.gz").status_code in (403, 404)
    api = nosy.get(f"/api/matches/{match.pk}/")
    assert api.status_code == 200 and not any(card in api.content.decode() for card in secret)


def test_two_people_and_the_random_bot_play_a_whole_minos_game_at_a_table(celery_worker, house, make_user):  # noqa: F811
    from arena import replay as replays
    from matches.models import Match

    _, minos_bot = house
    ann, bea = make_user("ann"), make_user("bea")
    match = set_and_fill(ann, bea, minos_bot, {"decision_ms": 60_000, "bank_ms": 120_000})
    clients = {0: client_of(ann), 1: client_of(bea)}
    rng = random.Random(25)
    last: dict[int, int | None] = {0: None, 1: None}
    answered = {0: 0, 1: 0}
    hands_checked = 0
    seen_by: dict[int, dict] = {0: {}, 1: {}}  # the latest observation each seat was shown
    deadline = time.monotonic() + 400
    while not done(match):
        assert time.monotonic() < deadline, "the game did not end"
        for seat, c in clients.items():
            resp = c.get(f"/matches/{match.pk}/play/", {"seat": seat})
            if resp.status_code != 200 or resp.json()["decision"] == last[seat]:
                continue
            turn = resp.json()
            assert turn["seat"] == seat and turn["time_left"]["decision_ms"] == 60_000  # the people's preset
            seen_by[seat] = turn["observation"]
            hand = set(turn["observation"]["player_states"][seat].get("hand") or [])
            # the cards of this hand the other person was never shown (not taken from the open offer)
            shown = set((seen_by[1 - seat].get("player_states") or [{}, {}])[seat].get("hand") or [])
            secret = hand - shown
            if secret and hands_checked < 3:
                refused_the_other_seat(clients[1 - seat], match, seat, turn["decision"], secret)
                hands_checked += 1
            ok = post(c, match, seat=seat, decision=turn["decision"], action=rng.choice(turn["legal"])["text"])
            assert ok.status_code == 200, ok.content
            last[seat] = turn["decision"]
            answered[seat] += 1
        time.sleep(0.05)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED, match.status_reason
    assert hands_checked >= 1 and min(answered.values()) > 5
    seats = match.result["seats"]
    assert [s["name"] for s in seats[:2]] == ["ann", "bea"]
    assert not any(s.get("faults") for s in seats), json.dumps(seats)[:2000]
    replay = replays.load(match.replay_file)
    replays.verify(replay)
    clocks = {s["seat"]: s.get("time_control", {}).get("decision_ms") for s in replay["header"]["seats"]}
    assert clocks == {0: 60_000, 1: 60_000, 2: None}  # the bot played on the ladder's clock
    assert match.participants.get().elo_after is None  # unrated


def test_people_who_leave_lose_on_time_and_the_match_ends(celery_worker, house, make_user):  # noqa: F811
    from matches import live, people
    from matches.models import Match

    _, minos_bot = house
    match = set_and_fill(make_user("ann"), make_user("bea"), minos_bot, {"decision_ms": 300, "bank_ms": 300})
    deadline = time.monotonic() + 300
    while not done(match):
        assert time.monotonic() < deadline, "the match did not end"
        time.sleep(0.5)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED, match.status_reason
    seats = match.result["seats"]
    for seat in seats[:2]:
        assert seat["disqualified"] and seat["faults"][-1]["kind"] == "disqualified"
        assert {f["kind"] for f in seat["faults"][:-1]} == {"timeout"}
    assert not seats[2].get("faults") and seats[2]["rank"] == 1  # the bot played on and won
    conn = live.client()
    try:
        assert not any(conn.exists(people.turn_key(match.pk, s), people.answer_key(match.pk, s)) for s in (0, 1))
    finally:
        conn.close()


def test_at_a_table_one_person_resigns_the_other_plays_on_and_when_both_are_out_the_match_ends_at_once(
        celery_worker, house, make_user):  # noqa: F811
    """Bea resigns mid-game: she cannot resign Ann's seat, her seat is never asked again, Ann keeps being asked.
    Then Ann resigns too: with no person left the bot finishes the game on substitutes at once (the people's clock
    is of minutes). Both rank behind the bot; nothing is left in Redis."""
    from matches import live, people
    from matches.models import Match
    from tests.platform.web.test_play_bridge import resign

    _, minos_bot = house
    ann, bea = make_user("ann"), make_user("bea")
    match = set_and_fill(ann, bea, minos_bot, {"decision_ms": 600_000, "bank_ms": 600_000})
    a, b = client_of(ann), client_of(bea)
    rng = random.Random(7)
    deadline = time.monotonic() + 300
    answered_after = 0  # Ann's decisions answered after Bea resigned
    bea_out = False
    last = None
    while answered_after < 3:
        assert time.monotonic() < deadline and not done(match), "Ann was not asked after Bea resigned"
        if not bea_out:
            turn = b.get(f"/matches/{match.pk}/play/", {"seat": 1})
            if turn.status_code == 200:  # asked: Bea resigns (and cannot resign Ann's seat)
                assert resign(b, match, seat=0).status_code == 403
                assert resign(b, match, seat=1).status_code == 200
                bea_out = True
        resp = a.get(f"/matches/{match.pk}/play/", {"seat": 0})
        if resp.status_code == 200 and resp.json()["decision"] != last:
            turn = resp.json()
            assert post(a, match, seat=0, decision=turn["decision"],
                        action=rng.choice(turn["legal"])["text"]).status_code == 200
            last = turn["decision"]
            answered_after += bea_out
        time.sleep(0.05)
    assert b.get(f"/matches/{match.pk}/play/", {"seat": 1}).status_code == 410  # told she resigned
    assert resign(a, match, seat=0).status_code == 200
    while not done(match):
        assert time.monotonic() < deadline, "the match waited on the resigned people's clocks"
        time.sleep(0.5)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED, match.status_reason
    seats = match.result["seats"]
    for seat in seats[:2]:
        assert seat["disqualified"] and [f["kind"] for f in seat["faults"]] == ["resigned", "disqualified"]
    resigned_at = {s: seats[s]["faults"][0]["decision"] for s in (0, 1)}
    assert resigned_at[1] < resigned_at[0]
    assert seats[2]["rank"] == 1 and sorted(s["rank"] for s in seats[:2]) == [2, 3]
    conn = live.client()
    try:
        assert not any(conn.exists(people.turn_key(match.pk, s), people.answer_key(match.pk, s),
                                   people.resign_key(match.pk, s)) for s in (0, 1))
    finally:
        conn.close()
