"""Leaderboard API latency with 1,000 bots and 100,000 finished matches in PostgreSQL.

    python bench/leaderboard_latency.py [--bots 1000] [--matches 100000] [--requests 300] [--reuse]

Fills its own database (DATABASE_URL, default postgres://postgres@127.0.0.1:5432/arena_bench_leaderboard) with
bulk_create, then times GET requests through Django's full stack in-process (URL routing, DRF, serialisers,
PostgreSQL; no network): the first and a deep leaderboard page, and the first page of the match list.
Prints median and p95 in milliseconds, then the time of a full refit of the leaderboard ratings (the periodic
task `matches.tasks.refit_ratings`) over all those matches.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from _platform_setup import reset_platform_tables, setup_django


def fill(bots: int, matches: int, seed: int = 1) -> str:
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from botregistry.models import Bot, BotVersion
    from ladders.models import Ladder, Rating
    from matches.models import Match, Participant

    rng = random.Random(seed)
    reset_platform_tables()
    users = get_user_model()
    users.objects.filter(username__startswith="bench-").delete()
    owners = users.objects.bulk_create([users(username=f"bench-{i}") for i in range(bots)])
    ladder = Ladder.objects.create(slug="thebes-2p", name="Thebes 2p", game="thebes", players=2)
    bot_rows = Bot.objects.bulk_create([Bot(owner=o, name=f"bot-{i}", game="thebes") for i, o in enumerate(owners)])
    versions = BotVersion.objects.bulk_create([
        BotVersion(bot=b, number=1, sha256=f"{i:064x}", package_dir=f"bots/{b.pk}/1/package", status="ready")
        for i, b in enumerate(bot_rows)])
    for b, v in zip(bot_rows, versions):
        b.active_version = v
    Bot.objects.bulk_update(bot_rows, ["active_version"], batch_size=1000)
    now = timezone.now()
    Rating.objects.bulk_create([
        Rating(ladder=ladder, bot=b, elo=rng.gauss(1500, 200), rating=rng.gauss(1500, 200),
               rating_interval=rng.uniform(20, 200), mu=rng.gauss(25, 3), sigma=rng.uniform(1, 8),
               games=rng.randint(0, 400), wins=rng.randint(0, 200), last_played_at=now) for b in bot_rows])
    batch = 5000
    for start in range(0, matches, batch):
        n = min(batch, matches - start)
        rows = Match.objects.bulk_create([
            Match(kind="ladder", ladder=ladder, game="thebes", params={"players": 2}, seed=rng.randrange(2 ** 31),
                  time_control={}, status="finished", attempts=1, finished_at=now, replay_path="",
                  result={"seats": []}) for _ in range(n)])
        participants = []
        for m in rows:
            a, b = rng.sample(range(bots), 2)
            for seat, k in enumerate((a, b)):
                participants.append(Participant(match=m, seat=seat, bot=bot_rows[k], version=versions[k],
                                                score=float(rng.randint(0, 50)), rank=seat + 1,
                                                elo_before=1500.0, elo_after=1500.0 + (8 if seat == 0 else -8)))
        Participant.objects.bulk_create(participants)
    from django.db import connection
    with connection.cursor() as cursor:
        cursor.execute("analyze")
    return ladder.slug


def measure(client, url: str, requests: int) -> tuple[float, float]:
    for _ in range(10):
        assert client.get(url).status_code == 200
    times = []
    for _ in range(requests):
        t0 = time.perf_counter()
        response = client.get(url)
        times.append((time.perf_counter() - t0) * 1000)
        assert response.status_code == 200
    times.sort()
    return statistics.median(times), times[int(0.95 * len(times)) - 1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", type=int, default=1000)
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--reuse", action="store_true", help="keep the data of an earlier run if it matches")
    args = parser.parse_args()
    setup_django("arena_bench_leaderboard")
    from django.test import Client
    from django.test.utils import setup_test_environment

    setup_test_environment()  # lets the test Client run against ALLOWED_HOSTS etc. as in tests
    from ladders.models import Rating
    from matches.models import Match

    if args.reuse and Rating.objects.count() == args.bots and Match.objects.count() == args.matches:
        slug = "thebes-2p"
        print(f"reusing {args.bots} bots, {args.matches} matches")
    else:
        t0 = time.perf_counter()
        slug = fill(args.bots, args.matches)
        print(f"filled {args.bots} bots, {args.matches} matches in {time.perf_counter() - t0:.1f} s")
    client = Client()
    for label, url in [("leaderboard, first page (50)", f"/api/ladders/{slug}/leaderboard/"),
                       ("leaderboard, page 20 (50)", f"/api/ladders/{slug}/leaderboard/?page=20"),
                       ("leaderboard, 500 a page", f"/api/ladders/{slug}/leaderboard/?page_size=500"),
                       ("matches, first page (50)", "/api/matches/"),
                       ("matches of one bot (50)", "/api/matches/?bot=1")]:
        median, p95 = measure(client, url, args.requests)
        print(f"{label:32s} median {median:7.2f} ms   p95 {p95:7.2f} ms")
    # the periodic task behind the leaderboard's rating: read every result, fit, write (ladders.rating_fit)
    from matches.ratings import refit_ratings
    for attempt in (1, 2):
        t0 = time.perf_counter()
        refit_ratings(force=True)
        print(f"rating refit, all {args.matches} matches (run {attempt}, from the stored ratings): "
              f"{time.perf_counter() - t0:.2f} s")


if __name__ == "__main__":
    main()
