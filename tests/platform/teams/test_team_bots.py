"""A team's bot: every member plays it (upload, activate, validate again, challenge, version tests, private logs),
nobody else can do any of it; moving bots between a person and a team; one entrant per team in the fairness
rules (ladder tables, version-test opponents, tournament entries, running version tests); who is told."""

from __future__ import annotations

import random
from datetime import UTC

import pytest
from platform_helpers import bot_files, make_bot, upload, zip_bytes

pytestmark = pytest.mark.django_db


def _ready_version(bot, number):
    from botregistry.models import BotVersion

    return BotVersion.objects.create(bot=bot, number=number, sha256=f"{bot.pk}-{number}", status="ready",
                                     package_dir=f"/nonexistent/{bot.pk}-{number}", validation_log="secret log")


def _actions(client, world, version):
    """Every action a member may take on the team's bot, each as (name, response)."""
    from matches.models import Match

    bot = world.bot
    v2 = _ready_version(bot, 2) if not bot.versions.filter(number=2).exists() else bot.versions.get(number=2)
    failed = bot.versions.filter(status="failed").first()
    return {
        "upload": upload(client, bot.pk, zip_bytes(bot_files(name="red-bot"))),
        "activate": client.patch(f"/api/bots/{bot.pk}/", {"active_version": v2.pk}, format="json"),
        "describe": client.patch(f"/api/bots/{bot.pk}/", {"description": "x"}, format="json"),
        "revalidate": client.post(f"/api/versions/{failed.pk}/revalidate/"),
        "challenge": client.post("/api/challenges/", {"ladder": "thebes-2p", "bot": bot.pk,
                                                      "opponents": [world.theirs.pk]}, format="json"),
        "version test": client.post("/api/version-tests/", {"version_a": version.pk, "version_b": v2.pk,
                                                            "ladder": world.ladder.pk}, format="json"),
        "transfer": client.post(f"/api/bots/{bot.pk}/transfer/", {"user": "eve"}, format="json"),
        "challenges made": Match.objects.filter(kind="challenge").count(),
    }


@pytest.fixture
def failed_version(world):
    from arena.botcheck import BUILD_TIMED_OUT
    from botregistry.models import BotVersion

    return BotVersion.objects.create(bot=world.bot, number=3, sha256="f", status="failed", package_dir="/x",
                                     status_reason=BUILD_TIMED_OUT, validation_log="build timed out")


def test_a_non_member_can_do_none_of_a_members_actions(world, client_for, failed_version, settings):
    from botregistry.models import BotVersion
    from versiontests.models import VersionTest

    settings.ARENA_SANDBOX = "worker"  # uploads accepted without probing the sandbox here
    v1 = world.bot.active_version
    before = dict(world.bot.__dict__)
    got = _actions(client_for(world.eve), world, v1)
    for name in ("upload", "activate", "describe", "revalidate", "challenge", "version test", "transfer"):
        assert got[name].status_code in (403, 404), (name, got[name].status_code, got[name].content)
    assert got["challenges made"] == 0 and not VersionTest.objects.exists()
    world.bot.refresh_from_db()
    assert world.bot.active_version_id == before["active_version_id"] and world.bot.description == ""
    assert world.bot.team_id == world.team.pk
    assert not BotVersion.objects.filter(bot=world.bot, number__gt=3).exists()  # no upload was kept
    assert BotVersion.objects.get(pk=failed_version.pk).status == "failed"
    # and the owner-only reading: validation logs
    logs = client_for(world.eve).get(f"/api/bots/{world.bot.pk}/versions/").json()["results"]
    assert all(v["validation_log"] is None for v in logs)


def test_a_member_who_did_not_make_the_bot_can_do_all_of_it(world, client_for, failed_version, settings):
    settings.ARENA_SANDBOX = "worker"
    got = _actions(client_for(world.bob), world, world.bot.active_version)
    assert got["upload"].status_code == 201, got["upload"].content
    assert got["activate"].status_code == 200, got["activate"].content
    assert got["describe"].status_code == 200
    assert got["revalidate"].status_code == 202, got["revalidate"].content
    assert got["challenge"].status_code == 201, got["challenge"].content
    assert got["version test"].status_code in (201, 400), got["version test"].content  # 400 only: no opponents
    assert got["transfer"].status_code == 403  # moving the bot is the team owners' (and eve is no member)
    logs = client_for(world.bob).get(f"/api/bots/{world.bot.pk}/versions/").json()["results"]
    assert any(v["validation_log"] == "secret log" for v in logs)


