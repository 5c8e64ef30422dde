"""Replay viewer playback: how many turns per second "60×" really plays in headless Chromium, and how many
board drawings per second that takes, for a 4-player Thebes and a 4-player Minos replay.

    python3 bench/viewer_playback.py [--seconds 8]

Django (on a PostgreSQL database of its own, `bench_viewer`) serves the match page and its frames through a
real HTTP server on 127.0.0.1; Chromium opens the page at 1366 × 900, picks 60× and presses Play. Over the
measured window (after a warm-up half second) the page counts the turns shown (`COUNTER`) and, where the viewer
counts them, its drawings (`data-draws`): steps/s = turns advanced / seconds. 60× asks
for 100 turns/s (600 ms per turn at 1×). Then it presses Pause and reports how long the press waited before
the page handled it (from the click event's time stamp to a listener on the document, which runs as the click is
dispatched: the same for any viewer), and how many turns were still played in the half second after the click
returned (0: stopped). One run, no repetition: compare runs made back to back on
the same machine (it is shared and loaded; absolute figures move with the load, ratios less).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _platform_setup import ROOT, setup_django, site_in_chromium  # noqa: E402


def make_matches() -> dict[str, int]:
    """One finished 4-player match per game, replays played in-process by the built-in random policies (the
    longer games: a 4-player Thebes between greedy ones is over in ~70 turns, less than a second at 60×)."""
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from arena import replay as replays
    from botregistry.models import Bot, BotVersion
    from matches.models import Match, Participant
    from matches.services import replay_relative
    from tests.platform.web.conftest import play_replay

    owner, _ = get_user_model().objects.get_or_create(username="bench-viewer")
    ids = {}
    for game, seed in (("thebes", 7), ("minos", 11)):
        names = [f"{game}-bench-{i}" for i in range(4)]
        replay = play_replay(game, 4, seed, [f"{n} v1" for n in names], policy="random")
        match = Match.objects.create(kind=Match.Kind.CHALLENGE, rated=False, game=game, params={"players": 4},
                                     seed=seed, status=Match.Status.FINISHED, finished_at=timezone.now(),
                                     result=replay["result"], engine_version=replay["header"]["engine_version"])
        rel = replay_relative(match.pk)
        replays.write(Path(settings.STORAGE_DIR) / rel, replay)
        match.replay_path = str(rel)
        match.save()
        for i, name in enumerate(names):
            bot, _ = Bot.objects.get_or_create(owner=owner, name=name, game=game)
            v, _ = BotVersion.objects.get_or_create(bot=bot, number=1, defaults={
                "status": BotVersion.Status.READY, "sha256": "b" * 64, "package_dir": "x"})
            seat = replay["result"]["seats"][i]
            Participant.objects.create(match=match, seat=i, bot=bot, version=v, score=seat["score"],
                                       rank=seat["rank"])
        ids[game] = match.pk
    return ids


# Counts the turns played on the page itself: a MutationObserver sees every turn the viewer shows (data-index),
# adds the steps forward and, past half way, presses "first turn" (playback goes on from turn 0), so a short game
# can be measured for as long as wanted.
COUNTER = """
const root = document.querySelector('[data-viewer]');
const last = +document.querySelector('[data-slider]').max;
const first = root.querySelector('[data-act=first]');
window.bench = {steps: 0, prev: +root.dataset.index};
new MutationObserver(() => {
  const i = +root.dataset.index;
  if (i > window.bench.prev) window.bench.steps += i - window.bench.prev;
  window.bench.prev = i;
  if (i > last / 2) first.click();
}).observe(root, {attributes: true, attributeFilter: ['data-index']});
"""
STATE = "const r = document.querySelector('[data-viewer]'); return [window.bench.steps, +(r.dataset.draws || 0), performance.now(), +r.dataset.index];"


def measure(driver, base: str, match_id: int, seconds: float) -> dict[str, float]:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

    driver.get(f"{base}/matches/{match_id}/")
    WebDriverWait(driver, 60, 0.05).until(lambda d: d.execute_script(
        "return document.querySelector('[data-viewer]').dataset.ready === '1'"))
    Select(driver.find_element(By.CSS_SELECTOR, "[data-speed]")).select_by_value("60")
    driver.execute_script(COUNTER)
    play = driver.find_element(By.CSS_SELECTOR, "[data-act=play]")
    play.click()
    time.sleep(0.5)  # warm-up
    s0, d0, t0, _ = driver.execute_script(STATE)
    time.sleep(seconds)
    s1, d1, t1, _ = driver.execute_script(STATE)
    elapsed = (t1 - t0) / 1000
    driver.execute_script("document.addEventListener('click', (e) => { window.pressLag = performance.now() - e.timeStamp; }, true)")
    play.click()  # Pause (chromedriver returns once the page has drawn again: its own time is not the page's)
    lag = driver.execute_script("return window.pressLag")
    after_click = driver.execute_script(STATE)[3]
    time.sleep(0.5)
    moved = driver.execute_script(STATE)[3] - after_click
    last = int(driver.execute_script("return +document.querySelector('[data-slider]').max"))
    return {"steps_per_s": (s1 - s0) / elapsed, "draws_per_s": (d1 - d0) / elapsed, "turns": last,
            "pause_lag_ms": lag, "moved_after_pause": moved}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=8.0)
    args = parser.parse_args()
    setup_django("bench_viewer")
    from django.conf import settings

    settings.ALLOWED_HOSTS = ["*"]
    settings.DEBUG = False
    ids = make_matches()
    with site_in_chromium("1366,900") as (base, driver):
        for game, mid in ids.items():
            r = measure(driver, base, mid, args.seconds)
            print(f"{game} 4p ({r['turns']} turns) at 60× (asks 100 turns/s): {r['steps_per_s']:.1f} turns/s, "
                  f"{r['draws_per_s']:.1f} drawings/s; Pause handled {r['pause_lag_ms']:.0f} ms after the press, "
                  f"{r['moved_after_pause']} turns played after it returned")
    print(f"tree: {ROOT}")


if __name__ == "__main__":
    main()
