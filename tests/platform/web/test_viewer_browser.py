"""In headless Chromium (the system's chromium + chromedriver, through Selenium): the leaderboard, a match page,
and the replay viewer stepped forward and back with buttons and keys, switched between seat views. Saves
screenshots of the viewer under test-artifacts/."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.platform.web.conftest import wait

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[3] / "test-artifacts"
def viewer_state(driver) -> dict:
    return driver.execute_script("""
        const v = document.querySelector('[data-viewer]');
        return {index: v.dataset.index, ready: v.dataset.ready, error: v.dataset.error || null,
                status: v.querySelector('[data-status]').textContent,
                pile: (v.querySelector('[data-pile]') || {}).textContent,
                note: (v.querySelector('[data-view-note]') || {}).textContent,
                pawns: v.querySelectorAll('svg .pawn').length,
                markers: v.querySelectorAll('svg .marker').length,
                places: v.querySelectorAll('svg .place').length,
                panels: v.querySelectorAll('.vp').length,
                view: v.dataset.seatView};
    """)


def test_leaderboard_in_the_browser(browser, live_server, world):
    from selenium.webdriver.common.by import By

    from matches.ratings import refit_ratings

    browser.get(f"{live_server.url}/ladders/thebes-4p/")
    rows = browser.find_elements(By.CSS_SELECTOR, "table.leaderboard tbody tr")
    assert [r.get_attribute("data-bot") for r in rows] == ["digger0", "digger1", "digger2", "digger3"]
    browser.find_element(By.LINK_TEXT, "Games").click()  # sort by games
    wait(browser, lambda d: "sort=games" in d.current_url)
    rows = browser.find_elements(By.CSS_SELECTOR, "table.leaderboard tbody tr")
    assert rows[0].get_attribute("data-bot") == "digger0"  # 30 games, the most
    refit_ratings()  # the bot page's chart is the history of the fitted rating
    rows[0].find_element(By.LINK_TEXT, "digger0").click()
    wait(browser, lambda d: "/bots/" in d.current_url)
    assert browser.find_element(By.CSS_SELECTOR, "svg.chart polyline")


def test_replay_viewer_steps_and_switches_seat_views(browser, live_server, world):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

    m = world["match"]
    last = len(world["replay"]["decisions"])
    browser.get(f"{live_server.url}/matches/{m.pk}/")
    wait(browser, lambda d: viewer_state(d)["ready"] == "1" or viewer_state(d)["error"])
    st = viewer_state(browser)
    assert st["error"] is None
    assert st["index"] == "0" and st["status"].startswith("Start of the game")
    assert st["places"] == 12 and st["pawns"] == 4 and st["markers"] == 4 and st["panels"] == 4
    assert st["view"] == "all" and "next" in st["pile"]  # omniscient: the draw order is visible

    viewer = browser.find_element(By.CSS_SELECTOR, "[data-viewer]")
    viewer.find_element(By.CSS_SELECTOR, "[data-act=next]").click()
    st = viewer_state(browser)
    first = world["replay"]["decisions"][0]
    assert st["index"] == "1"
    assert st["status"].startswith(f"Turn 1 of {last}: digger{first['seat']} v1 (seat {first['seat'] + 1}) played “{first['action']}”")

    viewer.send_keys(Keys.ARROW_RIGHT)
    viewer.send_keys(Keys.ARROW_RIGHT)
    assert viewer_state(browser)["index"] == "3"
    viewer.send_keys(Keys.ARROW_LEFT)
    assert viewer_state(browser)["index"] == "2"
    viewer.send_keys(Keys.END)
    st = viewer_state(browser)
    assert st["index"] == str(last) and "End of the game" in st["status"]
    viewer.find_element(By.CSS_SELECTOR, "[data-act=prev]").click()
    assert viewer_state(browser)["index"] == str(last - 1)

    turn = viewer.find_element(By.CSS_SELECTOR, "[data-turn]")
    turn.clear()
    turn.send_keys("10", Keys.ENTER)
    wait(browser, lambda d: viewer_state(d)["index"] == "10")

    ARTIFACTS.mkdir(exist_ok=True)
    viewer.screenshot(str(ARTIFACTS / "viewer-thebes-4p-omniscient.png"))

    Select(viewer.find_element(By.CSS_SELECTOR, "[data-seat]")).select_by_value("2")
    wait(browser, lambda d: viewer_state(d)["view"] == "2")
    st = viewer_state(browser)
    assert st["index"] == "10", "switching the view keeps the turn"
    assert "order hidden" in st["pile"] and "Seat view" in st["note"]
    this_view = browser.find_element(By.CSS_SELECTOR, ".vp[data-seat='2'] h3").text
    assert "this view" in this_view
    viewer.screenshot(str(ARTIFACTS / "viewer-thebes-4p-seat3.png"))

    browser.set_window_size(390, 844)  # a phone
    browser.execute_script("arguments[0].scrollIntoView()", viewer)
    browser.save_screenshot(str(ARTIFACTS / "viewer-thebes-4p-phone.png"))
    width = browser.execute_script("return document.documentElement.scrollWidth")
    assert width <= 400, "the page must not scroll sideways on a phone"
    browser.set_window_size(1280, 1000)

    assert browser.current_url.endswith("#turn=10"), "the address links to the turn shown"
    browser.get("about:blank")
    browser.get(f"{live_server.url}/matches/{m.pk}/#turn=5")
    wait(browser, lambda d: viewer_state(d)["ready"] == "1")
    assert viewer_state(browser)["index"] == "5"


def test_minos_replay_hides_the_other_hand_in_a_seat_view(browser, live_server, minos_match):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    m = minos_match["match"]
    browser.get(f"{live_server.url}/matches/{m.pk}/")
    wait(browser, lambda d: viewer_state(d)["ready"] == "1" or viewer_state(d)["error"])
    viewer = browser.find_element(By.CSS_SELECTOR, "[data-viewer]")
    browser.execute_script("arguments[0].viewer.show(40)", viewer)
    regions = browser.execute_script("return document.querySelectorAll('[data-viewer] svg .region').length")
    assert regions == 10
    omni_hidden = browser.execute_script(
        "return document.querySelectorAll('[data-viewer] .vp .hidden').length")
    Select(viewer.find_element(By.CSS_SELECTOR, "[data-seat]")).select_by_value("0")
    wait(browser, lambda d: viewer_state(d)["view"] == "0")
    seat_hidden = browser.execute_script(
        "return document.querySelectorAll(\"[data-viewer] .vp[data-seat='1'] .hidden\").length")
    own_hidden = browser.execute_script(
        "return document.querySelectorAll(\"[data-viewer] .vp[data-seat='0'] .hidden\").length")
    assert omni_hidden == 0, "the omniscient view hides nothing"
    assert own_hidden == 0
    assert seat_hidden >= 1, "seat 0's view shows seat 1's unseen cards as hidden"
    ARTIFACTS.mkdir(exist_ok=True)
    viewer.screenshot(str(ARTIFACTS / "viewer-minos-2p-seat1.png"))


def test_live_leaderboard_shows_a_new_result_without_reload_and_pauses(browser, live_server, world, settings):
    from selenium.webdriver.common.by import By

    from botregistry.models import Bot
    from ladders.models import Rating

    settings.ARENA_LIVE_SECONDS = 1

    def state(d):
        return d.execute_script("""
            const bar = document.querySelector('[data-live-bar]');
            return {rows: [...document.querySelectorAll('table.leaderboard tbody tr')].map(r => r.dataset.bot),
                    mode: bar.dataset.liveMode, said: bar.querySelector('[data-live-status]').textContent,
                    same_page: window.__notReloaded === true};""")

    browser.get(f"{live_server.url}/ladders/thebes-4p/?sort=games")
    browser.execute_script("window.__notReloaded = true;")
    assert state(browser)["rows"] == ["digger0", "digger1", "digger2", "digger3"]
    assert state(browser)["mode"] == "live"
    time.sleep(1.3)  # a period with nothing new: no swap, nothing announced
    assert browser.execute_script("return document.querySelector('[data-live-region]').dataset.liveUpdates") is None
    assert state(browser)["said"] == ""
    # a match finishes: digger3 plays its 31st game, and a newcomer gets its first rating
    Rating.objects.filter(bot=world["bots"][3]).update(games=31, wins=1)
    newcomer = Bot.objects.create(owner=world["owners"][0], name="newcomer", game="thebes")
    Rating.objects.create(ladder=world["ladder"], bot=newcomer, elo=1400, games=1, wins=0, sigma=8.0)
    wait(browser, lambda d: "newcomer" in state(d)["rows"], timeout=5)
    st = state(browser)
    assert st["same_page"] and st["rows"][0] == "digger3", "updated in place, still sorted by games"
    assert st["said"].startswith("Updated") and "sort=games" in browser.current_url

    toggle = browser.find_element(By.CSS_SELECTOR, "[data-live-toggle]")
    toggle.click()
    assert toggle.get_attribute("aria-pressed") == "true" and state(browser)["mode"] == "paused"
    Rating.objects.filter(bot=newcomer).update(games=40)
    time.sleep(1.6)  # more than one period: a paused page must not change
    assert state(browser)["rows"][0] == "digger3"
    toggle.click()
    wait(browser, lambda d: state(d)["rows"][0] == "newcomer", timeout=5)
    assert state(browser)["same_page"]