def test_a_members_version_test_and_the_per_team_quota(world, client_for, make_user, settings):
    from versiontests.models import VersionTest

    settings.ARENA_VERSION_TESTS_PER_OWNER = 1
    for i in range(3):  # opponents of other owners
        make_bot(make_user(f"opp{i}"), f"opp{i}")
    v1, v2 = world.bot.active_version, _ready_version(world.bot, 2)
    body = {"version_a": v1.pk, "version_b": v2.pk, "ladder": world.ladder.pk}
    made = client_for(world.bob).post("/api/version-tests/", body, format="json")
    assert made.status_code == 201, made.content
    # the quota is the team's: alice, another member, can't start a second one
    again = client_for(world.alice).post("/api/version-tests/", body, format="json")
    assert again.status_code == 400 and "team Red Team" in again.content.decode()
    # a member's personal bot is another entrant with its own quota
    mine = make_bot(world.alice, "alice-own")
    own = {"version_a": mine.active_version.pk, "version_b": _ready_version(mine, 2).pk, "ladder": world.ladder.pk}
    assert client_for(world.alice).post("/api/version-tests/", own, format="json").status_code == 201
    # any member (not only who started it) may stop the team's test; an outsider may not
    test = VersionTest.objects.get(pk=made.json()["id"])
    assert client_for(world.eve).post(f"/api/version-tests/{test.pk}/stop/").status_code == 403
    assert client_for(world.alice).post(f"/api/version-tests/{test.pk}/stop/").status_code == 200


def test_version_test_opponents_are_never_the_teams_nor_the_starters_bots(world, make_user):
    from botregistry import ownership
    from matches.models import Participant
    from versiontests import services as vt

    twin = make_bot(world.alice, "red-twin")
    ownership.transfer(twin, world.alice, team=world.team)
    make_bot(world.bob, "bob-own")  # bob starts the test: his own bot is never his opponent
    others = [make_bot(make_user(f"opp{i}"), f"opp{i}") for i in range(2)]
    v1, v2 = world.bot.active_version, _ready_version(world.bot, 2)
    for seed in range(5):
        test = vt.create(owner=world.bob, version_a=v1, version_b=v2, ladder=world.ladder, rng=random.Random(seed))
        seated = set(Participant.objects.filter(match__requested_by=world.bob, match__kind="version_test")
                     .exclude(bot=world.bot).values_list("bot_id", flat=True))
        assert seated and seated <= {world.theirs.pk, *(o.pk for o in others)}, seated
        vt.stop(test.pk)


def test_moving_bots_between_people_and_teams(world, client_for, make_user):
    from teams import services

    other = services.create_team(world.eve, "Green")
    mine = make_bot(world.bob, "bobs-bot")
    bob, alice = client_for(world.bob), client_for(world.alice)
    # only its owner moves a personal bot, and only into a team they belong to
    assert alice.post(f"/api/bots/{mine.pk}/transfer/", {"team": "red-team"}, format="json").status_code == 403
    assert bob.post(f"/api/bots/{mine.pk}/transfer/", {"team": "green"}, format="json").status_code == 403
    assert bob.post(f"/api/bots/{mine.pk}/transfer/", {"team": "nope"}, format="json").status_code == 404
    assert bob.post(f"/api/bots/{mine.pk}/transfer/", {}, format="json").status_code == 400
    moved = bob.post(f"/api/bots/{mine.pk}/transfer/", {"team": "red-team"}, format="json")
    assert moved.status_code == 200 and moved.json()["team"] == "red-team"
    assert bob.post(f"/api/bots/{mine.pk}/transfer/", {"team": "red-team"}, format="json").status_code == 403
    # a team owner moves it to a member (not to an outsider); the member then owns it alone
    assert alice.post(f"/api/bots/{mine.pk}/transfer/", {"user": "eve"}, format="json").status_code == 400
    back = alice.post(f"/api/bots/{mine.pk}/transfer/", {"user": "alice"}, format="json")
    assert back.status_code == 200 and back.json()["team"] is None and back.json()["owner"] == "alice"
    assert bob.patch(f"/api/bots/{mine.pk}/", {"description": "mine?"}, format="json").status_code == 403
    # names stay unique per team and per person
    clash = make_bot(world.bob, "red-bot")
    assert bob.post(f"/api/bots/{clash.pk}/transfer/", {"team": "red-team"}, format="json").status_code == 409
    assert other.bots.count() == 0
    assert client_for(world.eve).get("/api/bots/?team=red-team").json()["count"] == 1
    assert {b["name"] for b in bob.get("/api/bots/?mine=1").json()["results"]} == {"red-bot"}


