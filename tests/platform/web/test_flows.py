"""Flows without dead ends (issue 27), through Django's test client against the real apps: an invitation link
opened logged out leads through log-in, sign-up and verification back to the invitation; a refused notification
form keeps every change and says why as an error; every player count has a ladder (paused ones for challenges); a
solo Minos result names Rhadamanthus in the lists and the notification; lists show seats in result order."""

from __future__ import annotations

import random
import re
from datetime import timedelta

import pytest
from django.utils import timezone
from platform_helpers import make_bot

from arena import games
from arena import replay as replays

PASSWORD = "a-Long-pass-123"


@pytest.fixture
def mailoutbox(db):
    from django.core import mail

    mail.outbox = []
    return mail.outbox


@pytest.fixture(autouse=True)
def fresh_rate_limits():
    from django.core.cache import cache

    cache.clear()  # sign-up and log-in counters live in the cache
    yield
    cache.clear()


# ------------------------------------------------------------------------------------------ invitation links

def test_an_invitation_link_opened_logged_out_leads_through_sign_up_and_verification_to_it(client, make_user,
                                                                                           mailoutbox):
    from allauth.account.models import EmailAddress

    from teams import services as teams

    alice = make_user("alice")
    team = teams.create_team(alice, "Blue Owls")
    _, key = teams.invite_link(team, alice)
    invitation = f"/teams/join/{key}/"

    to_login = client.get(invitation)
    assert to_login.status_code == 302 and to_login["Location"].startswith("/login/?next=")
    login = client.get(to_login["Location"]).content.decode()
    assert "see your team invitation" in login
    signup_link = re.search(r'href="(/signup/\?next=[^"]+)"', login).group(1)
    assert signup_link.replace("%2F", "/") == f"/signup/?next={invitation}", "the Sign up link keeps the way back"

    signup = client.get(signup_link).content.decode()
    assert f'name="next" value="{invitation}"' in signup
    assert f'href="/login/?next={invitation}"' in signup.replace("%2F", "/"), "and so does its Log in link"
    made = client.post("/signup/", {"username": "newbie", "email": "newbie@example.org", "password1": PASSWORD,
                                    "password2": PASSWORD, "next": invitation})
    assert made.status_code == 302 and made["Location"] == invitation, "signed up: straight to the invitation"
    page = client.get(invitation).content.decode()
    assert "Blue Owls" in page and "Accept" in page

    # the verification link mailed at sign-up lands on the invitation too (in this browser)
    link = re.search(r"https?://[^/\s]+(/accounts/confirm-email/[^/\s]+/)", mailoutbox[0].body).group(1)
    confirmed = client.post(link)
    assert EmailAddress.objects.get(email="newbie@example.org").verified
    assert confirmed.status_code == 302 and confirmed["Location"] == invitation
    client.post(invitation)
    assert teams.is_member(team, EmailAddress.objects.get(email="newbie@example.org").user)


def test_a_next_to_another_site_is_not_carried_through_sign_up(client, mailoutbox, db):
    made = client.post("/signup/", {"username": "wary", "email": "wary@example.org", "password1": PASSWORD,
                                    "password2": PASSWORD, "next": "https://evil.example/phish"})
    assert made.status_code == 302 and made["Location"] == "/me/"
    link = re.search(r"https?://[^/\s]+(/accounts/confirm-email/[^/\s]+/)", mailoutbox[0].body).group(1)
    assert "evil.example" not in client.post(link).get("Location", "")
    page = client.get("/login/?next=https://evil.example/").content.decode()
    assert "evil.example" not in page, "an unsafe next is neither kept in the form nor in the Sign up link"


# ---------------------------------------------------------------------------------------- notification form

