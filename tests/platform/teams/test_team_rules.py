"""Teams through the API: making one, invitations (by user name: only the invitee; by link: once, until it
expires, only a digest stored), roles (a member manages nothing), leaving, and a team always keeping an owner."""

from __future__ import annotations

from datetime import timedelta

import pytest

pytestmark = pytest.mark.django_db


def test_make_a_team_and_read_it(client_for, make_user, anon):
    carol = make_user("carol")
    made = client_for(carol).post("/api/teams/", {"name": "Blue Owls", "description": "we play Minos"}, format="json")
    assert made.status_code == 201, made.content
    assert made.json()["slug"] == "blue-owls"
    assert made.json()["members"] == [{"username": "carol", "role": "owner", "joined_at": made.json()["members"][0]["joined_at"]}]
    page = anon.get("/api/teams/blue-owls/").json()
    assert page["name"] == "Blue Owls" and page["bots"] == []
    assert anon.post("/api/teams/", {"name": "x"}, format="json").status_code == 401


@pytest.mark.parametrize("name, status", [("Blue Owls", 409), ("blue  owls", 409), ("Arena Masters", 400),
                                          ("Official", 400), ("", 400), ("!!!", 400)])
def test_team_names_follow_the_reserved_name_rules_and_are_unique(client_for, make_user, name, status):
    carol = make_user("carol")
    assert client_for(carol).post("/api/teams/", {"name": "Blue Owls"}, format="json").status_code == 201
    response = client_for(make_user()).post("/api/teams/", {"name": name}, format="json")
    assert response.status_code == status, response.content
    assert "detail" in response.json() or name == ""


def test_an_invitation_by_name_is_accepted_only_by_its_invitee(world, client_for, make_user):
    carol = make_user("carol")
    made = client_for(world.alice).post("/api/teams/red-team/invitations/", {"username": "carol"}, format="json")
    assert made.status_code == 201, made.content
    inv = made.json()["id"]
    # nobody else sees it or can answer it, not even a team member
    for other in (world.eve, world.bob):
        assert client_for(other).post(f"/api/invitations/{inv}/accept/").status_code == 404
        assert client_for(other).post(f"/api/invitations/{inv}/decline/").status_code == 404
        assert client_for(other).get("/api/invitations/").json()["count"] == 0
    assert client_for(carol).get("/api/invitations/").json()["results"][0]["team"] == "red-team"
    assert client_for(carol).post(f"/api/invitations/{inv}/accept/").status_code == 200
    roles = {m["username"]: m["role"] for m in client_for(carol).get("/api/teams/red-team/").json()["members"]}
    assert roles == {"alice": "owner", "bob": "member", "carol": "member"}
    assert client_for(carol).post(f"/api/invitations/{inv}/accept/").status_code == 409  # used once


def test_a_declined_or_expired_invitation_cannot_be_accepted(world, client_for, make_user):
    from teams.models import Invitation

    carol, dave = make_user("carol"), make_user("dave")
    owner = client_for(world.alice)
    inv = owner.post("/api/teams/red-team/invitations/", {"username": "carol"}, format="json").json()["id"]
    assert client_for(carol).post(f"/api/invitations/{inv}/decline/").status_code == 204
    assert client_for(carol).post(f"/api/invitations/{inv}/accept/").status_code == 409
    inv = owner.post("/api/teams/red-team/invitations/", {"username": "dave"}, format="json").json()["id"]
    Invitation.objects.filter(pk=inv).update(expires_at=Invitation.objects.get(pk=inv).created_at - timedelta(seconds=1))
    assert client_for(dave).post(f"/api/invitations/{inv}/accept/").status_code == 410
    assert not world.team.memberships.filter(user__username__in=["carol", "dave"]).exists()