def test_two_bots_of_one_team_never_share_a_ladder_table(world, make_user):
    """Rule 3 of matchmaking, per stake: red-bot and red-twin (one team, two makers) never meet, nor a member's own
    bot and the team's bots (the member could throw one game to the other); an outsider's bot meets them."""
    from botregistry import ownership
    from matches.models import Match
    from matchmaking.rules import pick_table
    from matchmaking.services import candidates, matchmake

    twin = make_bot(world.bob, "red-twin")
    ownership.transfer(twin, world.bob, team=world.team)
    world.theirs.delete()
    pool = candidates(world.ladder)
    assert {c.bot_id for c in pool} == {world.bot.pk, twin.pk}
    for seed in range(50):
        assert pick_table(pool, 2, random.Random(seed)) is None  # only the team's two bots: no table
    own = make_bot(world.bob, "bob-own")
    for seed in range(50):  # bob has a stake in all three
        assert pick_table(candidates(world.ladder), 2, random.Random(seed)) is None
    outsider = make_bot(world.eve, "eve-bot")
    matchmake(random.Random(1))
    tables = [set(m.participants.values_list("bot_id", flat=True)) for m in Match.objects.all()]
    bobs_stake = {world.bot.pk, twin.pk, own.pk}
    assert tables and all(len(t & bobs_stake) == 1 and outsider.pk in t for t in tables)


def test_the_matchmaking_rule_on_plain_values():
    from datetime import datetime

    from matchmaking.rules import Candidate, pick_table

    now = datetime(2026, 1, 1, tzinfo=UTC)
    team = {"team_id": 7, "member_ids": (10, 11)}
    c = [Candidate(bot_id=1, owner_id=10, version_id=1, version_created_at=now, rating=1500, **team),
         Candidate(bot_id=2, owner_id=11, version_id=2, version_created_at=now, rating=1500, **team),
         Candidate(bot_id=3, owner_id=10, version_id=3, version_created_at=now, rating=1500),  # member 10's own
         Candidate(bot_id=4, owner_id=12, version_id=4, version_created_at=now, rating=1500),
         Candidate(bot_id=5, owner_id=13, version_id=5, version_created_at=now, rating=1500, team_id=8,
                   member_ids=(11, 13))]  # another team that member 11 is in too
    for seed in range(200):
        table = pick_table(c, 2, random.Random(seed))
        assert table is not None
        seated = {t.bot_id for t in table}
        assert 4 in seated or seated == {3, 5}, seated  # 1, 2, 3 share member 10; 1, 2, 5 share member 11
    for seed in range(50):  # the one threesome free of a common stake
        assert {t.bot_id for t in pick_table(c, 3, random.Random(seed))} == {3, 4, 5}


def test_tournament_entries_are_limited_per_team(world, client_for, make_user):
    from botregistry import ownership

    staff = make_user("staff-t")
    staff.is_staff = True
    staff.save()
    twin = make_bot(world.bob, "red-twin")
    ownership.transfer(twin, world.bob, team=world.team)
    bob_own = make_bot(world.bob, "bob-own")
    body = {"name": "Cup", "game": "thebes", "players": 2, "starts_at": "2030-01-01T00:00:00Z",
            "entries_per_entrant": 1}
    c = client_for(staff)
    refused = c.post("/api/tournaments/", {**body, "bots": [world.bot.pk, twin.pk, world.theirs.pk]}, format="json")
    assert refused.status_code == 400 and "team Red Team" in refused.content.decode()
    # the team's one bot, a member's own bot and another person's: three entrants
    made = c.post("/api/tournaments/", {**body, "bots": [world.bot.pk, bob_own.pk, world.theirs.pk]}, format="json")
    assert made.status_code == 201, made.content
    assert c.patch(f"/api/tournaments/{made.json()['id']}/", {"bots": [world.bot.pk, twin.pk]},
                   format="json").status_code == 400
    no_limit = c.post("/api/tournaments/", {**body, "entries_per_entrant": None, "name": "Open",
                                            "bots": [world.bot.pk, twin.pk]}, format="json")
    assert no_limit.status_code == 201, no_limit.content


