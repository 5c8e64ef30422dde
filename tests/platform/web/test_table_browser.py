"""Two people at one table, in two Chromium sessions, with a real worker and the sandboxed random bot: Ann sets a
3-seat Minos table on /play/ (her seat, a seat for a person she invites, the random bot) and sees its page with
the invitation link; Bea, signed in in her own browser, opens the link (the page shows the table and takes
nothing) and takes the free seat; both pages go to the match without a reload, and each person plays their
first turns there by clicking. The rest of the game is answered through the play endpoint, to its end. The table
and invitation pages have no axe violation; screenshots (1366 and 390 px) go to test-artifacts/."""

from __future__ import annotations

import random
import re
import time
from pathlib import Path

import pytest

from tests.platform.web.conftest import new_chromium, wait
from tests.platform.web.test_accessibility_browser import axe_source, violations  # noqa: F401  (a fixture)
from tests.platform.web.test_bot_logs_browser import _log_in
from tests.platform.web.test_play_bridge import client_of, post
from tests.platform.web.test_play_browser import CLICK
from tests.platform.web.test_play_form import house  # noqa: F401  (a fixture)

pytestmark = [pytest.mark.browser, pytest.mark.sandbox, pytest.mark.django_db(transaction=True),
              pytest.mark.timeout(500)]

ARTIFACTS = Path(__file__).resolve().parents[3] / "test-artifacts"


@pytest.fixture(scope="module")
def other_browser():
    driver = new_chromium()
    yield driver
    driver.quit()


def shoot(driver, name: str) -> None:
    """Screenshots of the page as it is, at 1366 and at 390 px (the whole page's height)."""
    for width in (1366, 390):
        driver.set_window_size(width, 900)
        height = driver.execute_script("return document.documentElement.scrollHeight")
        driver.set_window_size(width, min(max(height + 120, 700), 2400))
        driver.save_screenshot(str(ARTIFACTS / f"{name}-{width}.png"))
    driver.set_window_size(1366, 900)


def panel(driver, name: str) -> str | None:
    return driver.execute_script(
        f"const p = document.querySelector('[data-play]'); return p ? (p.dataset.{name} ?? null) : null")


def click_a_turn(driver, rng) -> bool:
    """Click one legal action when it is this page's person's turn; True if it clicked."""
    from selenium.webdriver.common.by import By

    buttons = driver.find_elements(By.CSS_SELECTOR, "[data-play-actions] button")
    turn = panel(driver, "turn")
    if not turn or not buttons:
        return False
    # one of the turn's buttons (a group of many is folded: the click is the page's own), then the confirmation
    # the page asks before an action that ends the turn
    driver.execute_script(CLICK, rng.random())
    wait(driver, lambda d: panel(d, "turn") != turn or panel(d, "over") == "1", 60)
    return True


