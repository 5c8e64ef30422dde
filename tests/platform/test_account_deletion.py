"""Deleting an account: the person goes, the games stay (accounts.deletion and its receivers).

A person whose bot played rated matches deletes their account: the matches, seats, ratings and replays of the
others are unchanged and downloadable; the bot is retired and never scheduled again; the old name appears on no
page and in no API answer, can't log in and can't be signed up again; nobody can delete someone else's account.
"""

from __future__ import annotations

import random

import pytest
from platform_helpers import make_bot

PASSWORD = "pw-123456789"  # make_user's


@pytest.fixture
def ladder(db, settings, tmp_path):
    from ladders.models import Ladder

    settings.STORAGE_DIR = tmp_path / "storage"
    return Ladder.objects.create(slug="thebes-2p", name="Thebes 2p", game="thebes", players=2)


def result_for(match, ranks):
    return {"game": match.game, "params": match.params, "seed": match.seed, "engine_version": "thebes-1",
            "replay_path": "/tmp/x", "seats": [
                {"seat": seat, "name": f"s{seat}", "sha256": "0" * 64, "score": float(10 - rank), "rank": rank,
                 "disqualified": False, "faults": [], "time_ms": 12.5, "decisions": 30}
                for seat, rank in enumerate(ranks)]}


def play(ladder, bots, ranks):
    """A finished rated ladder match between `bots` (ratings applied as a worker's result would)."""
    from matches.services import create_match, record_result

    match = create_match(game="thebes", params={"players": 2}, time_control=ladder.time_control.to_dict(),
                         versions=[b.active_version_id for b in bots], ladder=ladder, queue=False)
    assert record_result(match.pk, result_for(match, ranks))
    return match


@pytest.fixture
def league(ladder, make_user, settings):
    """alice (to be deleted) and bob and carol, a bot each, rated matches between all of them, a replay on disk,
    alice's queued ladder match, her notification settings and a second API token."""
    from matches.models import Match
    from matches.services import create_match, replay_relative

    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    alice.email = "alice@example.org"
    alice.save()
    alpha, beta, gamma = make_bot(alice, "alpha"), make_bot(bob, "beta"), make_bot(carol, "gamma")
    played = [play(ladder, [alpha, beta], [1, 2]), play(ladder, [beta, gamma], [2, 1]),
              play(ladder, [gamma, alpha], [2, 1]), play(ladder, [alpha, beta], [2, 1])]
    replay = b"\x1f\x8b replay of alpha against beta"
    rel = replay_relative(played[0].pk)
    (settings.STORAGE_DIR / rel).parent.mkdir(parents=True, exist_ok=True)
    (settings.STORAGE_DIR / rel).write_bytes(replay)
    Match.objects.filter(pk=played[0].pk).update(replay_path=str(rel))
    queued = create_match(game="thebes", params={"players": 2}, time_control={}, ladder=ladder, queue=False,
                          versions=[alpha.active_version_id, gamma.active_version_id])
    return {"alice": alice, "bob": bob, "carol": carol, "alpha": alpha, "beta": beta, "gamma": gamma,
            "played": played, "replay": replay, "queued": queued}


def snapshot():
    """Everything of the played matches that others depend on."""
    from ladders.models import Rating
    from matches.models import Match, Participant

    return (list(Match.objects.filter(status=Match.Status.FINISHED).order_by("pk")
                 .values("pk", "status", "seed", "finished_at", "replay_path", "rated", "ladder_id")),
            list(Participant.objects.order_by("pk").values()),
            list(Rating.objects.order_by("pk").values("bot_id", "rating", "elo", "mu", "sigma", "games", "wins")))


def test_deleting_keeps_matches_ratings_and_replays_of_others(league, client_for, anon):
    from matches.models import Match

    before = snapshot()
    response = client_for(league["alice"]).delete("/api/auth/me/", {"password": PASSWORD}, format="json")
    assert response.status_code == 204, response.content
    assert snapshot() == before  # not one finished match, seat or rating changed or went
    # the replay of alice's bot's match is still there for everyone
    download = anon.get(f"/api/matches/{league['played'][0].pk}/replay/")
    assert download.status_code == 200 and b"".join(download.streaming_content) == league["replay"]
    detail = anon.get(f"/api/matches/{league['played'][0].pk}/").json()
    assert [p["bot_name"] for p in detail["participants"]] == ["alpha", "beta"]
    # her bot's queued ladder match is cancelled rather than played
    queued = Match.objects.get(pk=league["queued"].pk)
    assert queued.status == Match.Status.CANCELLED and "deleted" in queued.status_reason


