"""The site in each language in headless Chromium, at 1366 and 390 px: the main pages, a Thebes 4-player and a
Minos 3-player replay (its story told in the page's language) and the sign-up page. On each: `<html lang>` is the
language's, no English is left of the site's own words, nothing overflows the page's width, and axe finds no
violation. Screenshots go to test-artifacts/i18n/ (<language>-<width>-<page>.png) for a person to look at."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.platform.web.conftest import finished_match, wait
from tests.platform.web.test_accessibility_browser import axe_source, violations  # noqa: F401, F811 (a fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True), pytest.mark.timeout(900)]

ARTIFACTS = Path(__file__).resolve().parents[3] / "test-artifacts" / "i18n"
TAGS = {"en": "en", "pt-br": "pt-BR", "zh-hans": "zh-Hans"}
#: words of the site's own that must not be left in English on a translated page (names, codes and the words
#: Portuguese keeps, like "ladder", "bot" and "replay", are not among them)
ENGLISH = {"pt-br": ["Matches", "Log in", "Sign up", "Recent matches", "What happened", "Score by turn",
                     "End of the game", "Loading the replay", "Tournaments", "Search bots"],
           "zh-hans": ["Matches", "Log in", "Sign up", "Recent matches", "What happened", "Score by turn",
                       "End of the game", "Loading the replay", "Tournaments", "Ladders", "Replay", "Rating",
                       "Search bots"]}
#: a word the story of each game says in each language (the seeds' terms)
STORY = {("thebes", "en"): "travels", ("thebes", "pt-br"): "viaja", ("thebes", "zh-hans"): "前往",
         ("minos", "en"): "places the", ("minos", "pt-br"): "aloca o dado", ("minos", "zh-hans"): "骰子"}


def layout_problems(browser, axe_source: str, screenshot: Path) -> list[str]:  # noqa: F811 (the fixture's value)
    """What is wrong with the page as shown: wider than the window, axe's violations; a screenshot is saved to
    `screenshot` for a person to look at."""
    problems = []
    overflow = browser.execute_script(
        "return document.documentElement.scrollWidth - document.documentElement.clientWidth")
    if overflow > 1:
        problems.append(f"the page is {overflow} px wider than the window")
    problems += [f"axe: {v['id']} {v['nodes']}" for v in violations(browser, axe_source)]
    screenshot.parent.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(screenshot))
    return problems


def _check(browser, axe_source,  # noqa: F811 (the fixture's value)
            language: str, name: str, width: int, found: dict) -> None:
    tag = browser.execute_script("return document.documentElement.lang")
    problems = []
    if tag != TAGS[language]:
        problems.append(f"html lang {tag!r}")
    text = browser.execute_script("return document.body.innerText")
    problems += [f"English left: {w!r}" for w in ENGLISH.get(language, []) if w in text]
    problems += layout_problems(browser, axe_source, ARTIFACTS / f"{language}-{width}-{name}.png")
    if problems:
        found[f"{language} {width}px {name}"] = problems


@pytest.mark.parametrize("language", ["en", "pt-br", "zh-hans"])
def test_each_language_reads_whole_and_fits_at_1366_and_390(browser, live_server, world, settings, axe_source,  # noqa: F811
                                                            language):
    browser.set_script_timeout(60)
    thebes = finished_match(world, settings, "thebes", 4, seed=21)
    minos = finished_match(world, settings, "minos", 3, seed=33)
    browser.get(live_server.url + "/")
    browser.add_cookie({"name": "arena_language", "value": language, "path": "/"})
    found: dict[str, list[str]] = {}
    for width, height in ((1366, 900), (390, 844)):
        browser.set_window_size(width, height)
        for name, path in (("home", "/"), ("matches", "/matches/"), ("ladder", "/ladders/thebes-4p/"),
                           ("game-thebes", "/games/thebes/"), ("game-minos", "/games/minos/"),
                           ("signup", "/signup/"), ("tournaments", "/tournaments/")):
            browser.get(live_server.url + path)
            _check(browser, axe_source, language, name, width, found)
        for game, m in (("thebes", thebes["match"]), ("minos", minos["match"])):
            browser.get(f"{live_server.url}/matches/{m.pk}/#turn=40")
            wait(browser, lambda d: d.execute_script(
                "return document.querySelector('[data-viewer]').dataset.ready === '1'"), timeout=60)
            log = browser.execute_script("return document.querySelector('[data-log]').textContent")
            if STORY[(game, language)] not in log:
                found[f"{language} {width}px {game} story"] = [f"the story does not say {STORY[(game, language)]!r}"]
            _check(browser, axe_source, language, f"replay-{game}", width, found)
            browser.execute_script(
                "const v = document.querySelector('[data-viewer]'); v.viewer.show(v.viewer.frames.length - 1)")
            browser.execute_script("document.querySelector('[data-end]').scrollIntoView()")
            _check(browser, axe_source, language, f"replay-{game}-end", width, found)
    assert found == {}, found
