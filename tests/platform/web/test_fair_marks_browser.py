"""What issue 21 shows users, in headless Chromium, screenshot and checked by axe: the owner's "Resume" button on a
version suspended for faults (the reason names them; one click makes it ready again, without an upload), and the
marks of a disqualified seat — "disqualified" in the seats table, its turns read as the referee's substitute moves
in the viewer's log and status line. Screenshots: test-artifacts/fair-*.png."""

from __future__ import annotations

from datetime import timedelta

import pytest
from platform_helpers import make_bot

from arena import replay as replays
from tests.platform.web.conftest import wait
from tests.platform.web.test_accessibility_browser import axe_source, violations  # noqa: F401  (a fixture)
from tests.platform.web.test_spectator_browser import ARTIFACTS, DESKTOP, PHONE, open_viewer, show

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

STARTUP = [{"kind": "startup", "message": "the bot did not start within its 10000 ms of CPU", "decision": None},
           {"kind": "disqualified", "message": "never served", "decision": None}]


def _log_in(browser, live_server, name: str) -> None:
    from selenium.webdriver.common.by import By

    browser.delete_all_cookies()
    browser.get(f"{live_server.url}/login/")
    browser.find_element(By.ID, "id_username").send_keys(name)
    browser.find_element(By.ID, "id_password").send_keys("pw-123456789")
    browser.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
    wait(browser, lambda d: d.current_url.endswith("/me/"))


def test_the_owner_resumes_a_version_suspended_for_faults(browser, live_server, axe_source):  # noqa: F811
    from django.contrib.auth import get_user_model
    from django.utils import timezone
    from selenium.webdriver.common.by import By

    from botregistry.models import BotVersion
    from matches.models import Match, Participant
    from matches.suspension import check_suspension

    owner = get_user_model().objects.create_user("unlucky", "", "pw-123456789")
    bot = make_bot(owner, "unlucky-digger")
    other = make_bot(get_user_model().objects.create_user("rival", "", "pw-123456789"), "rival-digger")
    now = timezone.now()
    for i in range(6):  # six start-up faults in six matches: the rule suspends it, naming them
        m = Match.objects.create(game="thebes", seed=i, status=Match.Status.FINISHED, params={"players": 2},
                                 finished_at=now - timedelta(minutes=10 - i), started_at=now - timedelta(minutes=11))
        Participant.objects.create(match=m, seat=0, bot=bot, version=bot.active_version, rank=2, score=0,
                                   disqualified=True, faults=STARTUP)
        Participant.objects.create(match=m, seat=1, bot=other, version=other.active_version, rank=1, score=5)
    version = BotVersion.objects.get(pk=bot.active_version_id)
    assert check_suspension(version)
    version.refresh_from_db()
    assert version.status == "suspended" and "failed to start in 6" in version.status_reason

    _log_in(browser, live_server, "unlucky")
    for size, label in ((DESKTOP, "desktop"), (PHONE, "phone")):
        browser.set_window_size(*size)
        browser.get(f"{live_server.url}/bots/{bot.pk}/")
        button = browser.find_element(By.XPATH, "//button[normalize-space()='Resume v1']")
        row = button.find_element(By.XPATH, "ancestor::tr")
        assert "suspended" in row.text and "failed to start in 6" in row.text and "Resume v1" in row.text
        assert "suspended: suspended" not in browser.page_source
        assert button.is_displayed() and button.size["width"] > 0
        right = browser.execute_script("return arguments[0].getBoundingClientRect().right", button)
        assert right <= browser.execute_script("return document.documentElement.clientWidth") + 1, \
            "the button is inside the page's width"
        ARTIFACTS.mkdir(exist_ok=True)
        browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", row)
        row.find_element(By.XPATH, "ancestor::table").screenshot(str(ARTIFACTS / f"fair-resume-{label}.png"))
        assert violations(browser, axe_source) == []

    button = browser.find_element(By.XPATH, "//button[normalize-space()='Resume v1']")
    button.click()
    wait(browser, lambda d: not d.find_elements(By.XPATH, "//button[normalize-space()='Resume v1']"), timeout=20)
    version.refresh_from_db()
    assert version.status == "ready" and version.resumed_at is not None
    browser.find_element(By.XPATH, "//table[.//th]").screenshot(str(ARTIFACTS / "fair-resumed-phone.png"))


def test_a_disqualified_seat_is_marked_in_the_seats_table_and_its_turns_in_the_viewer(browser, live_server, world,
                                                                                   settings, axe_source):  # noqa: F811
    from matches.models import Participant

    m, replay = world["match"], world["replay"]
    res = replay["result"]["seats"][1]
    res["disqualified"] = True
    res["faults"] = [{"kind": "crash", "message": "the bot's process exited", "decision": 9, "turn": 10},
                     {"kind": "disqualified", "message": "crashed", "decision": 9, "turn": 10}]
    out = {i for i, d in enumerate(replay["decisions"]) if d["seat"] == 1 and i > 9 and not d["forced"]}
    for i, d in enumerate(replay["decisions"]):
        d["substitute"] = i in out or bool(d.get("fault"))
    replays.write(settings.STORAGE_DIR / m.replay_path, replay)
    Participant.objects.filter(match=m, seat=1).update(disqualified=True, faults=res["faults"])
    turn = min(out) + 1

    viewer = open_viewer(browser, f"{live_server.url}/matches/{m.pk}/", DESKTOP)
    show(browser, viewer, turn)
    status = browser.find_element("css selector", "[data-status]").text
    assert "substitute move" in status and "referee played" in status
    line = browser.execute_script(
        f"return document.querySelector('[data-log] li[data-turn=\"{turn}\"]').textContent")
    assert "substitute move" in line
    seats = browser.find_element("css selector", "table.seats")
    assert "disqualified" in seats.text.lower()
    ARTIFACTS.mkdir(exist_ok=True)
    browser.execute_script("arguments[0].scrollIntoView()", seats)
    seats.screenshot(str(ARTIFACTS / "fair-seats-disqualified.png"))
    browser.execute_script("arguments[0].scrollIntoView()", viewer)
    browser.set_window_size(DESKTOP[0], 1400)
    viewer.screenshot(str(ARTIFACTS / "fair-viewer-substitute.png"))
    assert violations(browser, axe_source) == []

    browser.get(f"{live_server.url}/matches/")  # the match list marks the match
    row = browser.find_element("xpath", f"//tr[.//a[contains(@href, '/matches/{m.pk}/')]]")
    assert "disqualified" in row.text.lower(), row.text
    row.screenshot(str(ARTIFACTS / "fair-match-list-row.png"))
    assert violations(browser, axe_source) == []
