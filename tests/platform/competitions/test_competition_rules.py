"""A competition's rules on the database, the clock moved by hand (`services.step` at chosen times) and the
final's matches finished through the platform's own `record_result`: entry policy and limits, the stake rule,
the deadline's lock (an upload after it does not enter, a transfer does not move it), the final of the locked
versions, the result held then published, disqualification, CSV = JSON = standings, notifications."""

from __future__ import annotations

import csv
import hashlib
import io
from datetime import timedelta

import pytest

pytestmark = pytest.mark.django_db


def _new_ready_version(bot, number):
    from botregistry.models import BotVersion

    v = BotVersion.objects.create(bot=bot, number=number, sha256=f"{bot.name}-{number}", status="ready",
                                  package_dir=f"/nonexistent/{bot.name}-{number}")
    bot.active_version = v
    bot.save(update_fields=["active_version"])
    return v


def test_only_organizers_create_and_rules_are_rendered_safely(cast, client_for, dates):
    body = {"slug": "cup", "title": "Cup", "game": "thebes", "players": 2, "rules": "**bold** <script>x()</script>",
            **{k: v.isoformat() for k, v in dates.items()}}
    assert client_for(cast.eve).post("/api/competitions/", body, format="json").status_code == 403
    assert client_for().post("/api/competitions/", body, format="json").status_code in (401, 403)
    r = client_for(cast.olga).post("/api/competitions/", body, format="json")
    assert r.status_code == 201, r.content
    html = r.json()["rules_html"]
    assert "<strong>bold</strong>" in html and "<script" not in html
    bad = {**body, "slug": "cup2", "final_at": (dates["deadline"] - timedelta(minutes=5)).isoformat()}
    r = client_for(cast.olga).post("/api/competitions/", bad, format="json")
    assert r.status_code == 400 and "deadline" in r.json()
    assert client_for(cast.olga).post("/api/competitions/", body, format="json").status_code == 409  # same slug


def test_rules_markdown_never_yields_script():
    from competitions.rules_text import render

    html = render('<img src=x onerror=alert(1)> [a](javascript:alert(1)) <a href="x" onclick="y">z</a>\n\n'
                  '| a | b |\n|---|---|\n| 1 | 2 |')
    # raw HTML stays text (escaped), a javascript: link is no link
    assert "<img" not in html and "<a href=\"x\" onclick" not in html and 'href="javascript' not in html
    assert "&lt;img" in html and "<table>" in html


def test_entry_policy_limits_and_stakes(cast, make_competition, client_for):
    from competitions import services

    c = make_competition(policy="link", entries_per_entrant=1)
    enter = lambda user, bot, key="": client_for(user).post(  # noqa: E731
        f"/api/competitions/{c.slug}/enter/", {"bot": bot.pk, "key": key}, format="json")
    assert enter(cast.alice, cast.a).status_code == 403  # no link
    key = client_for(cast.olga).post(f"/api/competitions/{c.slug}/invite-link/").json()["key"]
    c.refresh_from_db()
    assert key not in c.invite_digest and c.invite_digest == hashlib.sha256(key.encode()).hexdigest()  # stored hashed
    assert client_for(cast.alice).post(f"/api/competitions/{c.slug}/invite-link/").status_code == 403
    assert enter(cast.alice, cast.a, "wrong").status_code == 403
    assert enter(cast.alice, cast.a, key).status_code == 201
    assert enter(cast.bob, cast.a, key).status_code == 403  # not his bot
    assert enter(cast.dave, cast.blue, key).status_code == 201  # a member enters the team's bot for the team
    # carol's own bot shares a stake (carol) with the team's entry
    r = enter(cast.carol, cast.carols_own, key)
    assert r.status_code == 409 and "stake" in r.json()["detail"]
    # the link revoked: it lets nobody in any more
    assert client_for(cast.olga).delete(f"/api/competitions/{c.slug}/invite-link/").status_code == 204
    assert enter(cast.bob, cast.b, key).status_code == 403
    # a second entry of one person over the limit of 1
    services.update(c, cast.olga, policy="anyone")
    second = _second_bot(cast.alice)
    r = enter(cast.alice, second)
    assert r.status_code == 409 and "at most 1" in r.json()["detail"]
    assert enter(cast.bob, cast.b).status_code == 201
    entries = client_for().get(f"/api/competitions/{c.slug}/entries/").json()
    assert sorted(e["bot_name"] for e in entries) == ["alice-bot", "blue-bot", "bob-bot"]
    assert next(e for e in entries if e["bot_name"] == "blue-bot")["team"] == cast.team.slug


def _second_bot(user):
    from platform_helpers import make_bot

    return make_bot(user, f"{user.username}-second")


