"""A second browser watches a ladder match while a real Celery worker plays it with real sandboxed built-in
bots (headless Chromium): the page, opened while the match waits in the queue, receives the spectator's view of
every decision, in order and without a gap (Thebes and Minos, 2 players), draws the board with the viewer's renderer,
tells each decision in words in the log (in order) beside the score chart so far, and says when the match is over; a page
refused at first (the web process serves its cap of live views) says so and asks again by itself; the live page has no axe violation. Screenshots (1366 and 390 px) go to test-artifacts/."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.management import call_command

from tests.platform.web.conftest import both_widths, wait
from tests.platform.web.test_accessibility_browser import axe_source, violations  # noqa: F401  (a fixture)

pytestmark = [pytest.mark.browser, pytest.mark.sandbox, pytest.mark.django_db(transaction=True),
              pytest.mark.timeout(400)]

ARTIFACTS = Path(__file__).resolve().parents[3] / "test-artifacts"


def data(driver, name: str) -> str | None:
    return driver.execute_script(f"return document.querySelector('[data-live-watch]').dataset.{name} || null")


@pytest.mark.parametrize("game", ["thebes", "minos"])
def test_a_second_browser_watches_a_ladder_match_decision_by_decision(celery_worker, browser, live_server,
                                                                      axe_source, game):  # noqa: F811
    from arena import replay as replays
    from botregistry.models import Bot
    from ladders.models import Ladder
    from matches import services
    from matches.models import Match
    from web import watchers

    call_command("ensure_ladders", verbosity=0)
    call_command("register_builtin_bots", verbosity=0)
    ladder = Ladder.objects.get(game=game, players=2)
    bots = list(Bot.objects.filter(builtin=True, game=game, name__startswith="python-").order_by("name")[:2])
    assert len(bots) == 2
    match = services.create_match(game=game, params={"players": 2}, time_control={},
                                  versions=[b.playing_version.pk for b in bots], ladder=ladder, queue=False)
    ARTIFACTS.mkdir(exist_ok=True)
    browser.set_window_size(1366, 900)
    hub = watchers.hub()
    cap = hub.limit
    if game == "thebes":  # this web process serves its cap of live views: the page is refused (503) at first
        hub.limit = hub.count()
    try:
        browser.get(f"{live_server.url}/matches/{match.pk}/")
        wait(browser, lambda d: data(d, "order") == "ok", 30)  # the module ran and the stream is asked for
        if game == "thebes":  # the page says so and asks again by itself (EventSource alone would give up)
            wait(browser, lambda d: data(d, "refusals") == "1", 30)
            assert "trying again" in browser.find_element("css selector", "[data-live-watch] [data-status]").text
    finally:
        hub.limit = cap
    if game == "thebes":  # and is served once the process has room
        wait(browser, lambda d: data(d, "streams") == "1", 60)
    assert not violations(browser, axe_source)

    services.send(match.pk)  # the worker starts it now; the page is already listening
    wait(browser, lambda d: int(data(d, "received") or 0) >= 8 or data(d, "ended"), 240)
    both_widths(browser, "[data-live-watch]", str(ARTIFACTS / f"live-{game}"))
    if not data(browser, "ended"):  # the page as it follows the game (the log told, the chart drawn): axe again
        found = violations(browser, axe_source)
        assert not found, [(v["id"], v["nodes"]) for v in found]
    wait(browser, lambda d: data(d, "ended") == "1", 300)
    browser.save_screenshot(str(ARTIFACTS / f"live-{game}-ended-1366.png"))

    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED, match.status_reason
    decisions = len(replays.load(match.replay_file)["decisions"])
    assert data(browser, "order") == "ok"  # every decision, each after the one before it
    assert int(data(browser, "received")) == decisions + 1  # the start and each decision, once
    assert int(data(browser, "index")) == decisions  # the board shows the final position
    # the narrated log followed the game: every decision told in words, newest first, none missing or out of order
    assert int(data(browser, "told")) == decisions + 1
    lines = browser.execute_script("return [...document.querySelectorAll('[data-live-log] > li')]"
                                   ".map((li) => [Number(li.dataset.turn), li.firstChild.textContent])")
    assert [n for n, _text in lines] == list(range(decisions, decisions - len(lines), -1))
    assert all(text.startswith(f"{n}. ") for n, text in lines if n)
    assert browser.find_element("css selector", "[data-live-chart] polyline")  # and the score chart
    panel = browser.find_element("css selector", "[data-live-watch] [data-players]").text
    assert bots[0].playing_version.seat_name.split(" v")[0] in panel
    assert "over" in browser.find_element("css selector", "[data-live-watch] [data-status]").text
