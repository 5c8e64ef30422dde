"""Web latency: the pages' render times (leaderboard, match, match list with filters, bot, user, ladders, game,
home) with 1,000 bots and 100,000 matches in PostgreSQL, and
the time the replay viewer takes to open a 4-player Thebes replay in headless Chromium.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench_web python3 bench/web_latency.py [--requests 50]

The database is created and filled on the first run (about a minute) and reused afterwards (`--refill` to
start again). Page times are measured in-process with Django's test client (URL routing, middleware, queries,
template rendering: everything but the network), `--requests` requests per page after two warm-up requests.
The viewer time is from navigation start to the first frame drawn (`data-ready-ms`, set by viewer.js),
through a real HTTP server, cold (frames computed from the replay) and warm (frames cached).
"""

from __future__ import annotations

import argparse
import os
import random
import secrets
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "platform"), str(ROOT)]
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arena_site.settings")
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/bench_web")
os.environ.setdefault("ARENA_STORAGE_DIR", str(Path(tempfile.gettempdir()) / "arena-bench-web-storage"))
# A database URL makes these deployment settings: they need a secret key, and the benchmark speaks plain HTTP.
os.environ.setdefault("ARENA_SECRET_KEY", secrets.token_urlsafe(50))
os.environ.setdefault("ARENA_HTTPS", "0")
os.environ.setdefault("ARENA_ALLOWED_HOSTS", "localhost,127.0.0.1,testserver")

N_OWNERS, N_BOTS, N_MATCHES, PLAYERS = 100, 1000, 100_000, 4


def ensure_database() -> None:
    """Create the bench database if the server lacks it (connects to the `postgres` maintenance db)."""
    import dj_database_url
    import psycopg

    cfg = dj_database_url.parse(os.environ["DATABASE_URL"])
    conninfo = f"host={cfg['HOST'] or '127.0.0.1'} port={cfg['PORT'] or 5432} user={cfg['USER'] or 'postgres'} dbname=postgres"
    with psycopg.connect(conninfo, autocommit=True) as conn:
        if not conn.execute("select 1 from pg_database where datname = %s", (cfg["NAME"],)).fetchone():
            conn.execute(f'create database "{cfg["NAME"]}"')


