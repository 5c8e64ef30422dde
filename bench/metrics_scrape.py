"""Metrics scrape time: `GET /metrics` (platform/monitoring) with 100,000 matches (200,000 seats, one in ten
with faults) and 1,000 bot versions in PostgreSQL.

    python3 bench/metrics_scrape.py [--requests 20] [--refill]

The database (`bench_metrics` unless DATABASE_URL says otherwise) is filled on the first run (matches finished over
the past month) and reused. Times
are in-process with Django's test client (routing, middleware, queries, the text format), after one warm-up
scrape; the broker is the settings' (a Redis that does not answer makes the scrape wait for its time-out).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _platform_setup import setup_django  # noqa: E402

N_MATCHES = 100_000
N_BOTS = 1_000
KINDS = ("timeout", "crash", "illegal_action", "start_failure")


def fill(refill: bool) -> None:
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from botregistry.models import Bot, BotVersion
    from matches.models import Match, Participant

    if Match.objects.count() >= N_MATCHES and not refill:
        return
    Participant.objects.all().delete(), Match.objects.all().delete(), Bot.objects.all().delete()
    owner, _ = get_user_model().objects.get_or_create(username="bench-owner")
    rng = random.Random(1)
    bots = Bot.objects.bulk_create([Bot(owner=owner, name=f"bot{i:04d}", game="thebes") for i in range(N_BOTS)])
    versions = BotVersion.objects.bulk_create([
        BotVersion(bot=b, number=1, sha256=f"{i:064x}", package_dir="/nonexistent",
                   status=rng.choice(["ready"] * 8 + ["failed", "suspended"])) for i, b in enumerate(bots)])
    now = timezone.now()
    month = 30 * 86400.0
    for _batch in range(N_MATCHES // 10_000):
        statuses = [rng.choice(["finished"] * 90 + ["failed"] * 5 + ["cancelled", "queued", "running"])
                    for _ in range(10_000)]
        ended = [now - timedelta(seconds=rng.uniform(0, month)) for _ in statuses]  # a month of play
        matches = Match.objects.bulk_create([
            Match(game="thebes", seed=rng.getrandbits(62), status=s, params={"players": 2},
                  started_at=end - timedelta(seconds=rng.uniform(5, 400)) if s != "queued" else None,
                  finished_at=end if s in ("finished", "failed", "cancelled") else None)
            for s, end in zip(statuses, ended, strict=True)], batch_size=5000)
        parts = []
        for m in matches:
            for seat, k in enumerate(rng.sample(range(N_BOTS), 2)):
                faults = ([{"kind": rng.choice(KINDS), "message": "", "decision": 1}] * rng.randint(1, 3)
                          if rng.random() < 0.1 else [])
                decisions = rng.randint(0, 60)
                parts.append(Participant(match=m, seat=seat, bot=bots[k], version=versions[k], faults=faults,
                                         decisions=decisions, time_ms=decisions * rng.uniform(0.5, 400)))
        Participant.objects.bulk_create(parts, batch_size=5000)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=20)
    parser.add_argument("--refill", action="store_true")
    args = parser.parse_args()
    import os
    os.environ.setdefault("ARENA_METRICS_TOKEN", "bench")
    setup_django("bench_metrics")
    fill(args.refill)
    from django.core.cache import cache
    from django.db import connection as db

    from monitoring.collector import _SEALED_KEY
    cache.delete(f"{_SEALED_KEY}:{db.settings_dict['NAME']}")  # the first scrape reads everything, as a new site's
    from django.db import connection, reset_queries
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client = Client()
    headers = {"HTTP_AUTHORIZATION": "Bearer bench", "HTTP_HOST": "localhost"}
    t0 = time.perf_counter()
    assert client.get("/metrics", **headers).status_code == 200
    first = (time.perf_counter() - t0) * 1000  # a fresh process: the sealed totals are read once
    times = []
    for _ in range(args.requests):
        reset_queries()
        with CaptureQueriesContext(connection) as queries:
            t0 = time.perf_counter()
            response = client.get("/metrics", **headers)
            times.append((time.perf_counter() - t0) * 1000)
        assert response.status_code == 200
    print(f"/metrics with {N_MATCHES:,} matches: median {statistics.median(times):.0f} ms, "
          f"max {max(times):.0f} ms over {args.requests} scrapes, {len(queries)} SQL queries a scrape, "
          f"{len(response.content):,} bytes; the first scrape of the process {first:.0f} ms")


if __name__ == "__main__":
    main()
