"""Fixtures of the web-page tests: a small world of users, bots, a ladder with ratings, and finished matches
whose replays are real games played in-process by the built-in policies (so the viewer has real frames)."""

from __future__ import annotations

import random
import shutil
from datetime import timedelta
from pathlib import Path

import pytest

from arena import games
from arena import replay as replays


def play_replay(game_name: str, players: int, seed: int, names: list[str], policy: str = "greedy") -> dict:
    """A complete replay (the arena-replay format) of a game between in-process policies."""
    game = games.load(game_name, players=players)
    policies = [games.policies(game_name)[policy]() for _ in range(players)]
    return replays.of_selfplay(game, seed, policies, [random.Random(seed)] * players, names)


@pytest.fixture
def world(db, settings, tmp_path):
    """Users, bots with versions (one failed with a reason), a Thebes 4p ladder with ratings and rated history,
    and a finished 4-player Thebes match with a replay on disk and a fault on one seat."""
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from botregistry.models import Bot, BotVersion
    from ladders.models import Ladder, Rating
    from matches.models import Match, Participant
    from matches.services import replay_relative

    settings.STORAGE_DIR = tmp_path / "storage"
    User = get_user_model()
    owners = [User.objects.create_user(f"owner{i}", "", "pw-123456789") for i in range(4)]
    ladder = Ladder.objects.create(slug="thebes-4p", name="Thebes 4 players", game="thebes", players=4)
    bots, versions = [], []
    for i, owner in enumerate(owners):
        bot = Bot.objects.create(owner=owner, name=f"digger{i}", game="thebes")
        v = BotVersion.objects.create(bot=bot, number=1, status=BotVersion.Status.READY, sha256=f"{i:064d}",
                                      package_dir=f"bots/{i}", runtime="python")
        bot.active_version = v
        bot.save()
        bots.append(bot)
        versions.append(v)
        Rating.objects.create(ladder=ladder, bot=bot, elo=1500 + 40 * (3 - i), games=30 - 10 * i, wins=12 - 4 * i,
                              sigma=2.0 + i, rating=1500 + 40 * (3 - i), rating_interval=50.0 + 20 * i)
    broken = BotVersion.objects.create(bot=bots[3], number=2, status=BotVersion.Status.FAILED,
                                       status_reason="bot.toml: runtime 'cobol' is not supported", sha256="f" * 64,
                                       package_dir="bots/x", validation_log="checking manifest… failed")
    bots[3].active_version = broken
    bots[3].save()

    names = [f"{b.name} v1" for b in bots]
    replay = play_replay("thebes", 4, 7, names)
    # a decision that timed out: the referee applied a fallback action (the viewer marks it on its timeline)
    replay["decisions"][12]["fault"] = {"kind": "timeout", "message": "no answer within 1000 ms (bank empty)"}
    match = Match.objects.create(kind=Match.Kind.LADDER, ladder=ladder, game="thebes", params={"players": 4},
                                 seed=7, time_control={}, status=Match.Status.FINISHED,
                                 finished_at=timezone.now(), engine_version=replay["header"]["engine_version"],
                                 result=replay["result"])
    rel = replay_relative(match.pk)
    replays.write(settings.STORAGE_DIR / rel, replay)
    match.replay_path = str(rel)
    match.save()
    now = timezone.now()
    for i, (b, v) in enumerate(zip(bots, versions)):
        seat = replay["result"]["seats"][i]
        faults = [{"kind": "timeout", "message": "no answer within 1000 ms (bank empty)", "decision": 12}] if i == 2 else []
        Participant.objects.create(match=match, seat=i, bot=b, version=v, score=seat["score"], rank=seat["rank"],
                                   faults=faults, elo_before=1500, elo_after=1500 + 5 * (2 - seat["rank"]))
    # rated history for the chart of bot 0
    for k in range(5):
        m = Match.objects.create(ladder=ladder, game="thebes", params={"players": 4}, seed=100 + k,
                                 status=Match.Status.FINISHED, finished_at=now - timedelta(hours=5 - k))
        for i, (b, v) in enumerate(zip(bots, versions)):
            Participant.objects.create(match=m, seat=i, bot=b, version=v, score=10 - i, rank=i + 1,
                                       elo_before=1500 + 10 * k, elo_after=1510 + 10 * k)
    return {"owners": owners, "bots": bots, "versions": versions, "ladder": ladder, "match": match,
            "replay": replay, "broken": broken}


