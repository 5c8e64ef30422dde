"""The bots' own logs in the replay viewer, in headless Chromium, on a match really played in the sandbox: the
owner sees, beside each of its bot's turns, what the bot printed and its annotation, and can download it whole;
another user and a visitor see none of it. A fault in the seats table links to the viewer's turn."""

from __future__ import annotations

from pathlib import Path

import pytest
from bot_logs_helpers import played_match

from tests.platform.web.conftest import wait

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[3] / "test-artifacts"


def _log_in(browser, live_server, username):
    from selenium.webdriver.common.by import By

    browser.delete_all_cookies()
    browser.get(f"{live_server.url}/login/")
    browser.find_element(By.ID, "id_username").send_keys(username)
    browser.find_element(By.ID, "id_password").send_keys("pw-123456789")
    browser.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
    wait(browser, lambda d: d.current_url.endswith("/me/"))


def _open(browser, url):
    browser.get(url)
    wait(browser, lambda d: d.execute_script("return document.querySelector('[data-viewer]').dataset.ready === '1'"))


def test_only_the_owner_sees_each_turns_output_and_annotation(browser, live_server, tmp_path, settings):
    from django.contrib.auth import get_user_model
    from selenium.webdriver.common.by import By

    settings.STORAGE_DIR = tmp_path / "storage"
    User = get_user_model()
    alice, bob = (User.objects.create_user(n, "", "pw-123456789") for n in ("alice", "bob"))
    User.objects.create_user("carol", "", "pw-123456789")
    match = played_match(alice, bob)
    url = f"{live_server.url}/matches/{match.pk}/"
    from arena import botlogs
    asked = [d["decision"] for d in botlogs.load(match.logs_file)["seats"][0]["decisions"]]
    third = asked[2]  # chatty's third decision (its second one printed a flood)

    _log_in(browser, live_server, "alice")
    _open(browser, f"{url}#turn={third + 1}")
    wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, "[data-viewer]").get_attribute("data-logs") == "1")
    panel = browser.find_element(By.CSS_SELECTOR, "[data-botlog]")
    assert panel.is_displayed()
    text = panel.text
    assert f"turn {third + 1}" in text
    assert f"Annotation: plan for decision {third}" in text
    assert f"stdout of decision {third}" in text and f"stderr of decision {third}" in text
    assert f"decision {asked[0]}" not in text  # only this turn's output
    ARTIFACTS.mkdir(exist_ok=True)
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", panel)
    browser.save_screenshot(str(ARTIFACTS / "viewer-bot-logs-owner.png"))
    # the next turn is the opponent's: nothing of alice's bot is shown as if it played it
    browser.find_element(By.CSS_SELECTOR, "[data-act=next]").click()
    wait(browser, lambda d: f"stdout of decision {third}" not in panel.text)
    # start-up output on turn 0, and a link to download it all
    browser.find_element(By.CSS_SELECTOR, "[data-act=first]").click()
    wait(browser, lambda d: "hello from seat 0" in panel.text)
    link = panel.find_element(By.CSS_SELECTOR, "[data-botlog-downloads] a")
    assert link.get_attribute("href").endswith(f"/api/matches/{match.pk}/logs/0/")

    for who in ("carol", None):  # another user, then a visitor
        if who:
            _log_in(browser, live_server, who)
        else:
            browser.delete_all_cookies()
        _open(browser, f"{url}#turn={third + 1}")
        viewer = browser.find_element(By.CSS_SELECTOR, "[data-viewer]")
        # the logs request has been answered (with nothing for this visitor) once the page is idle
        wait(browser, lambda d: d.execute_script(
            "return performance.getEntriesByType('resource').some(e => e.name.includes('/logs/'))"))
        assert viewer.get_attribute("data-logs") is None
        assert not browser.find_element(By.CSS_SELECTOR, "[data-botlog]").is_displayed()
        source = browser.page_source
        assert "stdout of decision" not in source and "plan for decision" not in source


def test_a_fault_links_to_the_turn_the_viewer_shows(browser, live_server, world, settings):
    from selenium.webdriver.common.by import By

    match = world["match"]  # seat 3 timed out at decision 12: turn 13
    _open(browser, f"{live_server.url}/matches/{match.pk}/")
    link = browser.find_element(By.CSS_SELECTOR, "[data-fault-turn]")
    assert link.text == "turn 13" and link.get_attribute("href").endswith("#turn=13")
    link.click()
    viewer = browser.find_element(By.CSS_SELECTOR, "[data-viewer]")
    wait(browser, lambda d: viewer.get_attribute("data-index") == "13")
    status = browser.find_element(By.CSS_SELECTOR, "[data-status]").text
    assert "Turn 13 of" in status and "the referee substituted" in status and "played" not in status.split("—")[0]
    # the viewer's timeline marks the same turn
    marks = browser.find_elements(By.CSS_SELECTOR, "[data-marks] .mark-fault")
    assert any("Turn 13" in (m.get_attribute("title") or "") for m in marks)


def test_owner_makes_annotations_public_and_others_see_them_not_the_output(browser, live_server, tmp_path,
                                                                          settings):
    from django.contrib.auth import get_user_model
    from selenium.webdriver.common.by import By

    settings.STORAGE_DIR = tmp_path / "storage"
    User = get_user_model()
    alice, bob = (User.objects.create_user(n, "", "pw-123456789") for n in ("alice", "bob"))
    match = played_match(alice, bob)
    chatty = match.participants.get(seat=0).bot

    _log_in(browser, live_server, "bob")  # not the owner: no switch
    browser.get(f"{live_server.url}/bots/{chatty.pk}/")
    assert not browser.find_elements(By.CSS_SELECTOR, "input[name=public_annotations]")
    _log_in(browser, live_server, "alice")
    browser.get(f"{live_server.url}/bots/{chatty.pk}/")
    box = browser.find_element(By.CSS_SELECTOR, "input[name=public_annotations]")
    assert not box.is_selected()
    box.click()
    wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, "form.switch output").text == "Saved.")
    chatty.refresh_from_db()
    assert chatty.public_annotations

    _log_in(browser, live_server, "bob")
    _open(browser, f"{live_server.url}/matches/{match.pk}/#turn=1")  # turn 1 is chatty's first decision
    wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, "[data-viewer]").get_attribute("data-logs") == "1")
    panel = browser.find_element(By.CSS_SELECTOR, "[data-botlog]")
    wait(browser, lambda d: "Annotation: plan for decision 0" in panel.text)
    assert "stdout of decision" not in browser.page_source
    assert not panel.find_elements(By.CSS_SELECTOR, "[data-botlog-downloads] a[href$='/logs/0/']")
