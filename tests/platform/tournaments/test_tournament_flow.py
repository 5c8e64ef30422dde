"""A tournament's life on the database, round by round, with results recorded as a worker records them:
start at the start time, entries pinned and locked, forfeits with reasons, next rounds, final table, and no
effect on ladder ratings."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone


def make_tournament(bots, **kw):
    from tournaments.models import Entry, Tournament

    t = Tournament.objects.create(name="Cup", game="thebes", players=kw.pop("players", 2),
                                  starts_at=kw.pop("starts_at", timezone.now() - timedelta(seconds=1)), seed=9, **kw)
    for b in bots:
        Entry.objects.create(tournament=t, bot=b)
    return t


def play_current_round(t, finish, strength):
    from tournaments.models import Game

    for g in Game.objects.filter(round__tournament=t, round__number=t.current_round, match__isnull=False):
        if not g.match.done:
            finish(g.match, strength)


def run_to_end(t, finish, strength, limit=50):
    from tournaments import services

    for _ in range(limit):
        t.refresh_from_db()
        if t.status != "running":
            return t
        play_current_round(t, finish, strength)
        services.advance(t.pk)
    raise AssertionError("the tournament did not end")


def test_round_robin_starts_at_its_time_plays_every_pairing_and_ends_with_a_final_table(thebes_bots, finish):
    from ladders.models import Rating
    from matches.models import Match
    from tournaments import services

    bots = thebes_bots[:4]
    t = make_tournament(bots, starts_at=timezone.now() + timedelta(minutes=5))
    assert services.start(t.pk) is False, "not before its start time"
    assert services.start(t.pk, now=timezone.now() + timedelta(minutes=6)) is True
    t.refresh_from_db()
    assert t.status == "running" and t.current_round == 1
    entries = list(t.entries.order_by("seeding"))
    assert [e.bot.name for e in entries] == ["bot0", "bot1", "bot2", "bot3"]  # seeded by ladder rating
    assert all(e.version_id == e.bot.active_version_id for e in entries)

    ratings_before = {r.bot_id: (r.elo, r.games) for r in Rating.objects.all()}
    strength = {b.pk: 10 - i for i, b in enumerate(bots)}
    run_to_end(t, finish, strength)
    t.refresh_from_db()
    assert t.status == "finished" and t.finished_at is not None
    matches = Match.objects.filter(tournament_game__round__tournament=t)
    assert matches.count() == 6 and all(m.kind == "tournament" and not m.rated for m in matches)
    pairs = {frozenset(m.participants.values_list("bot_id", flat=True)) for m in matches}
    assert len(pairs) == 6
    table = t.final_standings
    assert [row["bot"] for row in table] == ["bot0", "bot1", "bot2", "bot3"]
    assert [row["points"] for row in table] == [3.0, 2.0, 1.0, 0.0]
    assert table[0]["mean"] == 1.0 and table[1]["ci95"] is not None
    assert {r.bot_id: (r.elo, r.games) for r in Rating.objects.all()} == ratings_before, \
        "tournament matches must not touch ladder ratings"
    assert not matches.filter(participants__elo_after__isnull=False).exists()


def test_a_bot_without_a_ready_version_forfeits_with_the_reason(thebes_bots, finish):
    from botregistry.models import BotVersion
    from tournaments import services
    from tournaments.models import Game

    bots = thebes_bots[:3]
    bad = bots[2]
    failed = BotVersion.objects.create(bot=bad, number=2, status=BotVersion.Status.FAILED,
                                       status_reason="the bot crashed at start-up", sha256="e" * 64, package_dir="x")
    bad.active_version = failed
    bad.save()
    t = make_tournament(bots)
    services.start(t.pk)
    entry = t.entries.get(bot=bad)
    assert entry.version is None
    assert entry.forfeit_reason == ("forfeit: version 2 was failed when the tournament started: "
                                    "the bot crashed at start-up")
    run_to_end(t, finish, {b.pk: 5 - i for i, b in enumerate(bots)})
    t.refresh_from_db()
    forfeits = Game.objects.filter(round__tournament=t, forfeit__isnull=False)
    assert forfeits.count() == 2 and all(g.match_id is None for g in forfeits)
    table = {row["bot"]: row for row in t.final_standings}
    assert table[bad.name]["points"] == 0 and table[bad.name]["rank"] == 3
    assert "crashed at start-up" in table[bad.name]["forfeit_reason"]
    # and the others got the forfeited games' points
    assert table["bot0"]["points"] == 2 and table["bot1"]["points"] == 1


def test_a_version_suspended_mid_tournament_forfeits_from_then_on(thebes_bots, finish):
    from botregistry.models import BotVersion
    from tournaments import services
    from tournaments.models import Game

    bots = thebes_bots[:4]
    t = make_tournament(bots)
    services.start(t.pk)
    v = bots[1].active_version
    BotVersion.objects.filter(pk=v.pk).update(status=BotVersion.Status.SUSPENDED,
                                              status_reason="crashed in 6 of its last 10 matches")
    run_to_end(t, finish, {b.pk: 10 - i for i, b in enumerate(bots)})
    later = Game.objects.filter(round__tournament=t, round__number__gt=1, seats__contains=[t.entries.get(bot=bots[1]).pk])
    assert later.exists() and all(g.forfeit and "suspended" in next(iter(g.forfeit.values())) for g in later)


def test_swiss_with_duplicate_sets_and_byes(thebes_bots, finish):
    from tournaments import services
    from tournaments.models import Game

    bots = thebes_bots[:5]
    t = make_tournament(bots, format="swiss", duplicate=True, rounds_planned=3)
    services.start(t.pk)
    strength = {b.pk: 10 - i for i, b in enumerate(bots)}
    run_to_end(t, finish, strength)
    t.refresh_from_db()
    assert t.status == "finished" and t.current_round == 3
    games = list(Game.objects.filter(round__tournament=t))
    # every table is a set of 2 games with one seed and both seat orders
    by_set = {}
    for g in games:
        by_set.setdefault((g.round_id, g.set_key), []).append(g)
    assert all(len(gs) == 2 and gs[0].seed == gs[1].seed and gs[0].seats == gs[1].seats[::-1] for gs in by_set.values())
    pairs = [frozenset(gs[0].seats) for gs in by_set.values()]
    assert len(pairs) == len(set(pairs)), "no rematch in 3 Swiss rounds of 5"
    byes = {e.bot.name: e.byes for e in t.entries.all()}
    assert sum(byes.values()) == 3 and max(byes.values()) == 1
    assert t.final_standings[0]["bot"] == "bot0"


def test_knockout_runs_a_bracket_to_a_champion(thebes_bots, finish):
    from tournaments import services

    bots = thebes_bots[:6]
    t = make_tournament(bots, format="knockout")
    services.start(t.pk)
    strength = {b.pk: i for i, b in enumerate(bots)}  # bot5, the lowest seed, is the strongest
    run_to_end(t, finish, strength)
    t.refresh_from_db()
    assert t.status == "finished" and t.current_round == 3
    assert t.final_standings[0]["bot"] == "bot5"
    r1 = t.rounds.get(number=1)
    assert sorted(e.bot.name for e in r1.byes.all()) == ["bot0", "bot1"]


def test_too_few_entries_cancels_with_a_reason(thebes_bots):
    from tournaments import services

    t = make_tournament(thebes_bots[:1])
    assert services.start(t.pk) is False
    t.refresh_from_db()
    assert t.status == "cancelled" and "only 1 entries" in t.status_reason