@pytest.fixture
def minos_match(world, settings):
    """A finished 2-player Minos match between two Minos bots, with its replay on disk."""
    from django.utils import timezone

    from botregistry.models import Bot, BotVersion
    from matches.models import Match, Participant
    from matches.services import replay_relative

    seats = []
    for i, owner in enumerate(world["owners"][:2]):
        bot = Bot.objects.create(owner=owner, name=f"minoan{i}", game="minos")
        v = BotVersion.objects.create(bot=bot, number=1, status=BotVersion.Status.READY, sha256="a" * 64,
                                      package_dir="x")
        seats.append((bot, v))
    replay = play_replay("minos", 2, 11, [f"minoan{i} v1" for i in range(2)], policy="random")
    match = Match.objects.create(kind=Match.Kind.CHALLENGE, rated=False, game="minos", params={"players": 2},
                                 seed=11, status=Match.Status.FINISHED, finished_at=timezone.now(),
                                 result=replay["result"])
    rel = replay_relative(match.pk)
    replays.write(settings.STORAGE_DIR / rel, replay)
    match.replay_path = str(rel)
    match.save()
    for i, (bot, v) in enumerate(seats):
        seat = replay["result"]["seats"][i]
        Participant.objects.create(match=match, seat=i, bot=bot, version=v, score=seat["score"], rank=seat["rank"])
    return {"match": match, "replay": replay}


# Headless Chromium for the browser tests: Debian's chromium and chromedriver, through Selenium.
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"


def new_chromium():
    """A headless Chromium of its own (its own cookies: another person's session)."""
    if not (Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists()):
        pytest.skip("needs chromium and chromium-driver (apt install chromium chromium-driver)")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--window-size=1280,1000",
                 "--disable-dev-shm-usage"):
        opts.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
    driver.implicitly_wait(0)
    return driver


@pytest.fixture(scope="module")
def browser():
    driver = new_chromium()
    yield driver
    driver.quit()


def wait(driver, predicate, timeout=10.0):
    from selenium.webdriver.support.ui import WebDriverWait
    return WebDriverWait(driver, timeout, poll_frequency=0.05).until(lambda d: predicate(d))


def finished_match(world, settings, game: str, players: int, seed: int, policy: str = "random"):
    """A finished, unrated match of `game` with `players` seats (new bots of the world's owners, in turn), its
    replay played in-process by the built-in `policy` and written where the platform keeps replays."""
    from django.utils import timezone

    from botregistry.models import Bot, BotVersion
    from matches.models import Match, Participant
    from matches.services import replay_relative

    seats = []
    for i in range(players):
        owner = world["owners"][i % len(world["owners"])]
        bot = Bot.objects.create(owner=owner, name=f"{game[:3]}{players}p{i}", game=game)
        v = BotVersion.objects.create(bot=bot, number=1, status=BotVersion.Status.READY, sha256="b" * 64,
                                      package_dir="x")
        seats.append((bot, v))
    replay = play_replay(game, players, seed, [f"{b.name} v1" for b, _ in seats], policy=policy)
    match = Match.objects.create(kind=Match.Kind.CHALLENGE, rated=False, game=game, params={"players": players},
                                 seed=seed, status=Match.Status.FINISHED, finished_at=timezone.now(),
                                 result=replay["result"], engine_version=replay["header"]["engine_version"])
    rel = replay_relative(match.pk)
    replays.write(settings.STORAGE_DIR / rel, replay)
    match.replay_path = str(rel)
    match.save()
    for i, (bot, v) in enumerate(seats):
        seat = replay["result"]["seats"][i]
        Participant.objects.create(match=match, seat=i, bot=bot, version=v, score=seat["score"], rank=seat["rank"])
    return {"match": match, "replay": replay}


@pytest.fixture
def round_robin(world):
    """A finished round robin of the world's four Thebes bots whose one game is the world's match (with a fault)."""
    from django.utils import timezone

    from tournaments.models import Entry, Game, Round, Tournament

    t = Tournament.objects.create(name="Winter round robin", game="thebes", players=4, format="round_robin",
                                  starts_at=timezone.now(), status=Tournament.Status.FINISHED,
                                  finished_at=timezone.now(), current_round=1, rounds_planned=1)
    entries = [Entry.objects.create(tournament=t, bot=b, version=v, seeding=i + 1)
               for i, (b, v) in enumerate(zip(world["bots"], world["versions"]))]
    rnd = Round.objects.create(tournament=t, number=1, finished_at=timezone.now())
    match = world["match"]
    Game.objects.create(round=rnd, table=1, seed=7, seats=[e.id for e in entries], match=match)
    match.kind = "tournament"
    match.save(update_fields=["kind"])
    return {"tournament": t, "entries": entries}


def both_widths(driver, selector: str, path_stem: str) -> None:
    """Screenshots of the element `selector` scrolled into view at 1366 and 390 px (`<path_stem>-1366.png`,
    `-390.png`); at 390 px nothing may scroll sideways (the board follows the width). Back at 1366 px after."""
    show = f"document.querySelector({selector!r}).scrollIntoView()"
    driver.set_window_size(1366, 900)
    driver.execute_script(show)
    driver.save_screenshot(f"{path_stem}-1366.png")
    driver.set_window_size(390, 844)
    driver.execute_script(show)
    assert driver.execute_script("return document.documentElement.scrollWidth <= window.innerWidth + 1"), \
        "the page scrolls sideways at 390 px"
    driver.save_screenshot(f"{path_stem}-390.png")
    driver.set_window_size(1366, 900)