def test_a_refused_notification_form_keeps_every_change_and_shows_an_error(client, make_user, settings):
    from notifications import services
    from notifications.events import ALL

    settings.ARENA_WEBHOOK = {**settings.ARENA_WEBHOOK, "allow_private": False}
    user = make_user("owl")
    client.force_login(user)
    before = services.own_preferences(user)
    form = {"action": "notifications", "email_address": "owl@example.org", "webhook_url": "http://127.0.0.1:9/hook",
            "rotate_secret": "on", f"event-{ALL[0]}": "on"}  # every other event switched off
    got = client.post("/me/", form)
    assert got.status_code == 400
    page = got.content.decode()
    assert re.search(r'<div role="alert"><ul class="messages"><li class="error">Notifications not saved: webhook_url: ', page)
    assert 'value="http://127.0.0.1:9/hook" aria-invalid="true"' in page, "the refused URL is still there"
    assert 'id="notify-webhook-error" class="bad small"' in page
    assert 'value="owl@example.org"' in page
    assert re.search(rf'id="event-{ALL[0]}" name="event-{ALL[0]}" checked', page)
    for name in ALL[1:]:
        assert re.search(rf'id="event-{name}" name="event-{name}">', page), f"{name} stays switched off"
    assert 'name="rotate_secret" checked' in page
    after = services.own_preferences(user)
    assert (after.events, after.webhook_url, after.webhook_secret) == (before.events, before.webhook_url,
                                                                       before.webhook_secret), "nothing saved"
    # accepted: saved, and said as a success
    ok = client.post("/me/", {**form, "webhook_url": ""}, follow=True)
    assert '<li class="success">Notification choices saved.</li>' in ok.content.decode()
    assert services.own_preferences(user).events == [ALL[0]]


# -------------------------------------------------------------------------------- ladders for every count

def test_every_player_count_has_a_ladder_paused_unless_configured(db, settings):
    from django.core.management import call_command

    from ladders.models import Ladder

    settings.ARENA_LADDERS = [("thebes", 2), ("minos", 2)]
    call_command("ensure_ladders", verbosity=0)
    got = {(lad.game, lad.players): (lad.name, lad.active) for lad in Ladder.objects.all()}
    assert got == {("thebes", 2): ("Thebes 2p", True), ("thebes", 3): ("Thebes 3p", False),
                   ("thebes", 4): ("Thebes 4p", False), ("minos", 1): ("Minos solo", False),
                   ("minos", 2): ("Minos 2p", True), ("minos", 3): ("Minos 3p", False),
                   ("minos", 4): ("Minos 4p", False)}
    Ladder.objects.filter(slug="minos-3p").update(active=True)  # staff start one: kept as they set it
    call_command("ensure_ladders", verbosity=0)
    assert Ladder.objects.get(slug="minos-3p").active and Ladder.objects.count() == 7


def test_a_solo_challenge_needs_no_opponent_and_takes_none(db, make_user, client_for, settings):
    from django.core.management import call_command

    from matches.models import Match

    call_command("ensure_ladders", verbosity=0)
    owner, other = make_user(), make_user()
    mine, theirs = make_bot(owner, "soloist", game="minos"), make_bot(other, "rival", game="minos")
    client = client_for(owner)
    made = client.post("/api/challenges/", {"ladder": "minos-1p", "bot": mine.pk, "opponents": []}, format="json")
    assert made.status_code == 201, made.content
    match = Match.objects.get(pk=made.json()["id"])
    assert match.params["players"] == 1 and [p.bot_id for p in match.participants.all()] == [mine.pk]
    refused = client.post("/api/challenges/", {"ladder": "minos-1p", "bot": mine.pk, "opponents": [theirs.pk]},
                          format="json")
    assert refused.status_code == 400 and "name 0 opponents" in str(refused.json())


def test_the_challenge_form_offers_every_ladder_and_only_bots_that_play(client, make_user, db):
    from django.core.management import call_command

    from botregistry.models import BotVersion

    call_command("ensure_ladders", verbosity=0)
    owner = make_user()
    make_bot(owner, "playing", game="minos")
    make_bot(owner, "benched", game="thebes", status=BotVersion.Status.SUSPENDED)
    client.force_login(owner)
    page = client.get("/me/").content.decode()
    form = page.split('data-challenge>', 1)[1].split("</form>", 1)[0]
    assert 'value="minos-1p" data-game="minos" data-players="1">Minos solo (against Rhadamanthus) (paused' in form
    assert 'value="thebes-3p"' in form
    assert "playing (minos)" in form and "benched" not in form, "a suspended bot is not offered"
    assert re.search(r'value="minos-2p"[^>]*selected', form), "it opens on a ladder of its first bot's game"


# ------------------------------------------------------------------------------ results: Rhadamanthus, order