def test_lifecycle_lock_final_result_publish(cast, make_competition, dates, client_for, finish, monkeypatch,
                                             django_capture_on_commit_callbacks):
    from competitions import services
    from competitions.models import Competition, Entry
    from matches.models import Match
    from tournaments.models import Tournament

    told = []
    monkeypatch.setattr(services, "notify", lambda user, event, *a, **k: told.append((user.username, event.value)))
    c = make_competition(private=False)
    for user, bot in ((cast.alice, cast.a), (cast.bob, cast.b), (cast.carol, cast.blue)):
        services.enter(c, user, bot)
    v1 = {b.pk: b.active_version_id for b in (cast.a, cast.b, cast.blue)}

    with django_capture_on_commit_callbacks(execute=True):  # what is told is sent once the step commits
        services.step(c.pk, dates["deadline"] - timedelta(hours=23))  # the day before: reminded once
        services.step(c.pk, dates["deadline"] - timedelta(hours=22))
    reminders = [t for t in told if t[1] == "competition_deadline_soon"]
    assert sorted(u for u, _ in reminders) == ["alice", "bob", "carol"]  # the team bot: its owner carol

    services.step(c.pk, dates["deadline"])
    c.refresh_from_db()
    assert c.locked_at is not None and c.phase() == Competition.Phase.LOCKED and not c.ladder.active
    locked = dict(Entry.objects.filter(competition=c).values_list("bot_id", "locked_version_id"))
    assert locked == v1
    # an upload after the deadline becomes the bot's active version on the ladders, but does not enter
    late = _new_ready_version(cast.a, 2)
    # entries are closed; settings other than texts, results date and privacy are frozen
    with pytest.raises(services.Refused):
        services.enter(c, cast.eve, cast.e)
    with pytest.raises(services.Refused):
        services.update(c, cast.olga, final_format="swiss")
    # a team transfer moves the bot, not the entry nor its locked version
    from botregistry import ownership
    ownership.transfer(cast.blue, cast.carol, to_user=cast.dave)
    with django_capture_on_commit_callbacks(execute=True):
        services.step(c.pk, dates["final_at"])
    c.refresh_from_db()
    t = c.final
    assert t is not None and t.status == Tournament.Status.RUNNING
    assert dict(t.entries.values_list("bot_id", "version_id")) == v1  # the locked versions, not v2
    assert Entry.objects.get(competition=c, bot=cast.blue).entrant_team_id == cast.team.pk
    assert ("alice", "competition_final_started") in told

    strength = {cast.a.pk: 3.0, cast.b.pk: 2.0, cast.blue.pk: 1.0}
    while True:
        pending = list(Match.objects.filter(tournament_game__round__tournament=t, status="queued"))
        if not pending:
            break
        with django_capture_on_commit_callbacks(execute=True):  # match_ended → the next round, the end
            for m in pending:
                assert late.pk not in set(m.participants.values_list("version_id", flat=True))
                finish(m, strength)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    c.refresh_from_db()
    assert c.result is not None and c.phase() == Competition.Phase.FINISHED  # the final's end moved it on

    # held: only organizers see it
    assert client_for(cast.alice).get(f"/api/competitions/{c.slug}/results/").status_code == 403
    assert client_for().get(f"/competitions/{c.slug}/archive/").status_code == 404
    org = client_for(cast.olga).get(f"/api/competitions/{c.slug}/results/")
    assert org.status_code == 200
    assert [r["bot"] for r in org.json()["standings"]] == ["alice-bot", "bob-bot", "blue-bot"]
    assert client_for(cast.alice).post(f"/api/competitions/{c.slug}/publish/").status_code == 403
    with django_capture_on_commit_callbacks(execute=True):
        assert client_for(cast.olga).post(f"/api/competitions/{c.slug}/publish/").status_code == 200
    assert ("bob", "competition_results") in told

    doc = client_for().get(f"/api/competitions/{c.slug}/results/").json()
    rows = doc["standings"]
    assert [(r["rank"], r["bot"], r["version"]) for r in rows] == [(1, "alice-bot", 1), (2, "bob-bot", 1),
                                                                    (3, "blue-bot", 1)]
    assert "earlier locked version" in doc["tie_break"]
    text = client_for().get(f"/competitions/{c.slug}/results.csv").content.decode()
    table = list(csv.DictReader(io.StringIO(text)))
    assert [(int(r["rank"]), r["bot"], float(r["points"])) for r in table] == \
        [(r["rank"], r["bot"], r["points"]) for r in rows]
    assert client_for().get(f"/competitions/{c.slug}/results.json").json()["standings"] == rows
    page = client_for().get(f"/competitions/{c.slug}/archive/").content.decode()
    assert "Final standings" in page and "Cross-table" in page and "alice-bot" in page
    assert all(f"/matches/{m.pk}/" in page for m in Match.objects.filter(tournament_game__round__tournament=t))

    # a disqualification after the end: public reason, listed last without a rank
    entry = Entry.objects.get(competition=c, bot=cast.a)
    r = client_for(cast.olga).post(f"/api/competitions/{c.slug}/entries/{entry.pk}/disqualify/",
                                   {"reason": "shared code with another entry"}, format="json")
    assert r.status_code == 200
    rows = client_for().get(f"/api/competitions/{c.slug}/results/").json()["standings"]
    assert rows[-1]["bot"] == "alice-bot" and rows[-1]["rank"] is None
    assert rows[-1]["disqualified_reason"] == "shared code with another entry"
    assert [r["rank"] for r in rows[:2]] == [1, 2]