def test_a_link_invitation_is_used_once_and_only_its_digest_is_kept(world, client_for, make_user, anon):
    from teams.models import Invitation

    carol, dave = make_user("carol"), make_user("dave")
    made = client_for(world.alice).post("/api/teams/red-team/invitations/", {"link": True}, format="json")
    assert made.status_code == 201, made.content
    key, url = made.json()["key"], made.json()["url"]
    assert url.endswith(f"/teams/join/{key}/")
    row = Invitation.objects.get(pk=made.json()["id"])
    assert key not in str([getattr(row, f.attname) for f in Invitation._meta.fields])  # only SHA-256 of it
    listed = client_for(world.alice).get("/api/teams/red-team/invitations/").json()["results"]
    assert "key" not in listed[0] and listed[0]["link"] is True
    assert anon.post("/api/invitations/join/", {"key": key}, format="json").status_code == 401
    assert client_for(carol).post("/api/invitations/join/", {"key": key + "x"}, format="json").status_code == 404
    assert client_for(carol).post("/api/invitations/join/", {"key": key}, format="json").status_code == 200
    assert client_for(dave).post("/api/invitations/join/", {"key": key}, format="json").status_code == 409
    # an expired link joins nobody
    key2 = client_for(world.alice).post("/api/teams/red-team/invitations/", {"link": True}, format="json").json()["key"]
    Invitation.objects.filter(key_prefix=key2[:8]).update(expires_at="2000-01-01T00:00:00Z")
    assert client_for(dave).post("/api/invitations/join/", {"key": key2}, format="json").status_code == 410
    members = set(world.team.memberships.values_list("user__username", flat=True))
    assert members == {"alice", "bob", "carol"}


def test_the_web_link_page_joins_only_on_a_post(world, make_user):
    from django.test import Client

    from teams import services

    _, key = services.invite_link(world.team, world.alice)
    carol = make_user("carol")
    browser = Client()
    browser.force_login(carol)
    page = browser.get(f"/teams/join/{key}/")
    assert page.status_code == 200 and b"Accept and join" in page.content
    assert page["Cache-Control"] == "no-store"
    assert not services.is_member(world.team, carol)  # a link preview (GET) joins nobody
    assert browser.post(f"/teams/join/{key}/").status_code == 302
    services.forget(carol)
    assert services.is_member(world.team, carol)
    assert browser.get("/teams/join/not-a-key/").status_code == 404


def test_a_member_cannot_manage_the_team(world, client_for, make_user):
    make_user("carol")
    bob = client_for(world.bob)
    assert bob.post("/api/teams/red-team/invitations/", {"username": "carol"}, format="json").status_code == 403
    assert bob.post("/api/teams/red-team/invitations/", {"link": True}, format="json").status_code == 403
    assert bob.get("/api/teams/red-team/invitations/").status_code == 403
    assert bob.patch("/api/teams/red-team/members/bob/", {"role": "owner"}, format="json").status_code == 403
    assert bob.patch("/api/teams/red-team/members/alice/", {"role": "member"}, format="json").status_code == 403
    assert bob.delete("/api/teams/red-team/members/alice/").status_code == 403
    assert bob.patch("/api/teams/red-team/", {"description": "ours"}, format="json").status_code == 403
    assert bob.delete("/api/teams/red-team/").status_code == 403
    assert bob.post(f"/api/bots/{world.bot.pk}/transfer/", {"user": "bob"}, format="json").status_code == 403
    roles = dict(world.team.memberships.values_list("user__username", "role"))
    assert roles == {"alice": "owner", "bob": "member"}
    world.bot.refresh_from_db()
    assert world.bot.team_id == world.team.pk


def test_a_team_keeps_an_owner(world, client_for):
    alice, bob = client_for(world.alice), client_for(world.bob)
    assert alice.post("/api/teams/red-team/leave/").status_code == 409
    assert alice.patch("/api/teams/red-team/members/alice/", {"role": "member"}, format="json").status_code == 409
    assert alice.delete("/api/teams/red-team/members/alice/").status_code == 409
    assert alice.delete("/api/teams/red-team/").status_code == 409  # it owns a bot
    # hand over: bob becomes an owner, then alice may step down and leave
    assert alice.patch("/api/teams/red-team/members/bob/", {"role": "owner"}, format="json").status_code == 200
    assert alice.post("/api/teams/red-team/leave/").status_code == 204
    assert dict(world.team.memberships.values_list("user__username", "role")) == {"bob": "owner"}
    assert bob.post("/api/teams/red-team/leave/").status_code == 409


