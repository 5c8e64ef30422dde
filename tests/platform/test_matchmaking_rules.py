"""Matchmaking: who plays next, against whom, in which seats."""

import random
from collections import Counter
from datetime import UTC, datetime, timedelta

import pytest
from platform_helpers import make_bot

from matchmaking.rules import Candidate, information, pick_table

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def cand(bot_id, owner=None, rating=1500.0, games=10, idle_minutes=None, version_age_minutes=60, house=False,
         new=False):
    return Candidate(bot_id=bot_id, owner_id=owner if owner is not None else bot_id, version_id=bot_id * 10,
                     version_created_at=T0 - timedelta(minutes=version_age_minutes), rating=rating, games=games,
                     last_played_at=None if idle_minutes is None else T0 - timedelta(minutes=idle_minutes),
                     house=house, new=new)


def test_seed_is_the_bot_with_fewest_games():
    pool = [cand(1, games=5), cand(2, games=1), cand(3, games=9)]
    for seed in range(20):
        assert 2 in {c.bot_id for c in pick_table(pool, 2, random.Random(seed))}


def test_a_new_version_is_seeded_first_and_the_next_table_goes_to_the_bot_with_fewest_games():
    """However many games its bot played, a version still playing its first games seeds the first table; it then
    sits in that pending match, and the next table is seeded as before (no one starves)."""
    for s in range(20):
        pool = [cand(1, games=0), cand(2, games=500, new=True), cand(3, games=4), cand(4, games=6), cand(5, games=8)]
        first = pick_table(pool, 2, random.Random(s))
        assert 2 in {c.bot_id for c in first}
        rest = [c for c in pool if c not in first]
        neediest = min(rest, key=lambda c: c.games).bot_id
        assert neediest in {c.bot_id for c in pick_table(rest, 2, random.Random(s))}


def test_ties_on_games_go_to_the_longest_idle_then_the_newest_version():
    idle = [cand(1, games=3, idle_minutes=5), cand(2, games=3, idle_minutes=50), cand(3, games=3, idle_minutes=1)]
    assert all(2 in {c.bot_id for c in pick_table(idle, 2, random.Random(s), window=1)} for s in range(10))
    newest = [cand(1, games=0, version_age_minutes=100), cand(2, games=0, version_age_minutes=1),
              cand(3, games=0, version_age_minutes=50, rating=3000)]
    # bot 2 is the seed; with window 1 its opponent is the nearest rating (bot 1, not bot 3)
    assert {c.bot_id for c in pick_table(newest, 2, random.Random(0), window=1)} == {1, 2}


def test_the_old_window_rule_draws_only_from_the_nearest_ratings():
    pool = [cand(1, games=0, rating=1500)] + [cand(i, rating=1000 + 100 * i) for i in range(2, 12)]
    opponents = Counter()
    for seed in range(200):
        table = pick_table(pool, 2, random.Random(seed), window=3)
        opponents.update(c.bot_id for c in table if c.bot_id != 1)
    # 1500's nearest are 1400 (bot 4), 1500 (bot 5), 1600 (bot 6): nobody else is ever drawn
    assert set(opponents) == {4, 5, 6}


class RecordingRandom(random.Random):
    """Remembers the weights of every weighted draw."""

    def __init__(self, seed=0):
        super().__init__(seed)
        self.draws = []

    def choices(self, population, weights=None, **kw):
        self.draws.append((list(population), list(weights)))
        return super().choices(population, weights=weights, **kw)


def test_opponents_are_drawn_weighted_by_the_information_of_the_game():
    """p(1 − p) from the leaderboard ratings: equals weigh ¼, a bot 400 points away 1/12 (10/11 · 1/11), and a
    bot far out of reach still a little (the floor), so everyone can meet everyone and the ladder is one scale."""
    pool = [cand(1, games=0, rating=1500), cand(2, rating=1500), cand(3, rating=1900), cand(4, rating=1e6)]
    rng = RecordingRandom()
    table = pick_table(pool, 2, rng)
    assert 1 in {c.bot_id for c in table}
    (population, weights), = rng.draws
    by_bot = dict(zip((c.bot_id for c in population), weights))
    assert by_bot[2] == pytest.approx(0.25)
    assert by_bot[3] == pytest.approx(10 / 121)
    assert by_bot[4] == 1e-9
    assert information(1500, 1900) == information(1900, 1500) == pytest.approx(10 / 121)