def test_results_date_publishes_by_itself_and_a_version_less_entry_sits_out(cast, make_competition, dates,
                                                                           finish):
    # (the final's end is picked up by the clock here: record_result's after-commit hook does not run)
    from botregistry.models import BotVersion
    from competitions import services
    from matches.models import Match
    from tournaments import services as tournaments

    c = make_competition(results_at=dates["final_at"] + timedelta(hours=1))
    for user, bot in ((cast.alice, cast.a), (cast.bob, cast.b), (cast.carol, cast.blue)):
        services.enter(c, user, bot)
    BotVersion.objects.filter(pk=cast.blue.active_version_id).update(status="suspended")
    services.step(c.pk, dates["deadline"])
    entry = c.entries.get(bot=cast.blue)
    assert entry.locked_version is None and "suspended" in entry.lock_note
    services.step(c.pk, dates["final_at"])
    c.refresh_from_db()
    assert sorted(c.final.entries.values_list("bot_id", flat=True)) == sorted([cast.a.pk, cast.b.pk])
    for m in Match.objects.filter(tournament_game__round__tournament=c.final, status="queued"):
        finish(m, {cast.a.pk: 1.0, cast.b.pk: 2.0})
    tournaments.tick()  # beat's tournament tick ends the final
    services.step(c.pk, dates["final_at"] + timedelta(minutes=30))
    c.refresh_from_db()
    assert c.result is not None and c.results_published_at is None
    services.step(c.pk, dates["final_at"] + timedelta(hours=1))
    c.refresh_from_db()
    assert c.results_published_at is not None
    assert [(r["bot"], r["rank"]) for r in c.result] == [("bob-bot", 1), ("alice-bot", 2), ("blue-bot", None)]


def test_too_few_entries_cancel_with_the_reason(cast, make_competition, dates):
    from competitions import services

    c = make_competition()
    services.enter(c, cast.alice, cast.a)
    services.step(c.pk, dates["deadline"])
    services.step(c.pk, dates["final_at"])
    c.refresh_from_db()
    assert c.phase() == "cancelled" and "only 1 entries" in c.cancelled_reason


def test_a_deleted_account_mid_final_forfeits_what_is_left_and_keeps_its_locked_entry(cast, make_competition, dates,
                                                                                     finish):
    """alice deletes her account while the final runs: her entry stays with its locked version (the archive keeps
    it), her bot retires, and her games still to be drawn are forfeited with the reason shown."""
    from accounts.deletion import delete_account
    from competitions import services
    from competitions.models import Entry
    from matches.models import Match
    from tournaments import services as tournaments
    from tournaments.models import Game

    c = make_competition(final_format="round_robin")
    for user, bot in ((cast.alice, cast.a), (cast.bob, cast.b), (cast.carol, cast.blue)):
        services.enter(c, user, bot)
    locked = cast.a.active_version_id
    services.step(c.pk, dates["deadline"])
    services.step(c.pk, dates["final_at"])
    c.refresh_from_db()
    for m in Match.objects.filter(tournament_game__round__tournament=c.final, status="queued"):
        finish(m, {cast.a.pk: 3.0, cast.b.pk: 2.0, cast.blue.pk: 1.0})
    assert delete_account(cast.alice)
    while True:  # beat's ticks: each round is made from then on
        tournaments.tick()
        pending = list(Match.objects.filter(tournament_game__round__tournament=c.final, status="queued"))
        if not pending:
            break
        for m in pending:
            finish(m, {cast.a.pk: 3.0, cast.b.pk: 2.0, cast.blue.pk: 1.0})
    tournaments.tick()
    services.step(c.pk, dates["final_at"])
    c.refresh_from_db()
    entry = Entry.objects.get(competition=c, bot=cast.a)
    assert entry.locked_version_id == locked
    forfeits = [g.forfeit for g in Game.objects.filter(round__tournament=c.final) if g.forfeit]
    played_by_alice = Match.objects.filter(tournament_game__round__tournament=c.final,
                                           participants__bot=cast.a).count()
    assert played_by_alice + len(forfeits) == 2  # her two pairings: played before, forfeited after
    assert all("deleted their account" in why for f in forfeits for why in f.values())
    row = next(r for r in c.result if r["bot"] == "alice-bot")
    assert row["version"] == 1 and row["entrant"] == "deleted account"
