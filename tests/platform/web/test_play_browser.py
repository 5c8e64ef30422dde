"""A person plays a whole Thebes 2-player game in Chromium against the sandboxed built-in random bot, run by a
real Celery worker on the people's queue: on each of their turns they click one of the legal actions shown
(grouped by kind, the first by keyboard), the board shows their seat's view, and the page reaches the end
without a reload; the match finishes unrated and its replay verifies; the page then offers "Play again". The
playing page has no axe violation. Screenshots (1366 and 390 px, your turn and waiting) go to test-artifacts/."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tests.platform.web.conftest import wait
from tests.platform.web.test_accessibility_browser import axe_source, violations  # noqa: F401  (a fixture)
from tests.platform.web.test_bot_logs_browser import _log_in
from tests.platform.web.test_human_match import opponent  # noqa: F401  (a fixture)

pytestmark = [pytest.mark.browser, pytest.mark.sandbox, pytest.mark.django_db(transaction=True),
              pytest.mark.timeout(500)]

ARTIFACTS = Path(__file__).resolve().parents[3] / "test-artifacts"


def panel(driver, name: str) -> str | None:
    return driver.execute_script(f"const p = document.querySelector('[data-play]'); return p ? (p.dataset.{name} ?? null) : null")


def test_a_person_plays_a_whole_thebes_game_by_clicking(celery_worker, browser, live_server, axe_source,  # noqa: F811
                                                         opponent, make_user):  # noqa: F811
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    from arena import replay as replays
    from matches.models import Match
    from matches.services import create_human_match

    me = make_user("player1")
    _log_in(browser, live_server, "player1")
    match = create_human_match(user=me, game="thebes", players=2, seat=0, opponents=[opponent.playing_version],
                               time_control={"decision_ms": 30_000, "bank_ms": 60_000, "startup_ms": 60_000})
    ARTIFACTS.mkdir(exist_ok=True)
    browser.set_window_size(1366, 900)
    browser.get(f"{live_server.url}/matches/{match.pk}/")
    rng = random.Random(3)
    clicks = 0
    shots = False
    while True:
        wait(browser, lambda d: panel(d, "over") == "1" or (panel(d, "turn") or "") not in ("", None)
             and d.find_elements(By.CSS_SELECTOR, "[data-play-actions] button"), 240)
        if panel(browser, "over") == "1":
            break
        turn = panel(browser, "turn")
        buttons = browser.find_elements(By.CSS_SELECTOR, "[data-play-actions] button")
        if not shots:
            # the board is drawn from the seat's own view (published from the start for a person's seat)
            wait(browser, lambda d: d.execute_script(
                "return document.querySelector('[data-live-watch]').dataset.received || null"), 60)
            assert not violations(browser, axe_source)
            browser.execute_script("document.querySelector('[data-play]').scrollIntoView()")
            browser.save_screenshot(str(ARTIFACTS / "play-thebes-turn-1366.png"))
            browser.set_window_size(390, 844)
            browser.execute_script("document.querySelector('[data-play]').scrollIntoView()")
            browser.save_screenshot(str(ARTIFACTS / "play-thebes-turn-390.png"))
            browser.set_window_size(1366, 900)
            buttons[0].send_keys(Keys.ENTER)  # keyboard: the buttons take Enter
        else:
            rng.choice(buttons).click()
        clicks += 1
        wait(browser, lambda d, shown=turn: panel(d, "turn") != shown or panel(d, "over") == "1", 60)
        if not shots:
            shots = True
            show = "document.querySelector('[data-play]').scrollIntoView()"
            browser.execute_script(show)
            browser.save_screenshot(str(ARTIFACTS / "play-thebes-waiting-1366.png"))
            browser.set_window_size(390, 844)
            browser.execute_script(show)
            browser.save_screenshot(str(ARTIFACTS / "play-thebes-waiting-390.png"))
            browser.set_window_size(1366, 900)
    assert int(panel(browser, "answered")) == clicks > 5  # every click answered a decision, none lost
    wait(browser, lambda d: Match.objects.get(pk=match.pk).done, 60)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED, match.status_reason
    seat = match.result["seats"][0]
    assert not seat.get("faults") and not seat.get("disqualified")
    replays.verify(replays.load(match.replay_file))
    browser.get(f"{live_server.url}/matches/{match.pk}/")
    assert browser.find_elements(By.CSS_SELECTOR, "[data-play-again]")
    browser.save_screenshot(str(ARTIFACTS / "play-thebes-ended-1366.png"))
