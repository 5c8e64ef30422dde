"""In headless Chromium: a team bot's page lists who uploaded each version (a deleted account as "deleted
account"), /me/ shows a staff-retired team bot as retired, with no upload form, and once its owners delete
the team the bot's page shows "deleted team". axe-core finds nothing; screenshots go to test-artifacts/
(team-bot-uploaders.png, me-retired-team-bot.png, deleted-team-bot.png)."""

from __future__ import annotations

import pytest

from tests.platform.teams.test_team_browser import log_in, shot
from tests.platform.web.conftest import browser, wait  # noqa: F401 (a fixture)
from tests.platform.web.test_accessibility_browser import axe_source, violations  # noqa: F401 (a fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_uploaders_on_the_bot_page_and_a_retired_bot_on_me(browser, live_server, world, make_user,  # noqa: F811
                                                           axe_source):  # noqa: F811 (fixtures)
    from django.utils import timezone
    from selenium.webdriver.common.by import By

    from accounts.deletion import delete_account
    from botregistry.models import BotVersion
    from teams import services

    carol = make_user("carol")
    services.accept(services.invite_user(world.team, world.alice, "carol"), carol)
    for number, who, status in ((2, world.bob, "ready"), (3, world.alice, "failed"), (4, carol, "ready")):
        BotVersion.objects.create(bot=world.bot, number=number, sha256=f"sha-{number}" * 8, status=status,
                                  runtime="python", package_dir="/nonexistent", uploaded_by=who,
                                  status_reason="the bot crashed in its first turn" if status == "failed" else "")
    delete_account(carol)

    log_in(browser, live_server.url, "bob")
    browser.get(f"{live_server.url}/bots/{world.bot.pk}/")
    rows = browser.find_element(By.ID, "versions-h").find_element(By.XPATH, "..").find_elements(By.TAG_NAME, "tr")
    by = {r.find_elements(By.TAG_NAME, "td")[0].text.split()[0]: r.find_elements(By.TAG_NAME, "td")[5].text
          for r in rows[1:]}
    assert by == {"v4": "deleted account", "v3": "alice", "v2": "bob", "v1": "—"}
    assert not violations(browser, axe_source)
    shot(browser, "team-bot-uploaders.png")

    world.bot.retired_at = timezone.now()  # staff retired it
    world.bot.save(update_fields=["retired_at"])
    browser.get(f"{live_server.url}/me/")
    card = browser.find_element(By.LINK_TEXT, "red-bot").find_element(By.XPATH, "ancestor::article")
    assert "Retired" in card.text and "staff retired it" in card.text
    assert not card.find_elements(By.CSS_SELECTOR, "form.upload, input[type=file]")
    assert "red-bot" not in browser.find_element(By.ID, "ch-bot").text  # nor challenges with it
    assert not violations(browser, axe_source)
    shot(browser, "me-retired-team-bot.png")

    services.delete_team(world.team, world.alice)  # its owners may delete a team whose bots are all retired
    browser.get(f"{live_server.url}/bots/{world.bot.pk}/")
    heading = browser.find_element(By.TAG_NAME, "h1").text
    assert "deleted team" in heading and "Red Team" not in browser.page_source
    assert "its team was deleted" in browser.page_source
    assert not violations(browser, axe_source)
    shot(browser, "deleted-team-bot.png")
