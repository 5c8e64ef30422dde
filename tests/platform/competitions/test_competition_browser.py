"""The competition pages in headless Chromium, as their users go through them: an organizer makes a private
competition entered by invitation link and makes the link; an entrant opens the link, enters her bot and sees
her entry; an outsider finds no trace of it. axe-core finds no violation; screenshots go to test-artifacts/
(competition-*.png)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.platform.teams.test_team_browser import log_in, shot
from tests.platform.web.conftest import browser, wait  # noqa: F401 (a fixture)
from tests.platform.web.test_accessibility_browser import axe_source, violations  # noqa: F401 (a fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _set(driver, element_id: str, value: str) -> None:
    """Fill a field by script (a datetime-local input takes its value in one piece, whatever the locale)."""
    driver.execute_script("const e = document.getElementById(arguments[0]); e.value = arguments[1];",
                          element_id, value)


def test_organizer_creates_and_entrant_enters(browser, live_server, cast, axe_source):  # noqa: F811 (fixtures)
    from django.utils import timezone
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    from competitions.models import Competition, Entry

    browser.set_script_timeout(60)
    found = {}

    def check(label):
        if v := violations(browser, axe_source):
            found[label] = v

    log_in(browser, live_server.url, "olga")
    browser.get(f"{live_server.url}/competitions/")
    browser.find_element(By.LINK_TEXT, "New competition").click()
    wait(browser, lambda d: d.current_url.endswith("/competitions/new/"))
    check("/competitions/new/")
    now = timezone.now()
    fmt = "%Y-%m-%dT%H:%M"
    browser.find_element(By.ID, "id_title").send_keys("Class of 2026")
    browser.find_element(By.ID, "id_slug").send_keys("class-2026")
    browser.find_element(By.ID, "id_description").send_keys("The spring term's Thebes competition.")
    browser.find_element(By.ID, "id_rules").send_keys("## Conduct\n\n- one bot each\n- **no** shared code\n")
    Select(browser.find_element(By.ID, "id_game")).select_by_value("thebes")
    _set(browser, "id_entries_open_at", (now - timedelta(minutes=5)).strftime(fmt))
    _set(browser, "id_deadline", (now + timedelta(days=7)).strftime(fmt))
    _set(browser, "id_final_at", (now + timedelta(days=8)).strftime(fmt))
    Select(browser.find_element(By.ID, "id_policy")).select_by_value("link")
    Select(browser.find_element(By.ID, "id_final_format")).select_by_value("swiss")
    browser.find_element(By.ID, "id_private").click()
    shot(browser, "competition-new.png")
    browser.find_element(By.XPATH, "//button[.='Create competition']").click()
    wait(browser, lambda d: d.current_url.endswith("/competitions/class-2026/"))
    c = Competition.objects.get(slug="class-2026")
    assert c.private and c.policy == "link" and c.final_format == "swiss" and c.game == "thebes"
    assert "<strong>no</strong>" in browser.page_source  # the rules' Markdown, rendered
    browser.find_element(By.XPATH, "//button[.='New invitation link']").click()
    link = wait(browser, lambda d: d.find_elements(By.ID, "invite-url"))[0].text
    assert "/competitions/class-2026/?key=" in link
    check("/competitions/class-2026/ (organizer)")
    shot(browser, "competition-organizer.png")

    log_in(browser, live_server.url, "eve")  # an outsider without the link: nothing
    browser.get(f"{live_server.url}/competitions/class-2026/")
    assert "Class of 2026" not in browser.page_source
    browser.get(f"{live_server.url}/competitions/")
    assert "Class of 2026" not in browser.page_source

    log_in(browser, live_server.url, "alice")
    browser.get(link)
    wait(browser, lambda d: "Class of 2026" in d.page_source)
    check("/competitions/class-2026/?key= (invited)")
    shot(browser, "competition-invited.png")
    Select(browser.find_element(By.ID, "enter-bot")).select_by_visible_text("alice-bot")
    browser.find_element(By.XPATH, "//button[.='Enter this bot']").click()
    wait(browser, lambda d: "alice-bot entered" in d.page_source)
    row = browser.find_element(By.CSS_SELECTOR, "tr[data-entry='alice-bot']")
    assert "locked at the deadline" in row.text
    assert Entry.objects.filter(competition=c, bot=cast.a).exists()
    browser.get(f"{live_server.url}/competitions/class-2026/")  # an entrant now: without the link too
    assert "alice-bot" in browser.page_source
    check("/competitions/class-2026/ (entrant)")
    shot(browser, "competition-entrant.png")
    assert not found, found
