"""Deleting an account in the browser: /me/ links the export and the confirmation page; a wrong password keeps
the account; the right one deletes it, signs out, and the match page then shows "deleted account" where the
name was. Screenshots go to test-artifacts/."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.platform.web.conftest import wait

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[3] / "test-artifacts"


def test_delete_my_account_in_the_browser(browser, live_server, world):
    from django.contrib.auth import get_user_model

    ARTIFACTS.mkdir(exist_ok=True)
    browser.set_window_size(1366, 900)
    browser.delete_all_cookies()
    browser.get(live_server.url + "/login/")
    browser.find_element("id", "id_username").send_keys("owner0")
    browser.find_element("id", "id_password").send_keys("pw-123456789")
    browser.find_element("css selector", "form.form button[type=submit]").click()
    wait(browser, lambda d: "/login/" not in d.current_url)
    browser.get(live_server.url + "/me/")
    section = browser.find_element("css selector", "[aria-labelledby=account-h]")
    assert section.find_element("link text", "Download my data").get_attribute("href").endswith("/api/auth/me/export/")
    browser.execute_script("arguments[0].scrollIntoView()", section)
    browser.save_screenshot(str(ARTIFACTS / "me-account-section.png"))
    section.find_element("link text", "Delete my account").click()
    wait(browser, lambda d: d.current_url.endswith("/me/delete/"))
    assert "digger0" in browser.page_source  # the bot that will be retired is named
    browser.save_screenshot(str(ARTIFACTS / "delete-account.png"))

    browser.find_element("id", "id_password").send_keys("not my password")
    browser.find_element("css selector", "form.form button[type=submit]").click()
    wait(browser, lambda d: "password is wrong" in d.page_source)
    browser.save_screenshot(str(ARTIFACTS / "delete-account-wrong-password.png"))
    assert get_user_model().objects.get(username="owner0").is_active

    browser.find_element("id", "id_password").send_keys("pw-123456789")
    browser.find_element("css selector", "form.form button[type=submit]").click()
    wait(browser, lambda d: "Your account is deleted" in d.page_source)
    assert not get_user_model().objects.filter(username="owner0").exists()

    browser.get(f"{live_server.url}/matches/{world['match'].pk}/")
    wait(browser, lambda d: "deleted account" in d.page_source)
    assert "owner0" not in browser.page_source
    browser.save_screenshot(str(ARTIFACTS / "match-with-deleted-account.png"))
    browser.get(f"{live_server.url}/bots/{world['bots'][0].pk}/")
    wait(browser, lambda d: "Retired" in d.page_source)
    assert "owner0" not in browser.page_source
    browser.save_screenshot(str(ARTIFACTS / "retired-bot.png"))
