"""Flows without dead ends in headless Chromium (issue 27): the challenge form follows the chosen ladder (only that
game's bots, opponents per seat, none for solo) and the match it requests has the ladder's game; the pages this
work changed have no axe violation, and screenshots at 1366 and 390 px go to test-artifacts/flows-*.png."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from platform_helpers import make_bot

from arena import games
from arena import replay as replays
from tests.platform.teams.test_team_browser import log_in
from tests.platform.web.conftest import browser, wait  # noqa: F401 (a fixture)
from tests.platform.web.test_accessibility_browser import axe_source, violations  # noqa: F401 (a fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[3] / "test-artifacts"
WIDTHS = (1366, 390)


def shots(driver, name: str) -> None:
    """The page at each width, whole (the window as tall as the page)."""
    ARTIFACTS.mkdir(exist_ok=True)
    for width in WIDTHS:
        driver.set_window_size(width, 900)
        height = driver.execute_script("return document.documentElement.scrollHeight")
        driver.set_window_size(width, min(max(900, height), 12000))
        driver.save_screenshot(str(ARTIFACTS / f"flows-{name}-{width}.png"))
    driver.set_window_size(1366, 900)


def offered(select) -> list[str]:
    return [o.text for o in select.find_elements("tag name", "option") if o.is_displayed() and o.is_enabled()]


def test_the_challenge_form_follows_the_chosen_ladder(browser, live_server, make_user, settings, axe_source):  # noqa: F811
    from django.core.management import call_command
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    from botregistry.models import BotVersion
    from matches.models import Match

    settings.ARENA_WEBHOOK = {**settings.ARENA_WEBHOOK, "allow_private": False}
    call_command("ensure_ladders", verbosity=0)
    owner, rival = make_user("chooser"), make_user("rival")
    make_bot(owner, "my-digger", game="thebes")
    mine_minos = make_bot(owner, "my-minoan", game="minos")
    make_bot(owner, "my-benched", game="minos", status=BotVersion.Status.SUSPENDED)
    for name in ("their-digger", "other-digger", "third-digger"):
        make_bot(rival, name, game="thebes")
    make_bot(rival, "their-minoan", game="minos")
    log_in(browser, live_server.url, "chooser")
    browser.get(f"{live_server.url}/me/")
    ladder = Select(browser.find_element(By.ID, "ch-ladder"))
    bot = browser.find_element(By.ID, "ch-bot")
    opponents = browser.find_element(By.ID, "ch-opp")
    # it opens on a ladder of its first bot's game, offering that game's bots only
    assert ladder.first_selected_option.get_attribute("data-game") == "thebes"
    assert offered(bot) == ["my-digger (thebes)"]
    assert all("(thebes)" in o for o in offered(opponents)) and len(offered(opponents)) == 3

    ladder.select_by_value("minos-2p")
    assert offered(bot) == ["my-minoan (minos)"], "the suspended bot is never offered"
    assert offered(opponents) == ["their-minoan — rival (minos)"]
    assert browser.find_element(By.ID, "ch-opp-count").text == "choose 1"
    shots(browser, "challenge-form")
    found = violations(browser, axe_source)

    ladder.select_by_value("minos-1p")
    assert not browser.find_element(By.ID, "ch-opp-p").is_displayed()
    assert "Rhadamanthus" in browser.find_element(By.ID, "ch-solo").text
    browser.find_element(By.CSS_SELECTOR, "form[data-challenge] button[type=submit]").click()
    link = wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "form[data-challenge] output a"))[0]
    match = Match.objects.get(pk=int(link.get_attribute("href").rstrip("/").rsplit("/", 1)[1]))
    assert match.game == "minos" and match.params["players"] == 1
    assert [p.bot_id for p in match.participants.all()] == [mine_minos.pk]

    # a refused notification form: the error as an error, the form as it was typed
    browser.get(f"{live_server.url}/me/")
    field = browser.find_element(By.ID, "notify-webhook")
    field.send_keys("http://127.0.0.1:9/hook")
    field.submit()
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, ".messages li.error"))
    assert browser.find_element(By.ID, "notify-webhook").get_attribute("value") == "http://127.0.0.1:9/hook"
    color = browser.find_element(By.CSS_SELECTOR, ".messages li.error").value_of_css_property("background-color")
    assert color == "rgba(251, 234, 234, 1)", "an error is not shown in a success's green"
    browser.execute_script("document.getElementById('notify-h').scrollIntoView()")
    shots(browser, "notification-error")
    found += violations(browser, axe_source)
    assert not found, found


def test_changed_pages_read_well_at_both_widths(browser, live_server, make_user, world, axe_source):  # noqa: F811
    from django.core.management import call_command

    from matches.models import Match
    from matches.services import create_match, record_result
    from teams import services as teams

    call_command("ensure_ladders", verbosity=0)
    owner = make_user("soloist")
    bot = make_bot(owner, "minoan", game="minos")
    replay = replays.of_selfplay(games.load("minos", players=1), 3, [games.policies("minos")["greedy"]()],
                                 [random.Random(3)], ["minoan v1"])
    match = create_match(game="minos", params={"players": 1}, time_control={}, versions=[bot.active_version_id],
                         kind=Match.Kind.CHALLENGE, rated=False, queue=False)
    record_result(match.pk, replay["result"])
    _, key = teams.invite_link(teams.create_team(owner, "Blue Owls"), owner)
    running = create_match(game="thebes", params={"players": 2}, time_control={}, queue=False, rated=False,
                           versions=[world["versions"][0].pk, world["versions"][1].pk])

    found = {}
    browser.delete_all_cookies()
    for name, path in [("thebes-rules", "/games/thebes/"), ("minos-rules", "/games/minos/"),
                       ("minos-developers", "/games/minos/developers/"), ("matches", "/matches/"),
                       ("ladders", "/ladders/"), ("ladder", "/ladders/thebes-4p/"),
                       ("search", "/search/?q=digger"), ("matches-by-name", "/matches/?bot=digger1"),
                       ("queued-match", f"/matches/{running.pk}/"), ("login-invitation", f"/teams/join/{key}/")]:
        browser.get(f"{live_server.url}{path}")
        if v := violations(browser, axe_source):
            found[path] = v
        shots(browser, name)
    page = browser.page_source
    assert "see your team invitation" in page
    browser.get(f"{live_server.url}/matches/")
    assert "Rhadamanthus" in browser.page_source
    assert not found, found
