"""The "Play" form (/play/): a signed-in person sits down against bots open to people; the match is of kind
human, unrated, with the person's seat recorded, and is listed on their user page and on the bot's page. Bots
whose owner closed them to people, bots of another game, and anonymous visitors are refused."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.management import call_command

from tests.platform.web.test_play_bridge import client_of

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def house(db):
    from botregistry.models import Bot

    call_command("ensure_ladders", verbosity=0)
    call_command("register_builtin_bots", str(ROOT / "bots" / "python" / "random"), verbosity=0)
    return Bot.objects.get(builtin=True, game="thebes"), Bot.objects.get(builtin=True, game="minos")


def test_a_person_sits_down_against_a_built_in_bot_and_the_match_is_listed(house, make_user):
    from ladders.models import Ladder
    from matches.models import Match

    thebes_bot, _ = house
    me = make_user("ann")
    c = client_of(me)
    page = c.get("/play/")
    assert page.status_code == 200 and thebes_bot.name in page.content.decode()
    assert f"/play/?game=thebes&amp;opponent1={thebes_bot.pk}" in c.get(f"/bots/{thebes_bot.pk}/").content.decode()
    prefilled = c.get("/play/", {"game": "thebes", "opponent1": thebes_bot.pk}).content.decode()
    assert f'<option value="{thebes_bot.pk}" selected>' in prefilled
    resp = c.post("/play/", {"game": "thebes", "players": "2", "seat": "1", "clock": "30s",
                             "opponent1": str(thebes_bot.pk)})
    assert resp.status_code == 302, resp.content.decode()[-2000:]
    match = Match.objects.get()
    assert resp["Location"] == f"/matches/{match.pk}/"
    assert match.kind == Match.Kind.HUMAN and not match.rated and match.ladder is None
    assert match.people == {"1": me.pk} and match.requested_by == me
    # the bot keeps its ladder's clock; the person plays on the preset picked (Match.seat_time_controls)
    assert match.time_control == Ladder.objects.get(game="thebes", players=2).time_control.to_dict()
    assert match.seat_time_controls["1"] == {**match.time_control, "decision_ms": 30_000, "bank_ms": 120_000}
    assert list(match.seat_time_controls) == ["1"]
    assert [(p.seat, p.bot_id) for p in match.participants.all()] == [(0, thebes_bot.pk)]
    assert f"/matches/{match.pk}/" in c.get("/users/ann/").content.decode()
    assert f"/matches/{match.pk}/" in c.get(f"/bots/{thebes_bot.pk}/").content.decode()


def test_the_form_refuses_closed_bots_other_games_bots_and_anonymous_visitors(house, make_user):
    from matches.models import Match

    thebes_bot, minos_bot = house
    c = client_of(make_user("bob"))
    assert client_of().get("/play/").status_code == 302  # to the log-in
    assert client_of().post("/play/", {"game": "thebes", "players": "2", "clock": "30s",
                                       "opponent1": str(thebes_bot.pk)}).status_code == 302
    base = {"game": "thebes", "players": "2", "clock": "30s"}
    assert c.post("/play/", {**base, "opponent1": str(minos_bot.pk)}).status_code == 400  # another game's bot
    assert c.post("/play/", {**base}).status_code == 400  # a seat left empty
    assert c.post("/play/", {**base, "seat": "3", "opponent1": str(thebes_bot.pk)}).status_code == 400
    assert c.post("/play/", {**base, "clock": "1ms", "opponent1": str(thebes_bot.pk)}).status_code == 400
    thebes_bot.people_may_play = False
    thebes_bot.save()
    assert c.post("/play/", {**base, "opponent1": str(thebes_bot.pk)}).status_code == 400  # closed to people
    assert thebes_bot.name not in c.get("/play/").content.decode()
    assert not Match.objects.exists()


def test_only_the_owner_closes_their_bot_to_people_and_the_form_then_refuses_it(db, make_user, client_for):
    from botregistry.models import Bot, BotVersion
    from ladders.models import Ladder, Rating

    owner, other = make_user("maker"), make_user("other")
    bot = Bot.objects.create(owner=owner, name="uploaded", game="thebes")
    assert bot.people_may_play  # the documented default for uploaded bots: open to people
    bot.active_version = BotVersion.objects.create(bot=bot, number=1, status=BotVersion.Status.READY,
                                                   sha256="a" * 64, package_dir="x")
    bot.save()
    Rating.objects.create(ladder=Ladder.objects.create(slug="thebes-2p", name="T2", game="thebes", players=2),
                          bot=bot)
    form = {"game": "thebes", "players": "2", "clock": "2m", "opponent1": str(bot.pk)}
    page = client_of(owner).get(f"/bots/{bot.pk}/").content.decode()
    assert 'name="people_may_play"' in page
    assert client_for(other).patch(f"/api/bots/{bot.pk}/", {"people_may_play": False},
                                   format="json").status_code == 403
    bot.refresh_from_db()
    assert bot.people_may_play
    switched = client_for(owner).patch(f"/api/bots/{bot.pk}/", {"people_may_play": False}, format="json")
    assert switched.status_code == 200 and switched.json()["people_may_play"] is False
    assert client_of(other).post("/play/", form).status_code == 400
    client_for(owner).patch(f"/api/bots/{bot.pk}/", {"people_may_play": True}, format="json")
    assert client_of(other).post("/play/", form).status_code == 302


def test_the_service_itself_refuses_closed_bots_wrong_counts_and_seats(house, make_user):
    from matches.models import Match
    from matches.services import CannotSeat, create_human_match

    thebes_bot, minos_bot = house
    me = make_user("cy")
    tc = {"decision_ms": 30_000, "bank_ms": 0}
    for kwargs in ({"players": 3, "seat": 0, "opponents": [thebes_bot.playing_version]},   # a seat left empty
                   {"players": 2, "seat": 2, "opponents": [thebes_bot.playing_version]},   # no such seat
                   {"players": 2, "seat": 0, "opponents": [minos_bot.playing_version]}):   # another game's bot
        with pytest.raises(CannotSeat):
            create_human_match(user=me, game="thebes", clock=tc, **kwargs)
    thebes_bot.people_may_play = False
    thebes_bot.save()
    with pytest.raises(CannotSeat, match="does not let people play it"):
        create_human_match(user=me, game="thebes", players=2, seat=None, opponents=[thebes_bot.playing_version],
                           clock=tc)
    assert not Match.objects.exists()


def test_the_form_reads_the_bots_open_to_people_once_per_post(house, make_user):
    """The choices and the check of a POST come from one read of the bots open to people."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tables.forms import PlayForm

    thebes_bot, minos_bot = house
    with CaptureQueriesContext(connection) as seen:
        form = PlayForm({"game": "thebes", "players": "2", "seat": "0", "clock": "30s",
                         "opponent1": str(thebes_bot.pk)})
        assert form.is_valid(), form.errors
    assert form.cleaned_data["bots"] == [thebes_bot]
    assert len([q for q in seen.captured_queries if "people_may_play" in q["sql"]]) == 1
    other = PlayForm({"game": "thebes", "players": "2", "seat": "0", "clock": "30s", "opponent1": str(minos_bot.pk)})
    assert not other.is_valid() and "opponent1" in other.errors  # another game's bot: still refused
