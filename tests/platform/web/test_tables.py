"""Tables with several people (`tables`): a person sets a table from /play/ (a seat for a person they invite, a
bot at the other) and gets its invitation link; another person signed in opens it (a GET takes nothing) and takes
the free seat with a POST; the match is queued only then, with the people's seats on the clock picked and the bot
on its ladder's. Forged, expired, cancelled and reused invitations are refused (404, 410, 409); a table is seen
only by its creator and the people seated; a deleted account's seat at an open table is free again; making tables
is rate-limited."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from tests.platform.web.test_play_bridge import client_of
from tests.platform.web.test_play_form import house  # noqa: F401  (a fixture)


def set_table(c, bot, players=3, seat="0"):
    others = {"opponent1": "person", "opponent2": str(bot.pk), "opponent3": "person"}
    resp = c.post("/play/", {"game": bot.game, "players": str(players), "seat": seat, "clock": "30s",
                             **{k: v for k, v in others.items() if int(k[-1]) < players}})
    assert resp.status_code == 302, resp.content.decode()[-1500:]
    # the key only in the fragment (never sent back to the server), for the page's script to show
    where, _, fragment = resp["Location"].partition("#invite=")
    page = c.get(where)
    assert page.status_code == 200 and "data-invite-box" in page.content.decode()
    assert fragment not in page.content.decode()
    return where, fragment


def csrf_client(user) -> Client:
    c = Client(enforce_csrf_checks=True)
    c.force_login(user)
    return c


def post_with_token(c: Client, url: str):
    page = c.get(url)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.content.decode()).group(1)
    return c.post(url, {"csrfmiddlewaretoken": token})


def test_a_table_is_set_joined_through_its_link_and_its_match_queued(house, make_user):  # noqa: F811
    from ladders.models import Ladder
    from matches.models import Match
    from tables.models import Table, TableSeat

    _, minos_bot = house
    ann, bea = make_user("ann"), make_user("bea")
    a = client_of(ann)
    where, key = set_table(a, minos_bot)
    table = Table.objects.get()
    assert where == f"/tables/{table.pk}/" and table.status == Table.Status.OPEN
    assert len(key) >= 43 and key not in table.key_digest and len(table.key_digest) == 64  # 256 bits; only a hash
    b = csrf_client(bea)
    invite = f"/tables/join/{key}/"
    shown = b.get(invite)
    assert shown.status_code == 200 and shown["Referrer-Policy"] == "same-origin"
    assert "ann" in shown.content.decode() and minos_bot.name in shown.content.decode()
    assert not TableSeat.objects.filter(person=bea).exists() and not Match.objects.exists()  # a GET takes nothing
    assert b.post(invite).status_code == 403  # no CSRF token: refused
    assert client_of(bea).get(where).status_code == 404  # not seated yet: the table is not theirs to see
    assert post_with_token(b, invite).status_code == 302
    table.refresh_from_db()
    assert table.status == Table.Status.STARTED and table.match is not None
    match = table.match
    assert match.kind == Match.Kind.HUMAN and not match.rated
    assert match.people == {"0": ann.pk, "1": bea.pk}
    assert [(p.seat, p.bot_id) for p in match.participants.all()] == [(2, minos_bot.pk)]
    ladder = Ladder.objects.get(game="minos", players=3)
    assert match.time_control == ladder.time_control.to_dict()  # the bot keeps its ladder's clock
    assert set(match.seat_time_controls) == {"0", "1"}  # the people play on the preset
    assert all(tc["decision_ms"] == 30_000 and tc["bank_ms"] == 120_000 for tc in match.seat_time_controls.values())
    state = client_of(bea).get(f"{where}state/").json()
    assert state["match_url"] == f"/matches/{match.pk}/"
    assert [(s["kind"], s["name"]) for s in state["seats"]] == [("person", "ann"), ("person", "bea"),
                                                                 ("bot", minos_bot.active_version.seat_name)]
    # both find the table on their user page
    for name in ("ann", "bea"):
        page = client_of(ann).get(f"/users/{name}/").content.decode()
        assert f"/matches/{match.pk}/" in page and page.count('class="person-seat"') == 2  # both people's seats
    # the same link again: the table is full (409), whoever opens it; the page says so before any POST
    cid = csrf_client(make_user("cid"))
    full = cid.get(invite)
    assert full.status_code == 409 and "data-take-seat" not in full.content.decode()
    assert cid.post(invite, {"csrfmiddlewaretoken": cid.cookies["csrftoken"].value}).status_code == 409
    assert post_with_token(b, invite).status_code == 409


def test_forged_expired_cancelled_and_foreign_tables_are_refused(house, make_user, settings):  # noqa: F811
    from tables.models import Table
    from tables.tasks import expire_tables

    thebes_bot, _ = house
    ann, bea, cid = make_user("ann"), make_user("bea"), make_user("cid")
    a = client_of(ann)
    where, key = set_table(a, thebes_bot, players=2)
    b = client_of(bea)
    assert b.get("/tables/join/" + "A" * 43 + "/").status_code == 404  # a forged key
    assert b.post("/tables/join/" + key[:-1] + "B/").status_code == 404
    assert client_of().get(f"/tables/join/{key}/").status_code == 302  # anonymous: to the log-in
    assert b.get(where).status_code == 404 and b.get(f"{where}state/").status_code == 404
    assert b.post(f"{where}cancel/").status_code == 404  # only its creator cancels
    Table.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    assert b.post(f"/tables/join/{key}/").status_code == 410  # expired, before the sweep
    # beat's sweep (settings.CELERY_BEAT_SCHEDULE) marks it expired
    assert settings.CELERY_BEAT_SCHEDULE["expire-tables"]["task"] == expire_tables.name
    assert expire_tables() == 1 and Table.objects.get().status == Table.Status.EXPIRED
    assert b.post(f"/tables/join/{key}/").status_code == 410
    _, key2 = set_table(a, thebes_bot, players=2)
    t2 = Table.objects.get(status=Table.Status.OPEN)
    assert a.post(f"/tables/{t2.pk}/cancel/").status_code == 302
    assert Table.objects.get(pk=t2.pk).status == Table.Status.CANCELLED
    assert client_of(cid).post(f"/tables/join/{key2}/").status_code == 410
    assert client_of(ann).post(f"/tables/join/{key2}/").status_code == 410


def test_the_creator_cannot_take_a_second_seat_and_a_deleted_accounts_seat_is_free_again(house, make_user):  # noqa: F811
    from accounts.deletion import delete_account
    from tables.models import Table, TableSeat

    thebes_bot, _ = house
    ann, bea = make_user("ann"), make_user("bea")
    a = client_of(ann)
    where, key = set_table(a, thebes_bot, players=4)  # ann, a person, the bot, a person
    assert a.post(f"/tables/join/{key}/").status_code == 409  # already seated
    assert client_of(bea).post(f"/tables/join/{key}/").status_code == 302
    assert TableSeat.objects.filter(person=bea).exists()
    # the open table is on the user pages of the people at it, for themselves only
    assert where in client_of(bea).get("/users/bea/").content.decode()
    assert where in a.get("/users/ann/").content.decode()
    assert where not in client_of(bea).get("/users/ann/").content.decode()
    delete_account(bea)
    assert not TableSeat.objects.filter(person=bea).exists()
    state = a.get(f"{where}state/").json()
    assert [s["kind"] for s in state["seats"]] == ["person", "free", "bot", "free"]
    delete_account(ann)  # the creator goes: their open table is cancelled
    assert Table.objects.get().status == Table.Status.CANCELLED


def test_making_tables_is_rate_limited(house, make_user, settings):  # noqa: F811
    thebes_bot, _ = house
    rates = {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "tables.user": "2/hour"}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    c = client_of(make_user("ann"))
    form = {"game": "thebes", "players": "2", "seat": "0", "clock": "30s", "opponent1": "person"}
    assert [c.post("/play/", form).status_code for _ in range(3)] == [302, 302, 429]


def test_the_api_sits_down_sets_joins_and_cancels_tables_as_the_page_does(house, make_user, client_for):  # noqa: F811
    from matches.models import Match
    from tables.models import Table

    thebes_bot, _ = house
    ann, bea, cid = make_user("ann"), make_user("bea"), make_user("cid")
    a, b, c = client_for(ann), client_for(bea), client_for(cid)
    base = {"game": "thebes", "players": 3, "seat": 0, "clock": "30s"}
    assert client_for().post("/api/tables/", {**base, "opponent1": "person", "opponent2": thebes_bot.pk},
                             format="json").status_code in (401, 403)
    # a match with a seat for a person is a table, and a table needs one
    assert a.post("/api/human-matches/", {**base, "opponent1": "person", "opponent2": thebes_bot.pk},
                  format="json").status_code == 400
    assert a.post("/api/tables/", {**base, "opponent1": thebes_bot.pk, "opponent2": thebes_bot.pk},
                  format="json").status_code == 400
    assert a.post("/api/human-matches/", {**base, "opponent1": 999999, "opponent2": thebes_bot.pk},
                  format="json").status_code == 400  # no such bot
    made = a.post("/api/human-matches/", {**base, "opponent1": thebes_bot.pk, "opponent2": thebes_bot.pk},
                  format="json")
    assert made.status_code == 201 and Match.objects.get(pk=made.json()["match"]).people == {"0": ann.pk}
    resp = a.post("/api/tables/", {**base, "opponent1": "person", "opponent2": thebes_bot.pk}, format="json")
    assert resp.status_code == 201, resp.content
    body = resp.json()
    assert body["invite_url"].endswith(f"/tables/join/{body['key']}/") and body["status"] == "open"
    assert b.get(f"/api/tables/{body['id']}/").status_code == 404  # not at the table
    assert b.post("/api/tables/join/", {"key": body["key"][::-1]}, format="json").status_code == 404
    assert b.post(f"/api/tables/{body['id']}/cancel/").status_code == 404  # not its creator
    joined = b.post("/api/tables/join/", {"key": body["key"]}, format="json")
    assert joined.status_code == 200 and joined.json()["match_url"].startswith("/matches/")
    assert c.post("/api/tables/join/", {"key": body["key"]}, format="json").status_code == 409  # full
    assert a.post(f"/api/tables/{body['id']}/cancel/").status_code == 409  # started
    again = a.post("/api/tables/", {**base, "opponent1": "person", "opponent2": "person"}, format="json").json()
    assert a.post(f"/api/tables/{again['id']}/cancel/").json()["status"] == "cancelled"
    assert c.post("/api/tables/join/", {"key": again["key"]}, format="json").status_code == 410
    assert Table.objects.filter(status=Table.Status.CANCELLED).count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_people_taking_the_last_seat_at_once_start_one_match(house, make_user):  # noqa: F811
    import threading

    from django.db import connection

    from matches.models import Match
    from tables import services

    thebes_bot, _ = house
    new = services.create(user=make_user("ann"), game="thebes", players=2, seat=0, others=[None],
                          clock={"decision_ms": 30_000, "bank_ms": 120_000})
    people = [make_user(f"p{i}") for i in range(4)]
    barrier = threading.Barrier(len(people))
    outcomes: list = []

    def take(user) -> None:
        barrier.wait()
        try:
            services.join(new.key, user)
            outcomes.append("seated")
        except services.TableRefused as exc:
            outcomes.append(exc.status)
        finally:
            connection.close()

    threads = [threading.Thread(target=take, args=(u,)) for u in people]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert sorted(outcomes, key=str) == [409, 409, 409, "seated"]
    assert Match.objects.count() == 1


def test_a_seated_person_leaves_an_open_table_and_the_seat_is_free_again(house, make_user):  # noqa: F811
    """A person who took a seat (not the creator) leaves the open table: the seat is free for the next one with the
    invitation, and the table no longer shows to them. Forged: anyone not seated (404), the creator (409: they
    cancel), a POST without the CSRF token, a GET, leaving twice; the creator can still cancel afterwards."""
    from tables.models import Table, TableSeat

    _, minos_bot = house
    ann, bea, cid, dan, eve = (make_user(n) for n in ("ann", "bea", "cid", "dan", "eve"))
    where, key = set_table(client_of(ann), minos_bot, players=4)  # ann, a person, the bot, a person
    table = Table.objects.get()
    leave = f"{where}leave/"
    assert post_with_token(csrf_client(bea), f"/tables/join/{key}/").status_code == 302
    seat = TableSeat.objects.get(table=table, person=bea)
    page = client_of(bea).get(where).content.decode()
    assert "data-table-leave" in page and "Cancel the table" not in page
    assert "data-table-leave" not in client_of(ann).get(where).content.decode()  # the creator cancels instead

    assert csrf_client(bea).post(leave).status_code == 403  # no CSRF token
    assert client_of(bea).get(leave).status_code == 405
    assert client_of(cid).post(leave).status_code == 404  # not seated: someone else's seat is not theirs to free
    assert Client().post(leave).status_code == 404  # anonymous
    assert client_of(ann).post(leave).status_code == 302  # the creator: refused, back to the table
    seat.refresh_from_db()
    assert seat.person == bea and TableSeat.objects.filter(table=table, person=ann).exists()

    left = client_of(bea).post(leave, follow=True)
    assert left.redirect_chain[-1][0] == "/play/" and "your seat is free again" in left.content.decode()
    seat.refresh_from_db()
    assert seat.person is None and seat.taken_at is None
    table.refresh_from_db()
    assert table.status == Table.Status.OPEN
    assert client_of(bea).get(where).status_code == 404  # not at the table any more
    assert client_of(bea).post(leave).status_code == 404  # twice: no seat to leave
    # the seat is free: someone else with the link takes it; the last seat taken starts the table
    assert post_with_token(csrf_client(dan), f"/tables/join/{key}/").status_code == 302
    assert TableSeat.objects.get(pk=seat.pk).person == dan
    assert post_with_token(csrf_client(eve), f"/tables/join/{key}/").status_code == 302
    table.refresh_from_db()
    assert table.status == Table.Status.STARTED
    assert client_of(dan).post(leave).status_code == 302  # started: refused (resign in the match instead)
    assert TableSeat.objects.get(pk=seat.pk).person == dan


def test_the_creator_still_cancels_after_someone_left(house, make_user, client_for):  # noqa: F811
    from tables.models import Table

    thebes_bot, _ = house
    ann, bea, cid = make_user("ann"), make_user("bea"), make_user("cid")
    a, b, c = client_for(ann), client_for(bea), client_for(cid)
    body = a.post("/api/tables/", {"game": "thebes", "players": 3, "seat": 0, "clock": "30s",
                                   "opponent1": "person", "opponent2": "person"}, format="json").json()
    assert b.post("/api/tables/join/", {"key": body["key"]}, format="json").status_code == 200
    assert c.post(f"/api/tables/{body['id']}/leave/").status_code == 404  # not seated
    assert a.post(f"/api/tables/{body['id']}/leave/").status_code == 409  # its creator
    after = b.post(f"/api/tables/{body['id']}/leave/")
    assert after.status_code == 200 and [s["kind"] for s in after.json()["seats"]] == ["person", "free", "free"]
    assert b.post(f"/api/tables/{body['id']}/leave/").status_code == 404  # twice
    assert b.get(f"/api/tables/{body['id']}/").status_code == 404
    assert a.post(f"/api/tables/{body['id']}/cancel/").json()["status"] == "cancelled"
    assert Table.objects.get().status == Table.Status.CANCELLED
    assert b.post("/api/tables/join/", {"key": body["key"]}, format="json").status_code == 410


def test_the_invitation_page_reads_the_tables_seats_once(house, make_user):  # noqa: F811
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    _, minos_bot = house
    _where, key = set_table(client_of(make_user("ann")), minos_bot)
    bea = client_of(make_user("bea"))
    with CaptureQueriesContext(connection) as seen:
        page = bea.get(f"/tables/join/{key}/")
    assert page.status_code == 200 and "data-take-seat" in page.content.decode()
    assert len([q for q in seen.captured_queries if 'FROM "tables_tableseat"' in q["sql"]]) == 1


def test_joining_tables_is_rate_limited_on_the_page_and_the_api(house, make_user, settings, client_for):  # noqa: F811
    """Each join is a locked transaction: bounded per user as making tables is (`tablejoin.user`)."""
    thebes_bot, _ = house
    rates = {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "tablejoin.user": "2/hour"}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    bea = make_user("bea")
    api = client_for(bea)
    assert [api.post("/api/tables/join/", {"key": "x" * 43}, format="json").status_code
            for _ in range(3)] == [404, 404, 429]
    page = client_of(bea)
    assert page.post(f"/tables/join/{'y' * 43}/").status_code == 429
    assert page.get(f"/tables/join/{'y' * 43}/").status_code == 404  # looking is not joining
