"""A team whose only bots are retired can be deleted by its owners (`teams.services.delete_team`): the bots keep
their matches and ratings and show the team as "deleted team"; the members and invitations go; the name is free
for a new team. A team with a bot that still plays can't be deleted."""

from __future__ import annotations

import pytest
from platform_helpers import make_bot

from tests.platform.test_account_deletion import play

pytestmark = pytest.mark.django_db


@pytest.fixture
def retired(world, settings, tmp_path):
    """The team's bot played rated matches against eve's, then staff retired it; a link invitation waits."""
    from django.utils import timezone

    from teams import services

    settings.STORAGE_DIR = tmp_path / "storage"
    matches = [play(world.ladder, [world.bot, world.theirs], [1, 2]),
               play(world.ladder, [world.theirs, world.bot], [1, 2])]
    services.invite_link(world.team, world.alice)
    services.invite_user(world.team, world.alice, "eve")
    world.bot.retired_at = timezone.now()
    world.bot.save(update_fields=["retired_at"])
    return matches


def _facts(world):
    from ladders.models import Rating
    from matches.models import Participant

    return (list(Participant.objects.filter(bot=world.bot).order_by("pk")
                 .values_list("match_id", "rank", "score", "elo_before", "elo_after")),
            list(Rating.objects.filter(bot=world.bot).values_list("rating", "elo", "games", "wins")))


def test_owners_delete_a_team_of_retired_bots_and_its_matches_and_ratings_stay(world, retired, client_for, client):
    from teams.models import Invitation, Membership, Team

    before = _facts(world)
    assert before[0] and before[1]
    assert client_for(world.bob).delete("/api/teams/red-team/").status_code == 403  # a member may not
    assert client_for(world.alice).delete("/api/teams/red-team/").status_code == 204
    world.bot.refresh_from_db()
    team = Team.all_teams.get(pk=world.team.pk)
    assert team.deleted_at is not None and world.bot.team_id == team.pk and world.bot.retired_at is not None
    assert _facts(world) == before
    assert not Membership.objects.filter(team=team).exists() and not Invitation.objects.filter(team=team).exists()
    assert not Team.objects.filter(pk=team.pk).exists()  # gone from lists and addresses
    for url in (f"/bots/{world.bot.pk}/", f"/matches/{retired[0].pk}/", "/ladders/thebes-2p/", "/teams/",
                "/users/alice/"):
        page = client.get(url)
        assert page.status_code == 200, url
        assert "Red Team" not in page.content.decode(), url
    assert "deleted team" in client.get(f"/bots/{world.bot.pk}/").content.decode()
    assert "deleted team" in client.get(f"/matches/{retired[0].pk}/").content.decode()
    assert "its team was deleted" in client.get(f"/bots/{world.bot.pk}/").content.decode()
    assert client.get("/teams/red-team/").status_code == 404
    assert client.get(f"/teams/{team.slug}/").status_code == 404
    assert client_for().get("/api/teams/red-team/").status_code == 404
    api_bot = client_for().get(f"/api/bots/{world.bot.pk}/").json()
    assert api_bot["team"] == f"deleted-team-{team.pk}" and api_bot["status"] == "retired: its team was deleted"
    bob = client_for(world.bob)
    assert bob.get("/api/teams/?mine=1").json()["results"] == []
    client.force_login(world.alice)
    assert client.get("/me/").status_code == 200 and client.get("/teams/").status_code == 200


def test_the_name_is_free_for_a_new_team_which_inherits_nothing(world, retired, client_for):
    from teams import services

    services.delete_team(world.team, world.alice)
    again = services.create_team(world.eve, "Red Team")
    assert again.slug == "red-team" and not again.bots.exists()
    world.bot.refresh_from_db()
    assert world.bot.team_id != again.pk
    assert client_for().get(f"/api/bots/{world.bot.pk}/").json()["team"] != "red-team"
    with pytest.raises(services.TeamRefused):  # nobody takes the name pages show for it
        services.create_team(world.eve, "Deleted Team")


def test_a_team_with_a_bot_that_plays_is_not_deleted(world, retired, client_for):
    from teams.models import Team

    playing = make_bot(world.alice, "blue-bot")
    from botregistry import ownership

    ownership.transfer(playing, world.alice, team=world.team)
    got = client_for(world.alice).delete("/api/teams/red-team/")
    assert got.status_code == 409 and "move each to a member" in got.json()["detail"]
    assert Team.objects.get(pk=world.team.pk).memberships.count() == 2


def test_the_web_delete_button_deletes_a_team_of_retired_bots(world, retired, client):
    from teams.models import Team

    client.force_login(world.alice)
    got = client.post("/teams/red-team/", {"action": "delete"}, follow=True)
    assert got.status_code == 200 and "Team Red Team deleted" in got.content.decode()
    assert Team.all_teams.get(pk=world.team.pk).deleted_at is not None


def test_staff_still_find_a_deleted_team_in_the_admin(world, retired, make_user, client):
    from teams import services

    services.delete_team(world.team, world.alice)
    staff = make_user("root")
    staff.is_staff = staff.is_superuser = True
    staff.save()
    client.force_login(staff)
    listing = client.get("/admin/teams/team/")
    assert listing.status_code == 200 and f"deleted-team-{world.team.pk}" in listing.content.decode()
    assert client.get(f"/admin/teams/team/{world.team.pk}/change/").status_code == 200