def test_retired_bot_is_never_scheduled_again(league, client_for, settings):
    from botregistry.models import Bot
    from matches.models import Match, Participant
    from matchmaking.services import matchmake, ready_candidates

    assert league["alpha"].pk in {c.bot_id for c in ready_candidates(league["played"][0].ladder)}
    assert client_for(league["alice"]).delete("/api/auth/me/", {"password": PASSWORD},
                                             format="json").status_code == 204
    alpha = Bot.objects.get(pk=league["alpha"].pk)
    assert alpha.retired_at is not None and alpha.playing_version is None
    rng = random.Random(5)
    made = []
    for _ in range(20):  # matchmaking plays on (each round's matches "finish" so new ones can be made)
        made += matchmake(rng)
        Match.objects.filter(status=Match.Status.QUEUED).update(status=Match.Status.FINISHED)
    assert made, "matchmaking should still pair bob's and carol's bots"
    assert not Participant.objects.filter(match_id__in=made, bot=alpha).exists()
    # nor may anyone challenge it
    as_bob = client_for(league["bob"])
    challenge = as_bob.post("/api/challenges/", {"ladder": "thebes-2p", "bot": league["beta"].pk,
                                                 "opponents": [alpha.pk]}, format="json")
    assert challenge.status_code == 400


def test_the_old_name_is_gone_from_pages_and_api(league, client_for, anon):
    from django.test import Client

    match_id, alpha_id = league["played"][0].pk, league["alpha"].pk
    pages = ["/", f"/matches/{match_id}/", f"/bots/{alpha_id}/", "/matches/"]
    web = Client()
    assert "alice" in web.get(f"/matches/{match_id}/").content.decode()  # the check below can fail
    assert client_for(league["alice"]).delete("/api/auth/me/", {"password": PASSWORD},
                                             format="json").status_code == 204
    for url in pages + ["/ladders/thebes-2p/"]:
        response = web.get(url)
        assert response.status_code == 200, url
        assert "alice" not in response.content.decode(), url
    for url in [f"/matches/{match_id}/", f"/bots/{alpha_id}/"]:
        assert "deleted account" in web.get(url).content.decode(), url
    assert web.get("/users/alice/").status_code == 404
    # retired bots leave the leaderboards
    assert "alpha" not in web.get("/ladders/thebes-2p/").content.decode()
    board = anon.get("/api/ladders/thebes-2p/leaderboard/").json()["results"]
    assert {row["bot_name"] for row in board} == {"beta", "gamma"}
    for url in [f"/api/matches/{match_id}/", f"/api/bots/{alpha_id}/", "/api/bots/", "/api/matches/",
                "/api/ladders/thebes-2p/leaderboard/"]:
        body = anon.get(url).content.decode()
        assert "alice" not in body, url
    bot = anon.get(f"/api/bots/{alpha_id}/").json()
    assert bot["owner"] == "deleted account" and bot["status"].startswith("retired")
    assert "Retired: its owner deleted their account" in web.get(f"/bots/{alpha_id}/").content.decode()
    seats = anon.get(f"/api/matches/{match_id}/").json()["participants"]
    assert [s["owner"] for s in seats] == ["deleted account", "bob"]


def test_deleted_account_cannot_log_in_or_be_signed_up_again(league, client_for, anon):
    from django.contrib.auth import get_user_model
    from django.test import Client

    from accounts.models import ApiToken
    from notifications.models import NotificationSettings
    from notifications.services import own_preferences

    alice = league["alice"]
    own_preferences(alice)  # she had notification settings (a webhook secret among them)
    browser = Client()
    browser.force_login(alice)
    assert browser.get("/me/").status_code == 200
    old_key = alice.api_key
    assert client_for(alice).delete("/api/auth/me/", {"password": PASSWORD}, format="json").status_code == 204

    user = get_user_model().objects.get(pk=alice.pk)
    assert user.username == f"deleted-{alice.pk}" and user.email == "" and not user.is_active
    assert not user.has_usable_password()
    assert not ApiToken.objects.filter(user=user).exists()
    assert not NotificationSettings.objects.filter(user=user).exists()
    # no way back in: old token, old password under either name, the web session she had
    stale = client_for()
    stale.credentials(HTTP_AUTHORIZATION=f"Token {old_key}")
    assert stale.get("/api/auth/me/").status_code == 401
    for name in ("alice", user.username):
        assert anon.post("/api/auth/login/", {"username": name, "password": PASSWORD},
                         format="json").status_code == 400
    assert browser.get("/me/").status_code == 302  # the session she had is over
    # the name stays reserved: nobody signs up as her (or as a look-alike), nor as a "deleted account"
    for name in ("alice", "ALICE", "a.lice", "deleted-7", "deleted_account", user.username):
        response = anon.post("/api/auth/signup/", {"username": name, "password": "long-enough-pw-1",
                                                   "email": "someone@example.org"}, format="json")
        assert response.status_code == 400, name
        assert "username" in response.json(), name
    assert not get_user_model().objects.filter(username__iexact="alice").exists()
    assert anon.post("/api/auth/signup/", {"username": "alicia", "password": "long-enough-pw-1",
                                           "email": "alicia@example.org"},
                     format="json").status_code == 201  # other names are fine