def test_team_shown_beside_its_bots(world, anon):
    from ladders.models import Rating

    board = anon.get("/api/ladders/thebes-2p/leaderboard/").json()["results"]
    assert {e["bot_name"]: e["team"] for e in board} == {"red-bot": "red-team", "eve-bot": None}
    assert anon.get(f"/api/bots/{world.bot.pk}/").json()["team"] == "red-team"
    assert Rating.objects.filter(bot=world.bot).exists()
    for page in ("/ladders/thebes-2p/", f"/bots/{world.bot.pk}/", "/teams/"):
        html = anon.get(page).content.decode()
        assert 'href="/teams/red-team/"' in html, page
    html = anon.get("/teams/red-team/").content.decode()
    assert f'href="/bots/{world.bot.pk}/"' in html and "alice" in html and "bob" in html
    assert "Invite" not in html and "Leave" not in html  # a visitor gets no forms
    from matches.models import Match, Participant

    m = Match.objects.create(kind="ladder", ladder=world.ladder, game="thebes", params={"players": 2}, seed=1,
                             status="finished")
    for seat, b in enumerate((world.bot, world.theirs)):
        Participant.objects.create(match=m, seat=seat, bot=b, version=b.active_version, rank=seat + 1)
    assert 'href="/teams/red-team/"' in anon.get(f"/matches/{m.pk}/").content.decode()
    seats = anon.get(f"/api/matches/{m.pk}/").json()["participants"]
    assert [p["team"] for p in seats] == ["red-team", None]


def test_the_bot_page_offers_the_move_to_whom_may_make_it(world, client_for):
    from django.test import Client

    from teams import services

    mine = make_bot(world.bob, "bobs-bot")
    browser = Client()
    browser.force_login(world.bob)
    page = browser.get(f"/bots/{mine.pk}/").content.decode()
    assert "Move to team Red Team" in page
    assert browser.post("/teams/red-team/", {"action": "bot-in", "bot": mine.pk}).status_code == 302
    mine.refresh_from_db()
    assert mine.team_id == world.team.pk
    assert "Move to team" not in browser.get(f"/bots/{mine.pk}/").content.decode()
    # bob is a member, not an owner: the team page's "move out" is refused
    browser.post("/teams/red-team/", {"action": "bot-out", "bot": mine.pk, "user": world.bob.pk})
    mine.refresh_from_db()
    assert mine.team_id == world.team.pk
    # eve (no member) can't move anything in or out through the pages either
    services.forget(world.eve)
    outsider = Client()
    outsider.force_login(world.eve)
    outsider.post("/teams/red-team/", {"action": "bot-in", "bot": world.theirs.pk})
    outsider.post("/teams/red-team/", {"action": "bot-out", "bot": mine.pk, "user": world.eve.pk})
    outsider.post("/teams/red-team/", {"action": "invite", "username": "eve"})
    world.theirs.refresh_from_db()
    mine.refresh_from_db()
    assert world.theirs.team_id is None and mine.team_id == world.team.pk
    assert not world.team.invitations.filter(status="pending").exists()


@pytest.fixture
def eager():
    """Queued tasks run at once in this process (so Django's mail outbox sees the emails)."""
    from arena_site.celery import app

    before = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = before


def test_version_failures_tell_the_team_owners_and_the_maker(world, make_user, mailoutbox, eager):
    from botregistry.signals import version_failed
    from notifications import services as notifications
    from teams import services

    carol = make_user("carol")
    services.accept(services.invite_user(world.team, world.alice, "carol"), carol)
    for u in (world.alice, world.bob, carol):
        notifications.update(u, email=True, email_address=f"{u.username}@example.org")
    world.bot.owner = world.bob  # bob made it; alice owns the team; carol is only a member
    world.bot.save()
    version_failed.send_robust(sender=None, version_id=world.bot.active_version_id)
    told = sorted(addr for m in mailoutbox for addr in m.to)
    assert told == ["alice@example.org", "bob@example.org"]
