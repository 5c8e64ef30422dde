"""Data export: the time and queries of `GET /api/auth/me/export/` (api.export) for a person whose bot played
N matches (2 seats each, all finished with a replay), and the time to its first byte (the answer streams).

    python3 bench/data_export.py [--matches 10000]

Its own PostgreSQL database (`bench_export`, made and emptied here). Measured in-process with Django's test
client: routing, middleware, queries and JSON writing, everything but the network.
"""

from __future__ import annotations

import argparse
import time

from _platform_setup import reset_platform_tables, setup_django


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=10_000)
    args = parser.parse_args()
    setup_django("bench_export")

    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone
    from rest_framework.test import APIClient

    from accounts import tokens
    from botregistry.models import Bot, BotVersion
    from ladders.models import Ladder
    from matches.models import Match, Participant

    reset_platform_tables()
    User = get_user_model()
    User.objects.filter(username__in=["export-a", "export-b"]).delete()
    a, b = (User.objects.create_user(n, "", "pw-123456789") for n in ("export-a", "export-b"))
    ladder = Ladder.objects.create(slug="thebes-2p", name="Thebes 2p", game="thebes", players=2)
    bots = []
    for owner, name in ((a, "alpha"), (b, "beta")):
        bot = Bot.objects.create(owner=owner, name=name, game="thebes")
        bot.active_version = BotVersion.objects.create(bot=bot, number=1, sha256=name, package_dir="x",
                                                       status="ready")
        bot.save()
        bots.append(bot)
    now = timezone.now()
    matches = Match.objects.bulk_create(
        (Match(kind="ladder", ladder=ladder, game="thebes", seed=i, status="finished", finished_at=now,
               replay_path=f"replays/{i}.replay.json.gz") for i in range(args.matches)), batch_size=5000)
    Participant.objects.bulk_create(
        (Participant(match=m, seat=s, bot=x, version=x.active_version, score=s, rank=2 - s)
         for m in matches for s, x in enumerate(bots)), batch_size=5000)

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {tokens.issue(a)}")
    started = time.perf_counter()
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/api/auth/me/export/")
        chunks = iter(response.streaming_content)
        first = next(chunks)
        first_byte = time.perf_counter() - started
        size = len(first) + sum(len(c) for c in chunks)
    total = time.perf_counter() - started
    print(f"export of {args.matches} matches: {total:.2f} s ({total / args.matches * 1e3:.2f} ms a match), "
          f"first byte after {first_byte * 1e3:.0f} ms, {size / 1e6:.1f} MB, {len(queries)} queries")


if __name__ == "__main__":
    main()