def _solo_match(owner, requested_by=None):
    """A finished solo Minos challenge recorded from a real game's result (in-process greedy player)."""
    from matches.models import Match
    from matches.services import create_match, record_result

    bot = make_bot(owner, "soloist", game="minos")
    game = games.load("minos", players=1)
    replay = replays.of_selfplay(game, 3, [games.policies("minos")["greedy"]()], [random.Random(3)],
                                 ["soloist v1"])
    match = create_match(game="minos", params={"players": 1}, time_control={}, versions=[bot.active_version_id],
                         kind=Match.Kind.CHALLENGE, rated=False, requested_by=requested_by, queue=False)
    assert record_result(match.pk, replay["result"])
    return Match.objects.get(pk=match.pk), replay["result"]


def test_a_solo_result_names_rhadamanthus_in_lists_and_in_the_notification(client, make_user, mailoutbox,
                                                                           django_capture_on_commit_callbacks):
    from arena_site.celery import app
    from notifications import services

    owner = make_user("solo-owner")
    services.update(owner, email_address="solo@example.org")
    before = app.conf.task_always_eager
    app.conf.task_always_eager = True
    try:
        with django_capture_on_commit_callbacks(execute=True):
            match, result = _solo_match(owner, requested_by=owner)
    finally:
        app.conf.task_always_eager = before
    (rh,) = result["engine_opponents"]
    me = result["seats"][0]
    assert rh["name"] == "Rhadamanthus" and {rh["rank"], me["rank"]} == {1, 2}
    first, second = sorted([(rh["rank"], "Rhadamanthus", rh["score"]), (me["rank"], "soloist", me["score"])])

    def chip(rank, name, score):
        return rf'{rank}\. (<a href="/bots/\d+/">)?(<span class="engine-opponent"[^>]*>)?{name}(</a>|</span>) \({score:g}\)'

    for url in ("/matches/", f"/bots/{match.participants.get().bot_id}/", "/users/solo-owner/"):
        page = client.get(url).content.decode()
        row = page[page.index(f'href="/matches/{match.pk}/"'):]
        assert re.search(chip(*first) + r"</span> <span[^>]*>" + chip(*second), row), url
    mail = mailoutbox[-1]
    assert mail.subject == f"[Arena] challenge match #{match.pk} finished"
    assert f"{first[1]} rank 1 ({first[2]:g}), {second[1]} rank 2 ({second[2]:g})" in mail.body


def test_lists_show_seats_in_result_order(client, make_user):
    from matches.models import Match
    from matches.services import create_match

    bots = [make_bot(make_user(), f"seat{i}") for i in range(4)]
    match = create_match(game="thebes", params={"players": 4}, time_control={}, queue=False, rated=False,
                         versions=[b.active_version_id for b in bots])
    for p, rank in zip(match.participants.order_by("seat"), (3, 1, 4, 2)):
        p.rank, p.score = rank, 10 * (5 - rank)
        p.save()
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED,
                                             finished_at=timezone.now() - timedelta(minutes=1))
    page = client.get("/matches/").content.decode()
    row = page[page.index(f'href="/matches/{match.pk}/"'):].split("</tr>", 1)[0]
    assert re.findall(r"(\d)\. <a[^>]*>(seat\d)</a>", row) == [("1", "seat1"), ("2", "seat3"), ("3", "seat0"),
                                                              ("4", "seat2")]


# -------------------------------------------------------------------------- a match under way, links, search

def test_a_running_match_page_shows_its_progress_and_refreshes_until_it_is_over(client, make_user):
    from matches import services
    from matches.models import Match
    from matches.tasks import _Heartbeat

    bots = [make_bot(make_user(), name) for name in ("alpha", "beta")]
    match = services.create_match(game="thebes", params={"players": 2}, time_control={}, queue=False,
                                  rated=False, versions=[b.active_version_id for b in bots])
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert f"<title>Match {match.pk}: alpha v beta · Arena</title>" in page, "the title names the players"
    assert "data-live-seconds" in page and "Queued since" in page and "web/live.js" in page

    claimed = services.claim(match.pk, "worker-a")
    beat = _Heartbeat(match.pk, services.Run.of(claimed))
    for i in range(17):  # what the referee calls after each decision
        beat.progress(i, None)
    assert beat.beat()
    fragment = client.get(f"/matches/{match.pk}/?fragment=1")
    assert fragment["X-Live"] == "1" and "17 decisions</strong> played so far" in fragment.content.decode()

    Match.objects.filter(pk=match.pk).update(status=Match.Status.FAILED, status_reason="test")
    over = client.get(f"/matches/{match.pk}/?fragment=1")
    assert over["X-Live"] == "0" and "The match is failed" in over.content.decode(), "the updates stop"


