"""The replay viewer in headless Chromium: the arrow keys step on a fresh page (no click first), the turns the
referee played for a disqualified seat read as its substitute moves in the log and the status line, a solo Minos
end screen and seats table show Rhadamanthus, and from 1200 px the log stands beside the board."""

from __future__ import annotations

import pytest

from arena import replay as replays
from tests.platform.web.conftest import finished_match, wait
from tests.platform.web.test_spectator_browser import ARTIFACTS, DESKTOP, PHONE, open_viewer, show, state

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_arrow_keys_step_on_a_fresh_page_and_the_log_stands_beside_the_board(browser, live_server, world):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    open_viewer(browser, f"{live_server.url}/matches/{world['match'].pk}/", DESKTOP)
    assert browser.execute_script("return document.activeElement === document.body"), "nothing has the focus yet"
    ActionChains(browser).send_keys(Keys.ARROW_RIGHT).send_keys(Keys.ARROW_RIGHT).perform()
    wait(browser, lambda d: state(d)["index"] == 2)
    ActionChains(browser).send_keys(Keys.ARROW_LEFT).perform()
    wait(browser, lambda d: state(d)["index"] == 1)
    geo = browser.execute_script("""
        const b = document.querySelector('[data-board]').getBoundingClientRect();
        const l = document.querySelector('[data-log]').getBoundingClientRect();
        return {boardRight: b.right, logLeft: l.left, logTop: l.top, boardBottom: b.bottom};""")
    assert geo["logLeft"] >= geo["boardRight"] and geo["logTop"] < geo["boardBottom"], geo


def test_a_disqualified_seats_turns_read_as_substitute_moves(browser, live_server, world, settings):
    m, replay = world["match"], world["replay"]
    res = replay["result"]["seats"][1]
    res["disqualified"] = True
    res["faults"] = [{"kind": "disqualified", "message": "crashed", "decision": 9, "turn": None}]
    for d in replay["decisions"]:  # written before the referee recorded `substitute`
        d.pop("substitute", None)
    replays.write(settings.STORAGE_DIR / m.replay_path, replay)
    turn = next(i + 1 for i, d in enumerate(replay["decisions"]) if d["seat"] == 1 and i > 9 and not d["forced"])
    viewer = open_viewer(browser, f"{live_server.url}/matches/{m.pk}/", DESKTOP)
    show(browser, viewer, turn)
    status = browser.find_element("css selector", "[data-status]").text
    assert "substitute move" in status and "referee played" in status and " ms" not in status.split("—")[1]
    line = browser.execute_script(
        f"return document.querySelector('[data-log] li[data-turn=\"{turn}\"]').textContent")
    assert "substitute move" in line and "Substitute move" in line
    subs = browser.execute_script("return document.querySelectorAll('[data-log] li.substitute').length")
    # the seat's turns once it was out, and any faulted turn (the referee played it after the fault)
    assert subs == sum(1 for i, d in enumerate(replay["decisions"])
                       if (d["seat"] == 1 and i > 9 and not d["forced"]) or d.get("fault"))


def test_solo_minos_shows_rhadamanthus_on_the_end_screen_and_in_the_seats_table(browser, live_server, world,
                                                                                settings):
    made = finished_match(world, settings, "minos", 1, seed=21)
    m, replay = made["match"], made["replay"]
    viewer = open_viewer(browser, f"{live_server.url}/matches/{m.pk}/", DESKTOP)
    show(browser, viewer, len(replay["decisions"]))
    rows = browser.execute_script(
        "return [...document.querySelectorAll('[data-end] tbody tr')].map(r => [r.cells[0].textContent, r.cells[1].textContent, r.cells[2].textContent])")
    names = [r[1] for r in rows]
    assert any("Rhadamanthus" in n for n in names) and len(rows) == 2
    assert sorted(r[0] for r in rows) == ["1", "2"]
    table = browser.execute_script(
        "const r = document.querySelector('table.seats tr[data-opponent=Rhadamanthus]'); return [r.cells[3].textContent.trim(), r.cells[4].textContent.trim()]")
    bot = next(r for r in rows if "Rhadamanthus" in r[1])
    assert table == [bot[0], bot[2]], "the seats table's rank and score agree with the end screen"
    # on a phone the seats table keeps rank, score and rating in the page's width (faults scroll)
    open_viewer(browser, f"{live_server.url}/matches/{m.pk}/#turn={len(replay['decisions'])}", PHONE)
    seats = browser.find_element("css selector", "table.seats")
    right = browser.execute_script("""const t = document.querySelector('table.seats');
        const th = [...t.querySelectorAll('th')].find(c => c.textContent.trim() === 'Rating');
        return th.getBoundingClientRect().right;""")
    ARTIFACTS.mkdir(exist_ok=True)
    seats.screenshot(str(ARTIFACTS / "match-minos-1p-seats-phone.png"))
    browser.find_element("css selector", "[data-end]").screenshot(str(ARTIFACTS / "viewer-minos-1p-end-phone.png"))
    browser.set_window_size(*DESKTOP)
    assert right <= PHONE[0], "the rating is not cut off"