def test_two_people_set_and_join_a_table_in_two_browsers_and_play(celery_worker, browser, other_browser,
                                                                   live_server, axe_source, house, make_user):  # noqa: F811
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    from matches.models import Match
    from tables.models import Table, TableSeat

    _, minos_bot = house
    ann, bea = make_user("ann"), make_user("bea")
    ARTIFACTS.mkdir(exist_ok=True)
    browser.set_script_timeout(60)
    other_browser.set_script_timeout(60)
    _log_in(browser, live_server, "ann")
    _log_in(other_browser, live_server, "bea")

    # Ann sets the table on /play/
    browser.get(f"{live_server.url}/play/")
    Select(browser.find_element(By.ID, "id_game")).select_by_value("minos")
    Select(browser.find_element(By.ID, "id_players")).select_by_value("3")
    Select(browser.find_element(By.ID, "id_seat")).select_by_value("0")
    Select(browser.find_element(By.ID, "id_clock")).select_by_value("30s")
    Select(browser.find_element(By.ID, "id_opponent1")).select_by_value("person")
    Select(browser.find_element(By.ID, "id_opponent2")).select_by_value(str(minos_bot.pk))
    browser.find_element(By.CSS_SELECTOR, "form.form button[type=submit]").click()
    wait(browser, lambda d: re.search(r"/tables/\d+/#invite=", d.current_url), 30)
    invite = wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, "[data-invite]").get_attribute("value"), 10)
    assert re.fullmatch(rf"{re.escape(live_server.url)}/tables/join/[A-Za-z0-9_-]{{43}}/", invite)
    rows = [r.text for r in browser.find_elements(By.CSS_SELECTOR, "[data-table-seats] tr")]
    assert len(rows) == 3 and "ann" in rows[0] and minos_bot.active_version.seat_name in rows[2]
    assert not violations(browser, axe_source)
    shoot(browser, "table-open")

    # Bea opens the link: the table, and nothing taken yet
    other_browser.get(invite)
    take = wait(other_browser, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-take-seat]"), 30)[0]
    assert "ann" in other_browser.page_source and not TableSeat.objects.filter(person=bea).exists()
    assert not violations(other_browser, axe_source)
    shoot(other_browser, "table-invite")
    take.click()

    # both pages go to the match without a reload on Ann's side (her table page polls it)
    wait(other_browser, lambda d: "/matches/" in d.current_url, 30)
    wait(browser, lambda d: "/matches/" in d.current_url, 30)
    table = Table.objects.select_related("match").get()
    match = table.match
    assert table.status == Table.Status.STARTED and browser.current_url.endswith(f"/matches/{match.pk}/")
    assert match.people == {"0": ann.pk, "1": bea.pk}

    # each plays their first turns by clicking (Minos begins with every seat's setup picks)
    rng = random.Random(7)
    clicks = {"ann": 0, "bea": 0}
    deadline = time.monotonic() + 180
    while min(clicks.values()) < 2:
        assert time.monotonic() < deadline, f"no turn came to click: {clicks}"
        for name, driver in (("ann", browser), ("bea", other_browser)):
            if click_a_turn(driver, rng):
                clicks[name] += 1
        time.sleep(0.1)
    shoot(other_browser, "table-match-bea")

    # the rest of the game through the endpoint, to its end
    clients = {0: client_of(ann), 1: client_of(bea)}
    last: dict[int, int | None] = {0: None, 1: None}
    deadline = time.monotonic() + 300
    while not Match.objects.get(pk=match.pk).done:
        assert time.monotonic() < deadline, "the game did not end"
        for seat, c in clients.items():
            resp = c.get(f"/matches/{match.pk}/play/", {"seat": seat})
            if resp.status_code == 200 and resp.json()["decision"] != last[seat]:
                turn = resp.json()
                post(c, match, seat=seat, decision=turn["decision"], action=rng.choice(turn["legal"])["text"])
                last[seat] = turn["decision"]
        time.sleep(0.05)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED, match.status_reason
    assert not any(s.get("faults") for s in match.result["seats"][:2])


def test_a_seated_person_leaves_an_open_table_from_its_page_and_the_creators_page_shows_the_seat_free(
        browser, other_browser, live_server, axe_source, house, make_user):  # noqa: F811
    """Bea takes a seat at Ann's 4-seat table (another still free), sees "Leave the table" on its page (Ann sees
    "Cancel the table" only), leaves with the keyboard, lands on /play/ told her seat is free again; Ann's page
    redraws the seat as free by itself; Ann can still cancel. Both table pages have no axe violation."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    from tables import services
    from tables.models import Table, TableSeat

    _, minos_bot = house
    ann, bea = make_user("ann"), make_user("bea")
    new = services.create(user=ann, game="minos", players=4, seat=0, others=[None, minos_bot.playing_version, None],
                          clock={"decision_ms": 30_000, "bank_ms": 120_000})
    ARTIFACTS.mkdir(exist_ok=True)
    _log_in(browser, live_server, "ann")
    _log_in(other_browser, live_server, "bea")
    browser.get(f"{live_server.url}/tables/{new.table.pk}/")
    assert not browser.find_elements(By.CSS_SELECTOR, "[data-table-leave]")  # the creator cancels instead
    other_browser.get(f"{live_server.url}{new.invite_path}")
    wait(other_browser, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-take-seat]"), 30)[0].click()
    wait(other_browser, lambda d: d.current_url.endswith(f"/tables/{new.table.pk}/"), 30)
    wait(browser, lambda d: "bea" in d.find_element(By.CSS_SELECTOR, "[data-table-seats]").text, 30)
    leave = other_browser.find_element(By.CSS_SELECTOR, "[data-table-leave] button")
    assert not other_browser.find_elements(By.XPATH, "//button[contains(., 'Cancel the table')]")
    assert not violations(other_browser, axe_source)
    shoot(other_browser, "table-leave")
    other_browser.execute_script("arguments[0].focus()", leave)
    leave.send_keys(Keys.ENTER)
    wait(other_browser, lambda d: d.current_url.endswith("/play/"), 30)
    assert "your seat is free again" in other_browser.find_element(By.CSS_SELECTOR, "[role=status] .messages").text
    assert not TableSeat.objects.filter(person=bea).exists()
    # Ann's page shows the seat free again (it polls the table's state)
    wait(browser, lambda d: "bea" not in d.find_element(By.CSS_SELECTOR, "[data-table-seats]").text, 30)
    assert not violations(browser, axe_source)
    browser.find_element(By.XPATH, "//button[contains(., 'Cancel the table')]").click()
    wait(browser, lambda d: Table.objects.get().status == Table.Status.CANCELLED, 30)