def test_deleting_needs_the_password(league, client_for):
    from django.contrib.auth import get_user_model

    as_alice = client_for(league["alice"])
    assert as_alice.delete("/api/auth/me/").status_code == 400
    assert as_alice.delete("/api/auth/me/", {"password": ""}, format="json").status_code == 400
    wrong = as_alice.delete("/api/auth/me/", {"password": "not-my-password"}, format="json")
    assert wrong.status_code == 400 and "password" in wrong.json()
    assert get_user_model().objects.get(pk=league["alice"].pk).username == "alice"  # still there


def test_an_account_without_password_confirms_with_its_name(league, client_for):
    from django.contrib.auth import get_user_model

    alice = league["alice"]
    alice.set_unusable_password()  # as an identity-provider log-in makes it
    alice.save()
    as_alice = client_for(alice)
    assert as_alice.delete("/api/auth/me/", {"username": "bob"}, format="json").status_code == 400
    assert as_alice.delete("/api/auth/me/", {"username": "alice"}, format="json").status_code == 204
    assert not get_user_model().objects.get(pk=alice.pk).is_active


def test_nobody_deletes_someone_else(league, client_for, anon):
    """Both ways: only the account itself, signed in, can delete it; the API has no id to aim at another."""
    from django.contrib.auth import get_user_model

    User = get_user_model()
    assert anon.delete("/api/auth/me/", {"password": PASSWORD}, format="json").status_code == 401
    # bob, signed in, sending alice's password, deletes... nothing of alice's (his own password is checked)
    as_bob = client_for(league["bob"])
    assert as_bob.delete("/api/auth/me/", {"password": "wrong-for-bob"}, format="json").status_code == 400
    assert User.objects.get(pk=league["alice"].pk).is_active and User.objects.get(pk=league["bob"].pk).is_active
    assert as_bob.delete(f"/api/auth/me/?user={league['alice'].pk}", {"password": PASSWORD},
                         format="json").status_code == 204
    assert User.objects.get(pk=league["alice"].pk).is_active  # bob deleted himself, never alice
    assert not User.objects.get(pk=league["bob"].pk).is_active


def test_web_deletion_page(league):
    from django.contrib.auth import get_user_model
    from django.test import Client

    web = Client()
    assert web.get("/me/delete/").status_code == 302  # signed out: to the log-in page
    web.force_login(league["alice"])
    me = web.get("/me/").content.decode()
    assert 'href="/me/delete/"' in me and 'href="/api/auth/me/export/"' in me
    page = web.get("/me/delete/")
    assert page.status_code == 200 and "alpha" in page.content.decode()
    wrong = web.post("/me/delete/", {"password": "nope"})
    assert wrong.status_code == 400 and "password is wrong" in wrong.content.decode()
    assert get_user_model().objects.get(pk=league["alice"].pk).is_active
    done = web.post("/me/delete/", {"password": PASSWORD})
    assert done.status_code == 302
    assert not get_user_model().objects.get(pk=league["alice"].pk).is_active
    assert web.get("/me/").status_code == 302  # signed out


def test_deleting_is_rate_limited(league, client_for, settings):
    from django.core.cache import cache

    rates = {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "deleteaccount.user": "3/hour"}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    cache.clear()  # counters of other tests
    as_bob = client_for(league["bob"])
    codes = [as_bob.delete("/api/auth/me/", {"password": "wrong"}, format="json").status_code for _ in range(4)]
    assert codes == [400, 400, 400, 429]
    assert as_bob.get("/api/auth/me/").status_code == 200  # reading the account is not limited by it


def test_running_version_tests_stop_and_opponents_tests_never_draw_the_retired_bot(league, client_for):
    """The person's own running version test stops (its queued matches cancelled); another owner's test no longer
    draws the retired bot as an opponent."""
    from botregistry.models import BotVersion
    from matches.models import Match
    from versiontests import services
    from versiontests.models import VersionTest

    def second_version(bot):
        v2 = BotVersion.objects.create(bot=bot, number=2, status="ready", sha256=f"{bot.name}-2",
                                       package_dir=f"/nonexistent/{bot.name}-2")
        return bot.active_version, v2

    ladder = league["played"][0].ladder
    a1, a2 = second_version(league["alpha"])
    b1, b2 = second_version(league["beta"])
    hers = services.create(owner=league["alice"], version_a=a1, version_b=a2, ladder=ladder, rng=random.Random(1))
    hers_matches = [m for p in hers.pair_set.all() for m in (p.match_a, p.match_b)]
    assert hers_matches
    assert client_for(league["alice"]).delete("/api/auth/me/", {"password": PASSWORD},
                                             format="json").status_code == 204
    hers.refresh_from_db()
    assert hers.status == VersionTest.Status.STOPPED and "deleted" in hers.status_reason
    assert not Match.objects.filter(pk__in=[m.pk for m in hers_matches], status=Match.Status.QUEUED).exists()
    bobs = services.create(owner=league["bob"], version_a=b1, version_b=b2, ladder=ladder, rng=random.Random(2))
    opponents = {p.bot_id for pair in bobs.pair_set.all() for p in pair.match_a.participants.all()}
    assert league["alpha"].pk not in opponents and league["gamma"].pk in opponents


