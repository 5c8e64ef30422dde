"""A person plays a whole Thebes and a whole Minos 2-player game in Chromium against the sandboxed built-in random
bot, run by a real Celery worker on the people's queue, with short clocks. Their turns are pushed to the page (the
seat's own live stream; the GET is only the fallback); each turn's actions are shown in words, grouped; the board's
things an action is about are chosen from the board itself, by click and by keyboard (Thebes: a displayed card,
Warsaw, a site; Minos: a die, a region, an offered card), and an action that ends the turn is confirmed in the
page. The narrated log and the score chart follow the game; at 390 px nothing scrolls sideways; the page reaches
the end without a reload; the match finishes unrated and its replay verifies; the page then offers "Play again".
The playing page has no axe violation. Screenshots (1366 and 390 px, your turn and waiting) go to
test-artifacts/."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tests.platform.web.conftest import both_widths, wait
from tests.platform.web.test_accessibility_browser import axe_source, violations  # noqa: F401  (a fixture)
from tests.platform.web.test_bot_logs_browser import _log_in

pytestmark = [pytest.mark.browser, pytest.mark.sandbox, pytest.mark.django_db(transaction=True),
              pytest.mark.timeout(700)]

ARTIFACTS = Path(__file__).resolve().parents[3] / "test-artifacts"
ROOT = Path(__file__).resolve().parents[3]
#: the board things each game's person must have chosen from the board at least once
BOARD_THINGS = {"thebes": {"card", "warsaw", "site"}, "minos": {"die-face", "region", "offer"}}

#: clicks one of the turn's action buttons (`pick` among them), then the confirmation if one is asked: a click
#: as the person's, in one round trip (a Minos game asks ~110 decisions)
CLICK = """
const [pick] = arguments;
const buttons = [...document.querySelectorAll('[data-play-actions] button')];
buttons[Math.floor(pick * buttons.length)].click();
const yes = document.querySelector('[data-play-confirm]:not([hidden]) [data-confirm=yes]');
if (yes) yes.click();
"""


def panel(driver, name: str) -> str | None:
    return driver.execute_script(f"const p = document.querySelector('[data-play]'); return p ? (p.dataset.{name} ?? null) : null")


def choose_on_board(driver, target: str, keyboard: bool) -> None:
    """Choose the board thing `target` (its button's `data-play-target`): focused and Enter, or clicked. The board
    is drawn again as decisions come (a new button each time): found again if it went stale meanwhile."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.keys import Keys

    for _ in range(20):
        try:
            el = driver.find_element("css selector", f'[data-board] [data-play-target="{target}"]')
            if keyboard:
                driver.execute_script("arguments[0].focus()", el)
                el.send_keys(Keys.ENTER)
            else:
                driver.execute_script("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", el)
            return
        except StaleElementReferenceException:
            continue
    raise AssertionError(f"the board's {target} never held still")


def thing(target: str) -> str:
    kind, _, ident = target.partition(":")
    if kind == "place":
        return "warsaw" if ident == "warsaw" else "site"
    return kind


@pytest.mark.parametrize("game", ["thebes", "minos"])
def test_a_person_plays_a_whole_game_by_clicking_on_the_board(celery_worker, browser, live_server, axe_source,  # noqa: F811
                                                            make_user, game):
    from django.core.management import call_command
    from selenium.webdriver.common.by import By

    from arena import replay as replays
    from botregistry.models import Bot
    from matches.models import Match
    from matches.services import create_human_match

    call_command("ensure_ladders", verbosity=0)
    call_command("register_builtin_bots", str(ROOT / "bots" / "python" / "random"), verbosity=0)
    opponent = Bot.objects.get(builtin=True, game=game)
    me = make_user("player1")
    _log_in(browser, live_server, "player1")
    match = create_human_match(user=me, game=game, players=2, seat=0, opponents=[opponent.playing_version],
                               clock={"decision_ms": 20_000, "bank_ms": 60_000})
    ARTIFACTS.mkdir(exist_ok=True)
    browser.set_window_size(1366, 900)
    browser.get(f"{live_server.url}/matches/{match.pk}/")
    # waiting: the page is open before the worker asks anything (the random bot answers faster than a screenshot)
    both_widths(browser, "[data-play]", str(ARTIFACTS / f"play-{game}-waiting"))
    rng = random.Random(3)
    answers = 0
    used: set[str] = set()
    via: set[str | None] = set()
    shots = False
    before_reload = 0
    while True:
        wait(browser, lambda d: panel(d, "over") == "1" or (panel(d, "turn") or "") not in ("", None)
             and d.find_elements(By.CSS_SELECTOR, "[data-play-actions] button"), 240)
        if panel(browser, "over") == "1":
            break
        turn = panel(browser, "turn")
        via.add(panel(browser, "turnVia"))
        if not shots and browser.find_elements(By.CSS_SELECTOR, "[data-board] [data-play-target]"):
            # the first turn with things to choose on the board (drawn from the seat's own view, published from
            # the start for a person's seat): checked by axe, and shown
            found = violations(browser, axe_source)
            assert not found, [(v["id"], v["nodes"]) for v in found]
            labels = [b.text for b in browser.find_elements(By.CSS_SELECTOR, "[data-play-actions] button")]
            legends = [x.text for x in browser.find_elements(By.CSS_SELECTOR, "[data-play-actions] legend")]
            assert labels and legends and all(x.strip() for x in legends)  # words, grouped by kind
            both_widths(browser, "[data-play]", str(ARTIFACTS / f"play-{game}-turn"))
        # a board thing not chosen yet from the board, when the turn offers one
        keys = browser.execute_script("return [...document.querySelectorAll('[data-board] [data-play-target]')]"
                                      ".map((el) => el.dataset.playTarget)")
        fresh = [k for k in keys if thing(k) in BOARD_THINGS[game] - used]
        if fresh:
            used.add(thing(fresh[0]))
            choose_on_board(browser, fresh[0], keyboard=len(used) == 1)
            picked = browser.find_elements(By.CSS_SELECTOR, "[data-play-actions] button.picked")
            if picked:  # several actions are about it: they are marked, one is clicked
                rng.choice(picked).click()
            confirm = browser.find_elements(By.CSS_SELECTOR, "[data-play-confirm]:not([hidden]) [data-confirm=yes]")
            if confirm:
                if not shots:
                    browser.save_screenshot(str(ARTIFACTS / f"play-{game}-confirm-1366.png"))
                confirm[0].click()
        else:
            browser.execute_script(CLICK, rng.random())
        answers += 1
        wait(browser, lambda d, shown=turn: panel(d, "turn") != shown or panel(d, "over") == "1", 60)
        shots = shots or bool(used)
        if answers == 8:  # the story so far: the narrated log and the score chart, mid-game
            browser.execute_script("document.querySelector('[data-live-chart]').scrollIntoView()")
            browser.save_screenshot(str(ARTIFACTS / f"play-{game}-story-1366.png"))
            # the tab closed and opened again: the same game, at the decision now asked
            browser.get("about:blank")
            browser.get(f"{live_server.url}/matches/{match.pk}/")
            before_reload = answers
    assert used == BOARD_THINGS[game], used  # each board thing chosen from the board at least once
    assert "push" in via, via  # the turns came pushed (the GET is the fallback)
    assert int(panel(browser, "answered")) == answers - before_reload > 5  # each choice answered a decision
    told = browser.execute_script("return document.querySelector('[data-live-watch]').dataset.told || '0'")
    assert int(told) > answers - before_reload  # the log told each decision in words as it came (the person's and the bot's)
    assert browser.find_element(By.CSS_SELECTOR, "[data-live-chart]").is_displayed()  # and the scores so far
    wait(browser, lambda d: Match.objects.get(pk=match.pk).done, 60)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED, match.status_reason
    seat = match.result["seats"][0]
    assert not seat.get("faults") and not seat.get("disqualified")
    replays.verify(replays.load(match.replay_file))
    browser.get(f"{live_server.url}/matches/{match.pk}/")
    assert browser.find_elements(By.CSS_SELECTOR, "[data-play-again]")
    browser.save_screenshot(str(ARTIFACTS / f"play-{game}-ended-1366.png"))
