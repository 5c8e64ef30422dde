"""The owner's pages in headless Chromium: log in, create a bot, upload a version (progress and result shown)
and read the API token — the small scripts on /me/ talking to the REST API with the session."""

from __future__ import annotations

import pytest
from platform_helpers import bot_files, zip_bytes

from tests.platform.web.conftest import wait

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_log_in_create_a_bot_and_upload_a_version(browser, live_server, tmp_path, settings):
    from django.contrib.auth import get_user_model
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    from arena_site.sandbox_mode import sandbox_enabled
    from botregistry.models import Bot

    settings.STORAGE_DIR = tmp_path / "storage"
    get_user_model().objects.create_user("maker", "", "pw-123456789")
    browser.delete_all_cookies()
    browser.get(f"{live_server.url}/login/")
    browser.find_element(By.ID, "id_username").send_keys("maker")
    browser.find_element(By.ID, "id_password").send_keys("pw-123456789")
    browser.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
    wait(browser, lambda d: d.current_url.endswith("/me/"))

    browser.find_element(By.ID, "bot-name").send_keys("my-digger")
    Select(browser.find_element(By.ID, "bot-game")).select_by_value("thebes")
    browser.find_element(By.CSS_SELECTOR, "form[data-json-post='/api/bots/'] button").click()
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "form[data-upload]"))
    bot = Bot.objects.get(name="my-digger")
    assert bot.owner.username == "maker" and bot.game == "thebes"

    archive = tmp_path / "my-digger.zip"
    archive.write_bytes(zip_bytes(bot_files("my-digger")))
    form = browser.find_element(By.CSS_SELECTOR, f"form[data-upload='/api/bots/{bot.pk}/versions/']")
    form.find_element(By.CSS_SELECTOR, "input[type=file]").send_keys(str(archive))
    browser.execute_script("window.notReloaded = true")
    form.find_element(By.CSS_SELECTOR, "button").click()
    out = wait(browser, lambda d: (lambda t: t if t and t != "Uploading…" else None)(
        form.find_element(By.CSS_SELECTOR, "output").text), timeout=20)
    if sandbox_enabled():
        assert out.startswith("Uploaded as version 1"), out
        assert form.find_element(By.CSS_SELECTOR, "progress").get_attribute("value") == "100"
        assert bot.versions.count() == 1
        # the card follows the validation in place: the new version appears in it without a reload
        card = f"#bot-card-{bot.pk} [data-card-versions]"
        # read in the page in one step: the card is redrawn while validation goes on (an element found by one
        # call may be gone at the next)
        wait(browser, lambda d: "v1" in (d.execute_script(
            "const e = document.querySelector(arguments[0]); return e ? e.textContent : ''", card) or ""),
             timeout=30)
        assert browser.execute_script("return window.notReloaded === true")
    else:
        assert out.startswith("Upload refused") and "sandbox" in out, out

    browser.find_element(By.XPATH, "//button[contains(., 'Make a token')]").click()
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, ".token"))
    from accounts.models import ApiToken
    from accounts.tokens import digest
    shown = browser.find_element(By.CSS_SELECTOR, ".token").text
    assert ApiToken.objects.filter(user=bot.owner, digest=digest(shown)).exists()  # stored hashed, shown once