def test_leaving_ends_what_a_member_may_do(world, client_for):
    bob = client_for(world.bob)
    assert bob.patch(f"/api/bots/{world.bot.pk}/", {"description": "bob's"}, format="json").status_code == 200
    assert bob.post("/api/teams/red-team/leave/").status_code == 204
    assert bob.post("/api/teams/red-team/leave/").status_code == 404
    assert bob.patch(f"/api/bots/{world.bot.pk}/", {"description": "still?"}, format="json").status_code == 403


def test_an_owner_removes_a_member_and_deletes_an_empty_team(world, client_for):
    alice = client_for(world.alice)
    assert alice.delete("/api/teams/red-team/members/bob/").status_code == 204
    assert alice.post(f"/api/bots/{world.bot.pk}/transfer/", {"user": "alice"}, format="json").status_code == 200
    assert alice.delete("/api/teams/red-team/").status_code == 204
    world.bot.refresh_from_db()
    assert world.bot.team_id is None and world.bot.owner_id == world.alice.pk


def test_the_schema_lists_the_team_api(anon):
    schema = anon.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    paths = schema["paths"]
    for p in ("/api/teams/", "/api/teams/{slug}/", "/api/teams/{slug}/leave/", "/api/teams/{slug}/invitations/",
              "/api/teams/{slug}/members/{username}/", "/api/invitations/", "/api/invitations/{id}/accept/",
              "/api/invitations/{id}/decline/", "/api/invitations/join/", "/api/bots/{id}/transfer/"):
        assert p in paths, p
    assert "team" in schema["components"]["schemas"]["Bot"]["properties"]


def test_a_deleted_account_leaves_its_teams_which_keep_an_owner_and_their_bots(world, make_user):
    from accounts.deletion import delete_account
    from teams import services
    from teams.models import Team

    carol = make_user("carol")
    solo = services.create_team(carol, "Solo")
    services.invite_user(world.team, world.alice, "carol")
    assert delete_account(world.alice)
    world.bot.refresh_from_db()
    roles = dict(world.team.memberships.values_list("user__username", "role"))
    assert roles == {"bob": "owner"}  # the longest-standing member took over
    assert world.bot.team_id == world.team.pk and world.bot.retired_at is None  # the team's bot plays on
    assert delete_account(carol)
    assert not Team.objects.filter(pk=solo.pk).exists()  # no member, no bot: gone
    assert not world.team.invitations.filter(invitee__username="carol").exists()


@pytest.mark.parametrize("field, value", [("name", "bad\x00name"), ("name", "x" * 65), ("name", "tab\tname"),
                                          ("description", "d" * 2001)])
def test_hostile_team_forms_are_refused_without_a_trace(world, field, value):
    from django.test import Client

    from teams.models import Team

    browser = Client()
    browser.force_login(world.alice)
    body = {"action": "create", "name": "Fine Name", "description": "", field: value}
    assert browser.post("/teams/", body).status_code == 302  # back to the page, with the reason as a message
    assert set(Team.objects.values_list("name", flat=True)) == {"Red Team"}
    for username in ("eve\x00", "x" * 200, ""):
        assert browser.post("/teams/red-team/", {"action": "invite", "username": username}).status_code == 302
    for bad in ("1\x00", "99999999999999999999999", "x"):
        assert browser.post("/teams/red-team/", {"action": "remove", "user": bad}).status_code in (302, 404)
        assert browser.post("/teams/", {"action": "accept", "invitation": bad}).status_code == 302
    assert world.team.invitations.filter(status="pending").count() == 0
    assert world.team.memberships.count() == 2
