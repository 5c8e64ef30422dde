"""Matchmaking: who plays next, against whom, in which seats."""

import random
from collections import Counter
from datetime import datetime, timedelta, timezone

import pytest
from platform_helpers import make_bot

from ladders.matchmaking import Candidate, pick_table

T0 = datetime(2026, 1, 1, tzinfo=timezone.utc)


def cand(bot_id, owner=None, elo=1500.0, games=10, idle_minutes=None, version_age_minutes=60, house=False):
    return Candidate(bot_id=bot_id, owner_id=owner if owner is not None else bot_id, version_id=bot_id * 10,
                     version_created_at=T0 - timedelta(minutes=version_age_minutes), elo=elo, games=games,
                     last_played_at=None if idle_minutes is None else T0 - timedelta(minutes=idle_minutes),
                     house=house)


def test_seed_is_the_bot_with_fewest_games():
    pool = [cand(1, games=5), cand(2, games=1), cand(3, games=9)]
    for seed in range(20):
        assert 2 in {c.bot_id for c in pick_table(pool, 2, random.Random(seed))}


def test_ties_on_games_go_to_the_longest_idle_then_the_newest_version():
    idle = [cand(1, games=3, idle_minutes=5), cand(2, games=3, idle_minutes=50), cand(3, games=3, idle_minutes=1)]
    assert all(2 in {c.bot_id for c in pick_table(idle, 2, random.Random(s), window=1)} for s in range(10))
    newest = [cand(1, games=0, version_age_minutes=100), cand(2, games=0, version_age_minutes=1),
              cand(3, games=0, version_age_minutes=50, elo=3000)]
    # bot 2 is the seed; with window 1 its opponent is the nearest rating (bot 1, not bot 3)
    assert {c.bot_id for c in pick_table(newest, 2, random.Random(0), window=1)} == {1, 2}


def test_opponents_come_from_nearby_ratings():
    pool = [cand(1, games=0, elo=1500)] + [cand(i, elo=1000 + 100 * i) for i in range(2, 12)]
    opponents = Counter()
    for seed in range(200):
        table = pick_table(pool, 2, random.Random(seed), window=3)
        opponents.update(c.bot_id for c in table if c.bot_id != 1)
    # 1500's nearest are 1400 (bot 4), 1500 (bot 5), 1600 (bot 6): nobody else is ever drawn
    assert set(opponents) == {4, 5, 6}


def test_never_two_bots_of_one_owner_at_a_table():
    pool = [cand(1, owner=7, games=0), cand(2, owner=7), cand(3, owner=7), cand(4, owner=8), cand(5, owner=9)]
    for seed in range(100):
        table = pick_table(pool, 3, random.Random(seed), window=10)
        owners = [c.owner_id for c in table]
        assert len(set(owners)) == 3


def test_no_table_when_owners_cannot_be_separated():
    pool = [cand(1, owner=7), cand(2, owner=7), cand(3, owner=7)]
    assert pick_table(pool, 2, random.Random(0)) is None
    assert pick_table([cand(1)], 2, random.Random(0)) is None


def test_house_bots_may_share_their_owner():
    pool = [cand(1, owner=1, house=True), cand(2, owner=1, house=True)]
    assert pick_table(pool, 2, random.Random(0)) is not None


def test_seats_are_randomised():
    pool = [cand(1, games=0), cand(2, games=5)]
    first_seat = Counter(pick_table(pool, 2, random.Random(seed))[0].bot_id for seed in range(200))
    assert first_seat[1] > 60 and first_seat[2] > 60


# --- matchmaking against the database -------------------------------------------------------------------------

@pytest.fixture
def ladder(db):
    from ladders.models import Ladder
    return Ladder.objects.create(slug="thebes-2p", name="Thebes 2p", game="thebes", players=2)


def test_matchmake_queues_tables_of_ready_bots_with_distinct_owners(ladder, make_user, settings):
    from ladders.services import matchmake
    from matches.models import Match

    settings.ARENA_MATCHMAKING = {"max_pending_per_ladder": 10, "window": 4}
    alice, bob, carol = make_user(), make_user(), make_user()
    make_bot(alice, "a1"), make_bot(alice, "a2"), make_bot(bob, "b1"), make_bot(carol, "c1")
    make_bot(carol, "c-failed", status="failed"), make_bot(bob, "b-suspended", status="suspended")
    created = matchmake(random.Random(1))
    matches = Match.objects.filter(pk__in=created)
    # 4 playable bots, 3 owners, every bot in at most one pending match: two tables of two
    assert len(created) == 2
    seated = [p for m in matches for p in m.participants.select_related("bot")]
    assert len({p.bot_id for p in seated}) == 4
    assert not {p.bot.name for p in seated} & {"c-failed", "b-suspended"}
    for m in matches:
        owners = [p.bot.owner_id for p in m.participants.select_related("bot")]
        assert len(set(owners)) == len(owners)
        assert m.status == "queued" and m.rated and m.kind == "ladder" and m.params == {"players": 2}
        assert m.time_control == ladder.time_control.to_dict()
    # every bot is busy now: nothing more to queue until these finish
    assert matchmake(random.Random(2)) == []


def test_matchmake_respects_the_pending_limit_and_inactive_ladders(ladder, make_user, settings):
    from ladders.services import matchmake

    settings.ARENA_MATCHMAKING = {"max_pending_per_ladder": 1, "window": 4}
    for i in range(6):
        make_bot(make_user(), f"bot{i}")
    assert len(matchmake(random.Random(0))) == 1
    assert matchmake(random.Random(0)) == []
    ladder.active = False
    ladder.save()
    settings.ARENA_MATCHMAKING = {"max_pending_per_ladder": 5, "window": 4}
    assert matchmake(random.Random(0)) == []
