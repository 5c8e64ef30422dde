"""The bot page's "Validate again" button in headless Chromium: a version whose build timed out is validated
again as it is (owner.js posts to /api/versions/{id}/revalidate/ with the session), and the page reloads."""

from __future__ import annotations

import pytest
from platform_helpers import make_bot

from tests.platform.web.conftest import wait

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_owner_validates_a_timed_out_version_again_from_the_bot_page(browser, live_server):
    from django.contrib.auth import get_user_model
    from selenium.webdriver.common.by import By

    from arena.botcheck import BUILD_TIMED_OUT
    from botregistry.models import BotVersion

    owner = get_user_model().objects.create_user("slowpoke", "", "pw-123456789")
    bot = make_bot(owner, "slow-builder", status="failed")
    BotVersion.objects.filter(pk=bot.active_version_id).update(status_reason=BUILD_TIMED_OUT)
    browser.delete_all_cookies()
    browser.get(f"{live_server.url}/login/")
    browser.find_element(By.ID, "id_username").send_keys("slowpoke")
    browser.find_element(By.ID, "id_password").send_keys("pw-123456789")
    browser.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
    wait(browser, lambda d: d.current_url.endswith("/me/"))

    browser.get(f"{live_server.url}/bots/{bot.pk}/")
    again = "//button[contains(., 'Validate v1 again')]"
    browser.find_element(By.XPATH, again).click()
    # the page reloads once the API accepted: the version left "failed, build timed out" (pending, or already
    # validated again if a test worker runs: this package does not exist, so it fails for another reason)
    wait(browser, lambda d: not d.find_elements(By.XPATH, again), timeout=20)
    version = BotVersion.objects.get(pk=bot.active_version_id)
    assert version.validation_queued_at is not None and version.status_reason != BUILD_TIMED_OUT
