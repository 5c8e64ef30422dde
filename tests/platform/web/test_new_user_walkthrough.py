"""A new user's first hour in headless Chromium (issue 17's review): sign up → the verification mail → verify →
make a bot and upload (refused before the verification, accepted after) → make a team, move the bot in, make an
invitation link → a second person signs up, opens the link and joins → both see the team's bot on their page.
Screenshots of each step go to test-artifacts/walk-*.png (looked at in the review)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from platform_helpers import bot_files, wait_for, zip_bytes

from tests.platform.web.conftest import wait

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[3] / "test-artifacts"
PASSWORD = "a-Long-pass-123"


def shot(driver, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    driver.set_window_size(1280, max(900, driver.execute_script("return document.body.scrollHeight")))
    driver.save_screenshot(str(ARTIFACTS / name))


def sign_up(driver, url: str, name: str, email: str, picture: str | None = None) -> None:
    from selenium.webdriver.common.by import By

    driver.delete_all_cookies()
    driver.get(f"{url}/")
    driver.find_element(By.LINK_TEXT, "Sign up").click()
    wait(driver, lambda d: "/signup/" in d.current_url)
    driver.find_element(By.ID, "id_username").send_keys(name)
    driver.find_element(By.ID, "id_email").send_keys(email)
    driver.find_element(By.ID, "id_password1").send_keys(PASSWORD)
    driver.find_element(By.ID, "id_password2").send_keys(PASSWORD)
    if picture:
        shot(driver, picture)
    driver.find_element(By.XPATH, "//button[.='Create my account']").click()
    wait(driver, lambda d: d.current_url.endswith("/me/"))


def verify_from_mail(driver, address: str) -> str:
    from django.core import mail
    from selenium.webdriver.common.by import By

    sent = [m for m in mail.outbox if m.to == [address]]
    assert sent, f"no mail to {address}"
    link = re.search(r"https?://\S+/accounts/confirm-email/\S+/", sent[-1].body).group(0)
    driver.get(link)
    return driver.find_element(By.TAG_NAME, "body").text


def upload(driver, bot_pk: int, archive: Path) -> str:
    from selenium.webdriver.common.by import By

    form = driver.find_element(By.CSS_SELECTOR, f"form[data-upload='/api/bots/{bot_pk}/versions/']")
    form.find_element(By.CSS_SELECTOR, "input[type=file]").send_keys(str(archive))
    form.find_element(By.CSS_SELECTOR, "button").click()
    return wait(driver, lambda d: (lambda t: t if t and t != "Uploading…" else None)(
        form.find_element(By.CSS_SELECTOR, "output").text), timeout=30)


def test_a_new_user_signs_up_verifies_uploads_and_shares_a_bot_with_a_team(browser, live_server, tmp_path,
                                                                            celery_worker, settings):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    from arena_site.sandbox_mode import sandbox_enabled
    from botregistry.models import Bot
    from teams.models import Team

    url = live_server.url  # storage: the session's, which the worker validating the upload reads too
    settings.ARENA_SITE_URL = url  # mailed links name the site's configured address, never the request's Host
    sign_up(browser, url, "nadia", "nadia@example.org", picture="walk-1-signup.png")
    page = browser.find_element(By.TAG_NAME, "body").text
    assert "nadia" in page
    notice = browser.find_element(By.ID, "verify-notice")  # told at the top of the bots, with the way to the mail
    assert "nadia@example.org" in notice.text and notice.find_element(By.TAG_NAME, "a").get_attribute("href")
    shot(browser, "walk-2-me-unverified.png")

    # a bot can be made at once; its first upload waits for the verified address, and says how to get there
    browser.find_element(By.ID, "bot-name").send_keys("first-digger")
    Select(browser.find_element(By.ID, "bot-game")).select_by_value("thebes")
    browser.find_element(By.CSS_SELECTOR, "form[data-json-post='/api/bots/'] button").click()
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "form[data-upload]"))
    bot = Bot.objects.get(name="first-digger")
    archive = tmp_path / "first-digger.zip"
    archive.write_bytes(zip_bytes(bot_files("first-digger")))
    refused = upload(browser, bot.pk, archive)
    assert "verify your email address" in refused, refused
    shot(browser, "walk-3-upload-before-verification.png")

    confirm_page = verify_from_mail(browser, "nadia@example.org")
    assert "nadia@example.org" in confirm_page
    shot(browser, "walk-4-confirm-email.png")
    browser.find_element(By.CSS_SELECTOR, "main form button[type=submit]").click()
    wait(browser, lambda d: "/confirm-email/" not in d.current_url)
    shot(browser, "walk-5-after-confirm.png")

    browser.get(f"{url}/me/")
    assert not browser.find_elements(By.ID, "verify-notice")
    out = upload(browser, bot.pk, archive)
    if sandbox_enabled():
        assert out.startswith("Uploaded as version 1"), out
        version = bot.versions.get(number=1)
        wait_for(lambda: version.refresh_from_db() or version.status != "pending" and version.status != "validating",
                 timeout=180, what="the upload validated by the worker")
        assert version.status == "ready", version.status_reason  # what a new author's first upload should end as
    else:
        assert "sandbox" in out, out
    shot(browser, "walk-6-upload-after-verification.png")

    # a team: made from the Teams link of the menu, the bot moved in, an invitation link made
    browser.find_element(By.LINK_TEXT, "Teams").click()
    wait(browser, lambda d: d.current_url.endswith("/teams/"))
    browser.find_element(By.ID, "team-name").send_keys("Night Owls")
    browser.find_element(By.XPATH, "//button[.='Make the team']").click()
    wait(browser, lambda d: d.current_url.endswith("/teams/night-owls/"))
    Select(browser.find_element(By.ID, "bot-in")).select_by_value(str(bot.pk))
    browser.find_element(By.XPATH, "//button[.='Move it in']").click()
    wait(browser, lambda d: "now belongs to Night Owls" in d.page_source)
    browser.find_element(By.XPATH, "//button[.='Make an invitation link']").click()
    link = wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, ".invite-link"))[0].text
    shot(browser, "walk-7-team-owner.png")
    team = Team.objects.get(slug="night-owls")
    assert Bot.objects.get(pk=bot.pk).team == team

    # the second person: signs up, opens the link (it asks before joining), joins, sees the team's bot
    sign_up(browser, url, "omar", "omar@example.org")
    browser.get(link)
    assert "Night Owls" in browser.page_source
    shot(browser, "walk-8-join-page.png")
    browser.find_element(By.XPATH, "//button[.='Accept and join']").click()
    wait(browser, lambda d: d.current_url.endswith("/teams/night-owls/"))
    main = browser.find_element(By.TAG_NAME, "main").text
    assert "first-digger" in main and "As a member you upload versions" in main and "last owner" not in main
    shot(browser, "walk-9-team-member.png")
    browser.get(f"{url}/me/")
    mine = browser.find_element(By.ID, "bots-h").find_element(By.XPATH, "..").text
    assert "first-digger" in mine and "Night Owls" in mine, mine
    shot(browser, "walk-10-member-me.png")
    assert set(team.memberships.values_list("user__username", "role")) == {("nadia", "owner"), ("omar", "member")}

    # and the first person sees it on their page too, with its team
    browser.delete_all_cookies()
    browser.get(f"{url}/login/")
    browser.find_element(By.ID, "id_username").send_keys("nadia@example.org")  # by email
    browser.find_element(By.ID, "id_password").send_keys(PASSWORD)
    browser.find_element(By.CSS_SELECTOR, "form.form button[type=submit]").click()
    wait(browser, lambda d: d.current_url.endswith("/me/"))
    mine = browser.find_element(By.ID, "bots-h").find_element(By.XPATH, "..").text
    assert "first-digger" in mine and "Night Owls" in mine, mine