def test_each_seat_of_a_multiplayer_table_is_weighted_against_the_seed():
    pool = [cand(1, games=0, rating=1500)] + [cand(i, rating=1500 + 200 * i) for i in range(2, 7)]
    rng = RecordingRandom()
    table = pick_table(pool, 4, rng)
    assert len(rng.draws) == 3 and len({c.bot_id for c in table}) == 4
    for population, weights in rng.draws:
        assert weights == [pytest.approx(information(1500, c.rating)) for c in population]
        assert 1 not in {c.bot_id for c in population}  # the seed is seated once


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
    from matches.models import Match
    from matchmaking.services import matchmake

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
    from matchmaking.services import matchmake

    settings.ARENA_MATCHMAKING = {"max_pending_per_ladder": 1, "window": 4}
    for i in range(6):
        make_bot(make_user(), f"bot{i}")
    assert len(matchmake(random.Random(0))) == 1
    assert matchmake(random.Random(0)) == []
    ladder.active = False
    ladder.save()
    settings.ARENA_MATCHMAKING = {"max_pending_per_ladder": 5, "window": 4}
    assert matchmake(random.Random(0)) == []


def test_matchmake_seats_a_version_with_few_games_first_until_it_has_played_them(ladder, make_user, settings):
    """A bot that played 900 games uploads a new version: it is in the ladder's one pending table although
    every other bot played fewer games (and their versions more than their first); once the version has `new_version_first_games` (counted by the last
    refit), the bot with the fewest games seeds again."""
    from django.utils import timezone

    from ladders.models import Rating, VersionRating
    from matches.models import Match
    from matchmaking.services import matchmake

    settings.ARENA_MATCHMAKING = {"max_pending_per_ladder": 1, "window": 4}
    first = settings.ARENA_RATING["new_version_first_games"]
    bots = [make_bot(make_user(), f"mm{i}") for i in range(6)]
    fresh = bots[0]
    for i, b in enumerate(bots):
        Rating.objects.filter(ladder=ladder, bot=b).update(games=900 if b == fresh else 10 + i)
        VersionRating.objects.create(ladder=ladder, version=b.active_version, rating=1500, rating_interval=100,
                                     games=first - 1 if b == fresh else first + i, fitted_at=timezone.now())
    for s in range(5):
        created = matchmake(random.Random(s))
        seated = set(Match.objects.get(pk=created[0]).participants.values_list("bot_id", flat=True))
        assert fresh.pk in seated
        Match.objects.filter(pk__in=created).update(status=Match.Status.CANCELLED)
    VersionRating.objects.filter(version=fresh.active_version).update(games=first)
    for s in range(5):
        created = matchmake(random.Random(s))
        assert bots[1].pk in set(Match.objects.get(pk=created[0]).participants.values_list("bot_id", flat=True))
        Match.objects.filter(pk__in=created).update(status=Match.Status.CANCELLED)


def test_version_test_opponents_follow_the_table_rules_around_the_tested_bots_rating():
    """`pick_opponents` is the draw of a ladder table's other seats, shared with version tests: never a bot of
    the given owners, never two bots of one other owner (house bots exempt), only among the `window` nearest."""
    from matchmaking.rules import pick_opponents

    mine = [cand(1, owner=7, rating=1500), cand(2, owner=7, rating=1501)]  # the tested bot's owner: 7
    twins = [cand(3, owner=8, rating=1499), cand(4, owner=8, rating=1502)]
    house = [cand(5, owner=9, rating=1503, house=True), cand(6, owner=9, rating=1497, house=True)]
    others = [cand(10, rating=1600), cand(11, rating=1700), cand(12, rating=2500)]
    seen, together = set(), 0
    for seed in range(100):
        ids = [c.bot_id for c in pick_opponents(1500, {("user", 7)}, mine + twins + house + others, 3, random.Random(seed),
                                                window=2)]
        seen.update(ids)
        together += {5, 6} <= set(ids)
        assert len(ids) == 3 and not {1, 2} & set(ids)  # never the owner's own bots
        assert len({3, 4} & set(ids)) <= 1  # never two of one owner
    assert together  # two house bots (one owner) may sit at one table
    assert 12 not in seen  # always among the 2 nearest still eligible
    assert pick_opponents(1500, {("user", 7)}, mine + twins, 2, random.Random(0), window=4) is None  # runs out
