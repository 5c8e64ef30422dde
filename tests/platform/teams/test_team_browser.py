"""The team pages in headless Chromium, as their users go through them: an owner makes a team and invites by
user name and by link; the invitee accepts on their Teams page and sees the member's view; a visitor sees the
team beside its bot on the leaderboard. axe-core finds no violation on any of them; screenshots go to
test-artifacts/ (team-*.png)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.platform.web.conftest import browser, wait  # noqa: F401 (a fixture)
from tests.platform.web.test_accessibility_browser import axe_source, violations  # noqa: F401 (a fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[3] / "test-artifacts"


def log_in(driver, url: str, username: str) -> None:
    driver.delete_all_cookies()
    driver.get(f"{url}/login/")
    driver.find_element("id", "id_username").send_keys(username)
    driver.find_element("id", "id_password").send_keys("pw-123456789")
    driver.find_element("css selector", "form.form button[type=submit]").click()
    wait(driver, lambda d: "/login/" not in d.current_url)


def shot(driver, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    driver.set_window_size(1280, max(900, driver.execute_script("return document.body.scrollHeight")))
    driver.save_screenshot(str(ARTIFACTS / name))


def test_make_invite_join_and_see_a_team(browser, live_server, world, make_user, axe_source):  # noqa: F811 (fixtures)
    from selenium.webdriver.common.by import By

    from teams.models import Team

    browser.set_script_timeout(60)
    make_user("carol")
    found = {}

    def check(label):
        if v := violations(browser, axe_source):
            found[label] = v

    log_in(browser, live_server.url, "alice")
    browser.get(f"{live_server.url}/teams/")
    browser.find_element(By.ID, "team-name").send_keys("Blue Owls")
    browser.find_element(By.ID, "team-desc").send_keys("Minos specialists")
    browser.find_element(By.XPATH, "//button[.='Make the team']").click()
    wait(browser, lambda d: d.current_url.endswith("/teams/blue-owls/"))
    assert Team.objects.get(slug="blue-owls").memberships.get().user.username == "alice"
    browser.find_element(By.ID, "invite-name").send_keys("carol")
    browser.find_element(By.XPATH, "//button[.='Invite']").click()
    wait(browser, lambda d: "carol is invited" in d.page_source)
    browser.find_element(By.XPATH, "//button[.='Make an invitation link']").click()
    link = wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, ".invite-link"))[0].text
    assert "/teams/join/" in link
    browser.get(f"{live_server.url}/teams/red-team/")  # alice owns this one too, with a bot and a member
    check("/teams/red-team/ (owner)")
    shot(browser, "team-owner.png")

    log_in(browser, live_server.url, "carol")
    browser.get(f"{live_server.url}/teams/")
    assert "Blue Owls" in browser.find_element(By.ID, "inv-h").find_element(By.XPATH, "..").text
    check("/teams/ (invited)")
    shot(browser, "team-invited.png")
    browser.find_element(By.XPATH, "//button[.='Accept']").click()
    wait(browser, lambda d: d.current_url.endswith("/teams/blue-owls/"))
    assert "you are a member" in browser.page_source
    check("/teams/blue-owls/ (member)")
    # the link is the owner's to hand out: opened by carol (already a member) it joins nobody new
    browser.get(link)
    assert "already a member" in browser.page_source
    check("/teams/join/<key>/")

    log_in(browser, live_server.url, "eve")
    browser.get(link)
    browser.find_element(By.XPATH, "//button[.='Accept and join']").click()
    wait(browser, lambda d: d.current_url.endswith("/teams/blue-owls/"))
    assert set(Team.objects.get(slug="blue-owls").memberships.values_list("user__username", flat=True)) == {
        "alice", "carol", "eve"}

    browser.delete_all_cookies()
    browser.get(f"{live_server.url}/ladders/thebes-2p/")
    tag = browser.find_element(By.CSS_SELECTOR, "tr[data-bot='red-bot'] a.team-tag")
    assert tag.text == "team Red Team" and tag.get_attribute("href").endswith("/teams/red-team/")
    check("/ladders/thebes-2p/")
    shot(browser, "team-leaderboard.png")
    browser.get(f"{live_server.url}/teams/red-team/")
    check("/teams/red-team/ (visitor)")
    shot(browser, "team-visitor.png")
    # a member's own bot: its page offers the move into each of their teams
    from platform_helpers import make_bot

    mine = make_bot(world.bob, "bobs-bot")
    log_in(browser, live_server.url, "bob")
    browser.get(f"{live_server.url}/bots/{mine.pk}/")
    check("/bots/<own bot>/ (member)")
    shot(browser, "team-bot-move.png")
    browser.find_element(By.XPATH, "//button[.='Move to team Red Team']").click()
    wait(browser, lambda d: d.current_url.endswith("/teams/red-team/"))
    mine.refresh_from_db()
    assert mine.team_id == world.team.pk
    browser.get(f"{live_server.url}/bots/{mine.pk}/")
    assert "team Red Team" in browser.find_element(By.TAG_NAME, "h1").text
    shot(browser, "team-bot-page.png")
    assert found == {}, found