def test_search_finds_bots_users_and_teams_by_name(client, make_user):
    from django.contrib.auth import get_user_model

    from teams import services as teams

    owner = make_user("Ariadne")
    make_bot(owner, "thread-runner")
    make_bot(make_user("theseus"), "minotaur-hunter", game="minos")
    teams.create_team(owner, "Thread Guild")
    gone = make_user("threadbare")
    get_user_model().objects.filter(pk=gone.pk).update(is_active=False)

    page = client.get("/search/?q=THREAD").content.decode()
    assert 'href="/bots/' in page and "thread-runner" in page and "minotaur-hunter" not in page
    assert 'href="/teams/thread-guild/">Thread Guild</a>' in page
    assert "threadbare" not in page.split("<main", 1)[1], "an inactive (deleted) account is not found"
    users = client.get("/search/?q=ariadne").content.decode()
    assert 'href="/users/Ariadne/">Ariadne</a>' in users
    assert 'role="search"' in client.get("/").content.decode(), "every page has the search box"
    hostile = client.get("/search/?q=" + "x" * 65)
    assert hostile.status_code == 400 and "at most 64 characters" in hostile.content.decode()
    assert client.get("/search/?q=%00").status_code == 400


def test_the_ladder_links_its_matches_and_its_bots_owners(client, make_user):
    from django.core.management import call_command

    call_command("ensure_ladders", verbosity=0)
    make_bot(make_user("owner-one"), "laddered")
    page = client.get("/ladders/thebes-2p/").content.decode()
    assert 'href="/matches/?ladder=thebes-2p">All matches of this ladder</a>' in page
    assert '<a href="/users/owner-one/">owner-one</a>' in page
    assert "paused: it plays no matches now" in client.get("/ladders/thebes-3p/").content.decode()


def test_counts_of_one_read_in_the_singular(client, make_user):
    from django.core.management import call_command

    from ladders.models import Rating

    call_command("ensure_ladders", verbosity=0)
    bot = make_bot(make_user(), "single")
    Rating.objects.filter(bot=bot, ladder__slug="thebes-2p").update(games=1, wins=1)
    page = client.get(f"/bots/{bot.pk}/").content.decode()
    assert "1 game, 1 win" in page and "1 games" not in page
    assert "Minos, 1 player;" in client.get("/ladders/minos-1p/").content.decode()


def test_the_openapi_schema_types_the_upload_as_a_file(client, db):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    upload = schema["components"]["schemas"]["Upload"]["properties"]["archive"]
    assert (upload["type"], upload["format"]) == ("string", "binary")
    post = schema["paths"]["/api/bots/{id}/versions/"]["post"]["requestBody"]["content"]
    assert list(post) == ["multipart/form-data"]


def test_a_paused_ladder_that_staff_start_has_its_bots_and_plays(make_user, settings):
    from django.core.management import call_command

    from ladders.models import Ladder
    from matchmaking.services import matchmake

    settings.ARENA_LADDERS = []  # every ladder paused
    call_command("ensure_ladders", verbosity=0)
    bots = [make_bot(make_user(), f"trio{i}") for i in range(3)]
    assert matchmake(random.Random(1)) == [], "a paused ladder plays nothing"
    Ladder.objects.filter(slug="thebes-3p").update(active=True)
    settings.ARENA_MATCHMAKING = {**settings.ARENA_MATCHMAKING, "max_pending_per_ladder": 1}
    assert len(matchmake(random.Random(1))) == 1
    made = Ladder.objects.get(slug="thebes-3p").matches.get()
    assert sorted(p.bot_id for p in made.participants.all()) == sorted(b.pk for b in bots) and made.rated
    Ladder.objects.filter(slug="minos-1p").update(active=True)
    soloist = make_bot(make_user(), "soloist", game="minos")
    matchmake(random.Random(2))  # the solo ladder's one seat, unrated: no opponent to rate it against
    solo = Ladder.objects.get(slug="minos-1p").matches.get()
    assert [p.bot_id for p in solo.participants.all()] == [soloist.pk] and not solo.rated
