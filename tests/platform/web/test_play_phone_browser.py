"""The playing surface on a phone, and resigning from it, in Chromium with a real worker and the sandboxed random
bot. At 390 px the board is zoomed so that every thing chosen on it — Minos' dice above all — is a tap target of
at least 44×44 CSS px (WCAG 2.5.5, Apple's HIG), inside its own scrolling box (the page never scrolls sideways);
at 1366 px the board is fitted again. The person then resigns with the keyboard alone: "Resign" asks first
(Escape or "Keep playing" backs out, focus returns to the button), the seat is out, the bot finishes the game at
once on a person's clock of minutes, and the match page says "resigned". Screenshots (390 and 1366 px, your turn
and waiting, and resigned) go to test-artifacts/; axe finds no violation on the zoomed surface."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tests.platform.web.conftest import wait
from tests.platform.web.test_accessibility_browser import axe_source, violations  # noqa: F401  (a fixture)
from tests.platform.web.test_bot_logs_browser import _log_in
from tests.platform.web.test_play_browser import CLICK, panel

pytestmark = [pytest.mark.browser, pytest.mark.sandbox, pytest.mark.django_db(transaction=True),
              pytest.mark.timeout(700)]

ARTIFACTS = Path(__file__).resolve().parents[3] / "test-artifacts"
ROOT = Path(__file__).resolve().parents[3]
#: the board things that must be seen (and measured) as targets at 390 px before the person resigns
MEASURED = {"thebes": {"card", "place"}, "minos": {"die-face", "region"}}
#: each board target's rendered size and kind, and whether it lies inside its scrolling box's width
TARGETS = """
return [...document.querySelectorAll('[data-board] [data-play-target]')].map((el) => {
  const r = el.getBoundingClientRect();
  return {kind: el.dataset.playTarget.split(':')[0], w: r.width, h: r.height};
});
"""


def shot(driver, name: str, board: bool = False) -> None:
    """The playing surface as the person sees it now: its panel, or (`board`) the board's box."""
    where = "[data-live-watch] .viewer-board-wrap" if board else "[data-play]"
    driver.execute_script(f"document.querySelector({where!r}).scrollIntoView()")
    driver.save_screenshot(str(ARTIFACTS / f"{name}.png"))


@pytest.mark.parametrize("game", ["minos", "thebes"])
def test_on_a_phone_board_targets_are_44px_and_the_person_resigns_by_keyboard(celery_worker, browser, live_server,
                                                                            axe_source, make_user, game):  # noqa: F811
    from django.core.management import call_command
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    from arena import replay as replays
    from botregistry.models import Bot
    from matches.models import Match
    from matches.services import create_human_match

    call_command("ensure_ladders", verbosity=0)
    call_command("register_builtin_bots", str(ROOT / "bots" / "python" / "random"), verbosity=0)
    opponent = Bot.objects.get(builtin=True, game=game)
    me = make_user("phone")
    _log_in(browser, live_server, "phone")
    # a clock of minutes: the resignation must end the match, not the clock
    match = create_human_match(user=me, game=game, players=2, seat=0, opponents=[opponent.playing_version],
                               clock={"decision_ms": 600_000, "bank_ms": 600_000})
    ARTIFACTS.mkdir(exist_ok=True)
    browser.execute_script("try { localStorage.removeItem('arena-board-zoom') } catch (e) {}")
    browser.set_window_size(390, 844)
    browser.get(f"{live_server.url}/matches/{match.pk}/")
    wrap = "document.querySelector('[data-live-watch] .viewer-board-wrap')"
    wait(browser, lambda d: d.execute_script(f"return {wrap}.classList.contains('zoomed')"), 30)
    shot(browser, f"play-{game}-phone-waiting-390")

    rng = random.Random(5)
    seen: set[str] = set()
    measured = 0
    while not MEASURED[game] <= seen:
        wait(browser, lambda d: (panel(d, "turn") or "") not in ("", None)
             and d.find_elements(By.CSS_SELECTOR, "[data-play-actions] button"), 240)
        turn = panel(browser, "turn")
        targets = browser.execute_script(TARGETS)
        for t in targets:  # every thing to choose on the board is a 44 px tap target at 390 px
            assert t["w"] >= 44 and t["h"] >= 44, (game, t)
        measured += len(targets)
        assert browser.execute_script("return document.documentElement.scrollWidth <= window.innerWidth + 1"), \
            "the page scrolls sideways at 390 px"
        fresh = {t["kind"] for t in targets} - seen
        for kind in sorted(fresh & MEASURED[game]):  # the zoomed board, scrolled to the things to choose
            shot(browser, f"play-{game}-phone-{kind}-390", board=True)
        if fresh & MEASURED[game] and not seen & MEASURED[game]:
            shot(browser, f"play-{game}-phone-turn-390")
            found = violations(browser, axe_source)
            assert not found, [(v["id"], v["nodes"]) for v in found]
            # the same turn on a desktop: the board fitted again (not zoomed), then back to the phone
            browser.set_window_size(1366, 900)
            wait(browser, lambda d: not d.execute_script(f"return {wrap}.classList.contains('zoomed')"), 10)
            shot(browser, f"play-{game}-phone-turn-1366")
            browser.set_window_size(390, 844)
            wait(browser, lambda d: d.execute_script(f"return {wrap}.classList.contains('zoomed')"), 10)
        seen |= fresh
        browser.execute_script(CLICK, rng.random())
        wait(browser, lambda d, shown=turn: panel(d, "turn") != shown, 120)
    assert measured > 0

    # resign, by keyboard only: the button asks first; Escape backs out and gives the focus back
    resign = browser.find_element(By.CSS_SELECTOR, "[data-play-resign]")
    browser.execute_script("arguments[0].focus()", resign)
    resign.send_keys(Keys.ENTER)
    confirm = browser.find_element(By.CSS_SELECTOR, "[data-play-resign-confirm]")
    assert confirm.is_displayed() and resign.get_attribute("aria-expanded") == "true"
    keep = browser.switch_to.active_element
    assert keep.get_attribute("data-resign") == "no"  # the safe choice has the focus
    shot(browser, f"play-{game}-phone-resign-confirm-390")
    keep.send_keys(Keys.ESCAPE)
    assert not confirm.is_displayed() and browser.switch_to.active_element == resign
    assert not Match.objects.get(pk=match.pk).done and panel(browser, "resigned") is None
    resign.send_keys(Keys.ENTER)
    browser.switch_to.active_element.send_keys(Keys.SHIFT, Keys.TAB)  # from "Keep playing" back to "Resign"
    yes = browser.switch_to.active_element
    assert yes.get_attribute("data-resign") == "yes"
    yes.send_keys(Keys.ENTER)
    wait(browser, lambda d: panel(d, "resigned") == "1", 30)
    assert not browser.find_elements(By.CSS_SELECTOR, "[data-play-actions] button")
    shot(browser, f"play-{game}-phone-resigned-390")
    wait(browser, lambda d: Match.objects.get(pk=match.pk).done, 240)  # the bot finishes on its own
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED, match.status_reason
    seat = match.result["seats"][0]
    assert seat["disqualified"] and seat["rank"] == 2
    assert [f["kind"] for f in seat["faults"]] == ["resigned", "disqualified"]
    replays.verify(replays.load(match.replay_file))
    browser.get(f"{live_server.url}/matches/{match.pk}/")
    seats = browser.find_element(By.CSS_SELECTOR, "main").text
    assert "resigned" in seats
