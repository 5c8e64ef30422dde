"""Every page, the new ones included, checked with axe-core (Deque's accessibility engine, installed by
scripts/install-axe) in headless Chromium: no violation of any rule axe runs by default (WCAG 2 A/AA and best
practices), with the replay viewer loaded and at its end screen, and the owner's pages while logged in."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.platform.web.conftest import finished_match, wait

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[3]
AXE = ROOT / ".cache" / "axe-core" / "axe.min.js"


@pytest.fixture(scope="module")
def axe_source() -> str:
    if not AXE.exists():
        done = subprocess.run([str(ROOT / "scripts" / "install-axe")], capture_output=True, text=True, timeout=300, check=False)
        if done.returncode != 0 or not AXE.exists():
            pytest.skip(f"axe-core could not be installed: {done.stdout} {done.stderr}")
    return AXE.read_text(encoding="utf-8")


def violations(driver, axe_source: str) -> list[dict]:
    driver.execute_script(axe_source)
    result = driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        axe.run(document, {resultTypes: ['violations']}).then(r => done(JSON.stringify(r.violations)),
                                                              e => done(JSON.stringify([{id: 'axe-error', help: String(e), nodes: []}])));""")
    found = json.loads(result)
    return [{"id": v["id"], "help": v["help"], "nodes": [n.get("target") for n in v.get("nodes", [])][:5]}
            for v in found]


def test_every_page_has_no_axe_violation(browser, live_server, world, settings, round_robin, axe_source):
    from django.contrib.auth import get_user_model

    browser.set_script_timeout(60)
    browser.set_window_size(1366, 900)
    minos = finished_match(world, settings, "minos", 4, seed=44)
    bot = world["bots"][0]
    pages = ["/", "/ladders/", "/ladders/thebes-4p/", "/games/thebes/", "/games/minos/", "/matches/",
             "/matches/?game=thebes&status=finished", f"/matches/?bot={bot.pk}", "/matches/?status=nope",
             f"/bots/{bot.pk}/", f"/bots/{world['bots'][3].pk}/", "/users/owner0/", "/tournaments/",
             f"/tournaments/{round_robin['tournament'].pk}/", "/login/", "/signup/"]
    found = {}
    for path in pages:
        browser.get(live_server.url + path)
        v = violations(browser, axe_source)
        if v:
            found[path] = v
    for m in (world["match"], minos["match"]):
        for view in ("", "#turn=1"):
            browser.get(f"{live_server.url}/matches/{m.pk}/{view}")
            wait(browser, lambda d: d.execute_script("return document.querySelector('[data-viewer]').dataset.ready === '1'"),
                 timeout=30)
            browser.execute_script("const v = document.querySelector('[data-viewer]'); v.viewer.show(v.viewer.frames.length - 1)")
            v = violations(browser, axe_source)
            if v:
                found[f"/matches/{m.pk}/ (end screen)"] = v
    # the owner's pages, logged in through the form
    get_user_model().objects.filter(username="owner0").update(is_active=True)
    browser.get(live_server.url + "/login/")
    browser.find_element("id", "id_username").send_keys("owner0")
    browser.find_element("id", "id_password").send_keys("pw-123456789")
    browser.find_element("css selector", "form.form button[type=submit]").click()
    wait(browser, lambda d: "/login/" not in d.current_url)
    for path in ("/me/", "/me/delete/", "/users/owner0/", f"/bots/{bot.pk}/"):
        browser.get(live_server.url + path)
        v = violations(browser, axe_source)
        if v:
            found[f"{path} (logged in)"] = v
    assert found == {}, json.dumps(found, indent=1)[:4000]

    # the check itself works: an image without a text alternative is reported
    browser.execute_script("const i = document.createElement('img'); i.src = '/favicon.ico'; document.querySelector('main').append(i);")
    assert "image-alt" in [v["id"] for v in violations(browser, axe_source)]