def fill(refill: bool) -> None:
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection, transaction
    from django.utils import timezone

    from botregistry.models import Bot, BotVersion
    from ladders.models import Ladder, Rating
    from matches.models import Match, Participant

    call_command("migrate", verbosity=0)
    if refill:
        with connection.cursor() as cur:
            cur.execute("truncate matches_participant, matches_match, ladders_rating, ladders_ladder, "
                        "botregistry_botversion, botregistry_bot cascade")
    if Match.objects.count() >= N_MATCHES:
        return
    t0 = time.perf_counter()
    rng = random.Random(1)
    User = get_user_model()
    with transaction.atomic():
        owners = [User.objects.get_or_create(username=f"bench{i}")[0] for i in range(N_OWNERS)]
        ladder, _ = Ladder.objects.get_or_create(slug="thebes-4p", defaults={
            "name": "Thebes 4 players", "game": "thebes", "players": PLAYERS})
        bots = Bot.objects.bulk_create([Bot(owner=owners[i % N_OWNERS], name=f"bot{i:04d}", game="thebes")
                                        for i in range(N_BOTS)])
        versions = BotVersion.objects.bulk_create([
            BotVersion(bot=b, number=1, status=BotVersion.Status.READY, sha256=f"{b.pk:064x}", package_dir="x",
                       runtime="python") for b in bots])
        for b, v in zip(bots, versions):
            b.active_version = v
        Bot.objects.bulk_update(bots, ["active_version"], batch_size=1000)
        games = [rng.randint(0, 400) for _ in bots]
        Rating.objects.bulk_create([Rating(ladder=ladder, bot=b, elo=rng.gauss(1500, 150), games=g,
                                           wins=rng.randint(0, g // 2), sigma=rng.uniform(1, 8))
                                    for b, g in zip(bots, games)])
    now = timezone.now()
    batch = 5000
    for start in range(0, N_MATCHES, batch):
        with transaction.atomic():
            matches = Match.objects.bulk_create([
                Match(ladder=ladder, game="thebes", params={"players": PLAYERS}, seed=rng.randrange(2 ** 31),
                      status=Match.Status.FINISHED, finished_at=now, result={}, engine_version="bench")
                for _ in range(min(batch, N_MATCHES - start))])
            parts = []
            for m in matches:
                table = rng.sample(range(N_BOTS), PLAYERS)
                for seat, i in enumerate(table):
                    parts.append(Participant(match=m, seat=seat, bot=bots[i], version=versions[i],
                                             score=rng.randint(0, 60), rank=seat + 1, elo_before=1500,
                                             elo_after=1500 + rng.uniform(-10, 10)))
            Participant.objects.bulk_create(parts, batch_size=5000)
    with connection.cursor() as cur:
        cur.execute("analyze")
    print(f"filled {N_BOTS} bots and {N_MATCHES} matches in {time.perf_counter() - t0:.0f} s", file=sys.stderr)


def timed(client, url: str, n: int) -> list[float]:
    for _ in range(2):
        assert client.get(url).status_code == 200, url
    out = []
    for _ in range(n):
        t = time.perf_counter()
        resp = client.get(url)
        out.append((time.perf_counter() - t) * 1000)
        assert resp.status_code == 200, url
    return out


def summary(name: str, ms: list[float]) -> str:
    ms = sorted(ms)
    p95 = ms[min(len(ms) - 1, int(0.95 * len(ms)))]
    return f"{name:<44} median {statistics.median(ms):7.1f} ms   p95 {p95:7.1f} ms   (n={len(ms)})"


def viewer_open_times(match_id: int) -> tuple[int, int]:
    """(cold, warm) ms from navigation start to the first frame drawn, in headless Chromium."""
    from _platform_setup import site_in_chromium
    from selenium.webdriver.support.ui import WebDriverWait

    with site_in_chromium() as (base, driver):
        driver.get(f"{base}/")  # a warm browser: time the viewer, not Chromium
        times = []
        for _ in range(6):  # the first with the frames not cached yet, then five warm
            driver.get(f"{base}/matches/{match_id}/")
            WebDriverWait(driver, 30, 0.02).until(lambda d: d.execute_script(
                "return document.querySelector('[data-viewer]').dataset.readyMs"))
            times.append(int(driver.execute_script("return document.querySelector('[data-viewer]').dataset.readyMs")))
        return times[0], int(statistics.median(times[1:]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--requests", type=int, default=50)
    parser.add_argument("--refill", action="store_true")
    parser.add_argument("--no-browser", action="store_true")
    args = parser.parse_args()
    ensure_database()
    import django
    django.setup()
    from django.conf import settings
    from django.test import Client

    settings.ALLOWED_HOSTS = ["*"]
    settings.DEBUG = False
    fill(args.refill)

    from arena import replay as replays
    from matches.models import Match
    from matches.services import replay_relative
    from tests.platform.web.conftest import play_replay

    ids = list(Match.objects.order_by("-id").values_list("id", flat=True)[:1000])
    client = Client()
    results = [
        summary("leaderboard page 1 (/ladders/thebes-4p/)", timed(client, "/ladders/thebes-4p/", args.requests)),
        summary("leaderboard page 10", timed(client, "/ladders/thebes-4p/?page=10", args.requests)),
        summary("leaderboard sorted by win rate", timed(client, "/ladders/thebes-4p/?sort=winrate", args.requests)),
    ]
    match_ms = []
    rng = random.Random(2)
    for url in [f"/matches/{rng.choice(ids)}/" for _ in range(args.requests)]:
        match_ms += timed(client, url, 1)
    results.append(summary("match page (random matches)", match_ms))
    results.append(summary("home page", timed(client, "/", args.requests)))
    bot_id = Match.objects.get(pk=ids[0]).participants.first().bot_id
    results.append(summary("bot page", timed(client, f"/bots/{bot_id}/", max(10, args.requests // 5))))
    results.append(summary("match list (/matches/)", timed(client, "/matches/", args.requests)))
    results.append(summary("match list page 1000", timed(client, "/matches/?page=1000", args.requests)))
    results.append(summary("match list of one bot", timed(client, f"/matches/?bot={bot_id}", args.requests)))
    results.append(summary("match list, 4 filters", timed(
        client, f"/matches/?game=thebes&ladder=thebes-4p&status=finished&kind=ladder&bot={bot_id}", args.requests)))
    results.append(summary("ladders page", timed(client, "/ladders/", args.requests)))
    results.append(summary("game page (/games/thebes/)", timed(client, "/games/thebes/", args.requests)))
    results.append(summary("user page", timed(client, "/users/bench1/", args.requests)))

    # The viewer: a real 4-player Thebes game as the replay of the newest match.
    m = Match.objects.get(pk=ids[0])
    names = [f"{p.bot.name} v1" for p in m.participants.select_related("bot").order_by("seat")]
    replay = play_replay("thebes", 4, 7, names)
    rel = replay_relative(m.pk)
    replays.write(Path(settings.STORAGE_DIR) / rel, replay)
    for cached in (Path(settings.STORAGE_DIR) / "frames").rglob(f"{m.pk}.*.json.gz"):
        cached.unlink()
    Match.objects.filter(pk=m.pk).update(replay_path=str(rel))
    print("\n".join(results))
    if not args.no_browser:
        cold, warm = viewer_open_times(m.pk)
        print(f"viewer opens a 4-player Thebes replay ({len(replay['decisions'])} decisions): "
              f"cold {cold} ms, warm median {warm} ms (navigation start to first frame drawn)")


if __name__ == "__main__":
    main()
