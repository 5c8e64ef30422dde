"""Attacks on teams, invitations, bot transfers and the account flows around them (issue 17's review): each test
is a hole found (or a door checked) from an attacker's side: another user, a plain member, anonymous, odd input."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest

pytestmark = pytest.mark.django_db


def _browser(user):
    from django.test import Client

    browser = Client()
    browser.force_login(user)
    return browser


def test_a_link_invitation_is_not_accepted_by_its_number_without_its_key(world, make_user):
    """Invitation ids count up: the web "accept" button (meant for named invitations) must not let anyone join
    through a link invitation whose key they never saw."""
    from teams import services

    link, _key = services.invite_link(world.team, world.alice)
    mallory = make_user("mallory")
    page = _browser(mallory).post("/teams/", {"action": "accept", "invitation": str(link.pk)})
    assert page.status_code == 302
    services.forget(mallory)
    assert not services.is_member(world.team, mallory)
    link.refresh_from_db()
    assert link.status == "pending"  # still usable by whoever holds the key
    # the service itself refuses a link answered without its key (a future caller can't repeat the hole)
    with pytest.raises(services.TeamRefused):
        services.accept(link, mallory)
    with pytest.raises(services.TeamRefused):
        services.accept(link, mallory, key="wrong")


def test_someone_elses_named_invitation_is_neither_accepted_nor_declined_on_the_web(world, make_user):
    from teams import services

    make_user("carol")
    mallory = make_user("mallory")
    inv = services.invite_user(world.team, world.alice, "carol")
    for action in ("accept", "decline"):
        _browser(mallory).post("/teams/", {"action": action, "invitation": str(inv.pk)})
    inv.refresh_from_db()
    assert inv.status == "pending" and not services.is_member(world.team, mallory)


@pytest.mark.parametrize("name", ["Rеd Team",  # a Cyrillic е
                                  "red_team", "RED.TEAM", "Red  Team!", "R e d T e a m", "Ｒｅｄ Ｔｅａｍ"])
def test_a_team_name_that_reads_as_another_teams_is_refused(world, client_for, make_user, name):
    from teams.models import Team

    response = client_for(make_user()).post("/api/teams/", {"name": name}, format="json")
    assert response.status_code == 409, response.content
    assert "reads as" in response.json()["detail"] or "taken" in response.json()["detail"]
    assert Team.objects.count() == 1


def test_a_team_name_that_reads_as_a_deleted_accounts_or_the_house_is_refused(world, client_for, make_user):
    from accounts.deletion import delete_account

    victim = make_user("grace")
    assert delete_account(victim)
    user = client_for(make_user())
    for name in ("grace", "Grасe", "ARENA crew", "deleted account", "Adm in"):
        assert user.post("/api/teams/", {"name": name}, format="json").status_code == 400, name


def test_a_retired_bot_takes_no_upload_or_move_from_a_member(world, client_for):
    """Staff may retire a team's bot (or move a deleted person's retired bot into a team): its members can then
    neither upload to it, nor play it, nor move it back into play."""
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.utils import timezone

    from botregistry.models import Bot

    Bot.objects.filter(pk=world.bot.pk).update(retired_at=timezone.now())
    bob = client_for(world.bob)
    versions = world.bot.versions.count()
    upload = bob.post(f"/api/bots/{world.bot.pk}/versions/",
                      {"archive": SimpleUploadedFile("bot.zip", b"PK\x05\x06" + b"\x00" * 18)}, format="multipart")
    assert upload.status_code in (403, 409), upload.content
    assert "retired" in upload.json()["detail"]
    assert world.bot.versions.count() == versions
    assert bob.patch(f"/api/bots/{world.bot.pk}/", {"description": "back"}, format="json").status_code in (403, 409)
    moved = client_for(world.alice).post(f"/api/bots/{world.bot.pk}/transfer/", {"user": "alice"}, format="json")
    assert moved.status_code in (403, 409), moved.content
    assert Bot.objects.get(pk=world.bot.pk).team_id == world.team.pk


def test_a_bot_is_not_moved_into_a_team_its_owner_is_not_in(world, client_for, make_user):
    from platform_helpers import make_bot

    from teams import services

    mallory = make_user("mallory")
    services.create_team(mallory, "Black Hats")
    victim_bot = make_bot(world.eve, "eve-two")
    # mallory moves eve's bot into her own team; eve moves her bot into a team she is not in
    assert client_for(mallory).post(f"/api/bots/{victim_bot.pk}/transfer/", {"team": "black-hats"},
                                    format="json").status_code == 403
    assert client_for(world.eve).post(f"/api/bots/{victim_bot.pk}/transfer/", {"team": "black-hats"},
                                      format="json").status_code == 403
    # a plain member moves the team's bot out to themselves
    assert client_for(world.bob).post(f"/api/bots/{world.bot.pk}/transfer/", {"user": "bob"},
                                      format="json").status_code == 403
    victim_bot.refresh_from_db()
    world.bot.refresh_from_db()
    assert victim_bot.team_id is None and world.bot.team_id == world.team.pk and world.bot.owner == world.alice


def test_invitations_show_a_deleted_inviter_as_deleted_account(world, client_for, make_user):
    from accounts.deletion import delete_account
    from teams import services

    services.set_role(world.team, world.alice, world.bob, "owner")
    make_user("carol")
    services.invite_user(world.team, world.alice, "carol")
    assert delete_account(world.alice)
    listed = client_for(world.bob).get("/api/teams/red-team/invitations/").json()["results"]
    assert len(listed) == 2 and {i["invited_by"] for i in listed} == {"deleted account"}  # bob's and carol's


ODD_BODIES = [
    b"\xff\xfe\x00not utf-8",
    json.dumps({"name": {"nested": [1, {"x": None}]}, "username": ["a"], "key": {"k": 1}, "team": [1],
                "user": {"u": 2}, "link": "maybe", "role": ["owner"], "password": {"p": 1}, "email": [1]}).encode(),
    json.dumps({"name": "n" * 100_000, "username": "u" * 100_000, "key": "k" * 100_000, "team": "t" * 100_000,
                "description": "d" * 100_000, "email": "e" * 100_000 + "@x.org", "password": "p" * 100_000}).encode(),
    json.dumps({"name": "a\x00b", "username": "a\x00b", "key": "a\x00b", "team": "a\x00b", "user": "a\x00b",
                "email": "a\x00b@x.org", "password": "a\x00b"}).encode(),
    b"[" * 5000 + b"]" * 5000,
]


@pytest.mark.parametrize("body", ODD_BODIES, ids=["non-utf8", "nested", "huge", "nul", "deep"])
def test_odd_bodies_on_the_new_endpoints_are_4xx_and_change_nothing(world, client_for, body):
    from django.contrib.auth import get_user_model

    from teams.models import Invitation, Membership, Team

    before = (Team.objects.count(), Membership.objects.count(), Invitation.objects.count())
    alice, bob = client_for(world.alice), client_for(world.bob)
    calls = [(alice, "post", "/api/teams/"), (alice, "patch", "/api/teams/red-team/"),
             (alice, "post", "/api/teams/red-team/invitations/"), (alice, "patch", "/api/teams/red-team/members/bob/"),
             (bob, "post", "/api/invitations/join/"), (alice, "post", f"/api/bots/{world.bot.pk}/transfer/"),
             (bob, "delete", "/api/auth/me/"), (bob, "post", "/api/auth/email/"),
             (bob, "post", "/api/auth/password/change/"), (client_for(), "post", "/api/auth/password/reset/"),
             (client_for(), "post", "/api/auth/password/reset/confirm/"), (client_for(), "post", "/api/auth/email/verify/"),
             (client_for(), "post", "/api/auth/signup/")]
    for client, method, path in calls:
        response = getattr(client, method)(path, body, content_type="application/json")
        if path == "/api/teams/red-team/" and b'"description"' not in body and response.status_code == 200:
            continue  # a PATCH without the one field it may change changes nothing
        assert 400 <= response.status_code < 500, (path, response.status_code, response.content[:300])
    assert Team.objects.get().description == ""
    assert (Team.objects.count(), Membership.objects.count(), Invitation.objects.count()) == before
    assert get_user_model().objects.get(pk=world.bob.pk).is_active


def test_odd_team_addresses_and_keys_in_urls_are_404(world, make_user, anon):
    browser = _browser(make_user())
    for path in ("/teams/%ff%fe/", "/teams/join/%00/", "/teams/join/" + "k" * 5000 + "/", "/api/teams/%ff/",
                 "/api/teams/red-team/members/%00/", "/api/teams/red-team/invitations/99999999999999999999/"):
        assert browser.get(path).status_code in (404, 405), path
        assert anon.delete(path).status_code in (302, 401, 403, 404, 405), path  # 302: to the log-in page


def test_an_expired_link_keeps_no_one_in_and_is_swept(world, make_user):
    """Expired and answered invitations are deleted by `manage.py sweep_invitations` (and the periodic task)."""
    from django.core.management import call_command
    from django.utils import timezone

    from teams import services
    from teams.models import Invitation

    old_link, key = services.invite_link(world.team, world.alice)
    carol = make_user("carol")
    named = services.invite_user(world.team, world.alice, "carol")
    fresh, _ = services.invite_link(world.team, world.alice)
    Invitation.objects.filter(pk__in=[old_link.pk, named.pk]).update(
        expires_at=timezone.now() - timedelta(days=31), created_at=timezone.now() - timedelta(days=40))
    with pytest.raises(services.TeamRefused) as refused:
        services.accept(services.by_key(key), carol, key=key)
    assert refused.value.status == 410
    kept = set(Invitation.objects.exclude(pk__in=[old_link.pk, named.pk]).values_list("pk", flat=True))
    assert fresh.pk in kept
    call_command("sweep_invitations")
    assert set(Invitation.objects.values_list("pk", flat=True)) == kept


@pytest.mark.parametrize("body", [b"action=create&name=%FF%FE%00", b"action=invite&username=%C0%AF",
                                  b"action=bot-in&bot=%00", b"action=role&user=1&role=" + b"x" * 10_000,
                                  b"\xff\xfe=\xff", b"action=accept&invitation=-1"])
def test_odd_web_forms_are_answered_without_a_500(world, body):
    from teams.models import Invitation, Membership, Team

    before = (Team.objects.count(), Membership.objects.count(), Invitation.objects.count())
    browser = _browser(world.alice)
    for path in ("/teams/", "/teams/red-team/", f"/teams/join/{'k' * 40}/", "/me/delete/", "/login/", "/signup/"):
        response = browser.post(path, body, content_type="application/x-www-form-urlencoded")
        assert response.status_code < 500, (path, response.status_code)
    assert (Team.objects.count(), Membership.objects.count(), Invitation.objects.count()) == before


def test_the_join_page_says_when_a_link_expired_and_never_names_a_deleted_inviter(world, make_user):
    from accounts.deletion import delete_account
    from teams import services
    from teams.models import Invitation

    services.set_role(world.team, world.alice, world.bob, "owner")
    link, key = services.invite_link(world.team, world.alice)
    assert delete_account(world.alice)
    carol = _browser(make_user("carol"))
    page = carol.get(f"/teams/join/{key}/").content.decode()
    assert "deleted account invites you" in page and "deleted-" not in page
    Invitation.objects.filter(pk=link.pk).update(expires_at="2000-01-01T00:00:00Z")
    page = carol.get(f"/teams/join/{key}/").content.decode()
    assert "has expired" in page and "Accept and join" not in page


def test_a_team_whose_last_member_deletes_their_account_has_its_bots_retired(world, client_for):
    """Nobody is left who could fix, move or stop them: the team's bots leave play like the person's own, their
    matches and ratings stay. A team that keeps a member keeps playing (test_team_rules)."""
    from accounts.deletion import delete_account
    from botregistry.models import Bot
    from teams import services

    services.remove_member(world.team, world.alice, world.bob)
    link, key = services.invite_link(world.team, world.alice)
    assert delete_account(world.alice)
    bot = Bot.objects.get(pk=world.bot.pk)
    assert bot.team_id == world.team.pk and bot.retired_at is not None and bot.playing_version is None
    link.refresh_from_db()
    assert link.status == "revoked"
    from ladders.models import Rating

    Rating.objects.get_or_create(ladder=world.ladder, bot=bot)
    ladder = client_for().get(f"/api/ladders/{world.ladder.slug}/leaderboard/")
    assert ladder.status_code == 200 and "red-bot" not in ladder.content.decode(), "it left the leaderboard"


def test_a_members_export_lists_their_teams_but_not_the_teams_bots_as_their_own(world, client_for):
    import json as _json

    def export_of(user):
        response = client_for(user).get("/api/auth/me/export/")
        assert response.status_code == 200
        return _json.loads(b"".join(response.streaming_content))

    alice, bob = export_of(world.alice), export_of(world.bob)
    assert [(t["slug"], t["role"]) for t in alice["teams"]] == [("red-team", "owner")]
    assert alice["teams"][0]["bots_made"] == [{"id": world.bot.pk, "name": "red-bot"}]
    assert "red-bot" not in [b["name"] for b in alice["bots"]], "a team's bot is the team's, not its maker's"
    assert [(t["slug"], t["role"], t["bots_made"]) for t in bob["teams"]] == [("red-team", "member", [])]
    assert bob["bots"] == [] and client_for(world.eve).get("/api/auth/me/export/").status_code == 200
    assert export_of(world.eve)["teams"] == []


def test_look_alike_names_are_found_by_an_indexed_column_whoever_saves_the_team(world, client_for, make_user):
    """The admin saves teams too: the skeleton follows the name; a name NFKC makes 18 times longer still fits."""
    from teams.models import Team

    assert Team.objects.get(slug="red-team").skeleton == "redteam"
    world.team.name = "Blue Team"
    world.team.save(update_fields=["name"])
    assert Team.objects.get(slug="red-team").skeleton == "blueteam"
    user = client_for(make_user())
    assert user.post("/api/teams/", {"name": "B1ue Team"}, format="json").status_code == 409
    assert user.post("/api/teams/", {"name": "Red Team"}, format="json").status_code == 409  # its slug is taken
    long = user.post("/api/teams/", {"name": "x" + "\ufdfa" * 63}, format="json")
    assert long.status_code in (201, 400), long.content


def test_making_teams_and_invitations_is_rate_limited_on_the_api_and_the_web(world, client_for, settings):
    from django.core.cache import cache

    from teams.models import Invitation, Team

    cache.clear()
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {
        **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "teams.user": "3/hour", "teams.address": "1000/hour"}}
    alice = client_for(world.alice)
    answers = [alice.post("/api/teams/", {"name": f"Squat {n}"}, format="json").status_code for n in range(3)]
    answers.append(alice.post("/api/teams/red-team/invitations/", {"link": True}, format="json").status_code)
    assert answers == [201, 201, 201, 429]
    browser = _browser(world.alice)
    browser.post("/teams/", {"action": "create", "name": "Squat web"})
    browser.post("/teams/red-team/", {"action": "link"})
    assert Team.objects.filter(name__startswith="Squat").count() == 3
    assert Invitation.objects.filter(key_digest__isnull=False).count() == 0
    assert alice.get("/api/teams/").status_code == 200, "reading is not limited"
    cache.clear()