def test_retired_bot_forfeits_the_tournament_games_still_to_come(league, client_for):
    from datetime import timedelta

    from django.utils import timezone

    from tournaments import services
    from tournaments.models import Entry, Tournament

    t = Tournament.objects.create(name="Cup", game="thebes", players=2, format=Tournament.Format.ROUND_ROBIN,
                                  starts_at=timezone.now() - timedelta(minutes=1))
    for bot in (league["alpha"], league["beta"], league["gamma"]):
        Entry.objects.create(tournament=t, bot=bot)
    assert client_for(league["alice"]).delete("/api/auth/me/", {"password": PASSWORD},
                                             format="json").status_code == 204
    assert services.start(t.pk)
    alpha_entry = Entry.objects.get(tournament=t, bot=league["alpha"])
    assert "retired" in alpha_entry.forfeit_reason
    for game in t.rounds.first().games.all():
        if alpha_entry.pk in game.seats:
            assert game.match is None and str(alpha_entry.pk) in game.forfeit


def test_staff_delete_accounts_in_the_admin_without_the_cascade(league, make_user):
    from django.contrib.auth import get_user_model
    from django.test import Client

    from matches.models import Participant

    staff = get_user_model().objects.create_superuser("boss", "", "pw-123456789")
    web = Client()
    web.force_login(staff)
    seats = Participant.objects.count()
    change = web.get(f"/admin/auth/user/{league['alice'].pk}/change/").content.decode()
    assert "/delete/" not in change  # no cascading delete link
    assert web.post(f"/admin/auth/user/{league['alice'].pk}/delete/", {"post": "yes"}).status_code == 403
    listing = web.post("/admin/auth/user/", {"action": "delete_selected", "_selected_action": [league["alice"].pk]})
    assert get_user_model().objects.get(pk=league["alice"].pk).is_active and listing.status_code in (200, 302)
    done = web.post("/admin/auth/user/", {"action": "delete_accounts", "_selected_action": [league["alice"].pk]})
    assert done.status_code == 302
    alice = get_user_model().objects.get(pk=league["alice"].pk)
    assert not alice.is_active and alice.username == f"deleted-{alice.pk}"
    assert Participant.objects.count() == seats


def test_email_addresses_and_identity_provider_links_go_with_the_account(league, client_for):
    """django-allauth's rows of the person (when allauth is installed): their addresses and provider links."""
    from django.apps import apps

    if not (apps.is_installed("allauth.account") and apps.is_installed("allauth.socialaccount")):
        pytest.skip("django-allauth is not installed")
    from allauth.account.models import EmailAddress
    from allauth.socialaccount.models import SocialAccount

    alice, bob = league["alice"], league["bob"]
    EmailAddress.objects.create(user=alice, email="alice@example.org", verified=True, primary=True)
    EmailAddress.objects.create(user=bob, email="bob@example.org", verified=True, primary=True)
    SocialAccount.objects.create(user=alice, provider="github", uid="12345")
    assert client_for(alice).delete("/api/auth/me/", {"password": PASSWORD}, format="json").status_code == 204
    assert not EmailAddress.objects.filter(user=alice).exists()
    assert not SocialAccount.objects.filter(user=alice).exists()
    assert EmailAddress.objects.filter(user=bob).exists()  # others' untouched


def test_a_teams_bot_made_by_the_person_plays_on(league, client_for):
    """A bot a team owns is the team's: its maker leaving retires it not (it shows "deleted account" as maker)."""
    from botregistry.models import Bot
    from teams.models import Membership, Team

    team = Team.objects.create(name="Diggers", slug="diggers")
    Membership.objects.create(team=team, user=league["alice"], role="owner")
    Membership.objects.create(team=team, user=league["bob"], role="owner")
    shared = make_bot(league["alice"], "shared")
    Bot.objects.filter(pk=shared.pk).update(team=team)
    assert client_for(league["alice"]).delete("/api/auth/me/", {"password": PASSWORD},
                                             format="json").status_code == 204
    shared.refresh_from_db()
    assert shared.retired_at is None and shared.playing_version is not None
    assert Bot.objects.get(pk=league["alpha"].pk).retired_at is not None
