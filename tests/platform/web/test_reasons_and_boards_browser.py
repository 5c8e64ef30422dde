"""A Chinese and a Portuguese reader in headless Chromium, at 1366 and 390 px: the Thebes and Minos boards' own
labels and tooltips (cards, bags, piles, dice, regions) are in the page's language, a fault is told in it on the
match page and in the viewer, and the bot page of a version that failed its check says why in it; the bot page's
tables (head-to-head, recent matches) never make the page scroll sideways, and axe finds no violation.
Screenshots go to test-artifacts/lang/ (<language>-<width>-<page>.png) for a person to look at."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.platform.web.conftest import finished_match, wait
from tests.platform.web.test_accessibility_browser import axe_source  # noqa: F401 (a fixture)
from tests.platform.web.test_languages_browser import layout_problems

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True), pytest.mark.timeout(900)]

ARTIFACTS = Path(__file__).resolve().parents[3] / "test-artifacts" / "lang"
ILLEGAL = "answered 'dig:atlantis', which is not the text of a legal action (legal are e.g. 'pass', 'dig:greece')"
#: English the boards used to draw, and what each language says instead
BOARD_ENGLISH = re.compile(r"\b(tokens in the bag|Draw pile|Stack 3|slot [abc]|small|large|Exhibition|weeks|"
                           r"Region \d|(red|blue|yellow|grey|white) die|Decks:|Goods:|cards in its deck|week \d|/ turn)\b")
#: the bot page's own words that were English in every language
BOT_PAGE_ENGLISH = ["Rating of each version", "not fitted yet", "Playing version", "Not playing", " ago", "Validate v",
                    "Average rank (digger", "failed", "ready"]
#: ("pts" is Portuguese too)
POINTS = re.compile(r"\d pts\b")
SAID = {"pt-br": {"fault": "respondeu 'dig:atlantis', que não é o texto de uma ação legal",
                  "kind": "ação ilegal", "reason": "o bot.toml não lista o jogo thebes; o bot caiu na partida de teste",
                  "thebes": "fichas no saco", "minos": "Região"},
        "zh-hans": {"fault": "回答了 'dig:atlantis'，这不是合法行动的文本", "kind": "非法行动",
                    "reason": "bot.toml 没有列出游戏 thebes；机器人在冒烟测试比赛中崩溃",
                    "thebes": "袋中", "minos": "区域"}}


def _board_words(browser) -> str:
    """Every text and tooltip the board and the players' panel draw."""
    return browser.execute_script(
        "return [...document.querySelectorAll('[data-board] text, [data-board] title, [data-players] *')]"
        ".map(e => e.childElementCount ? (e.getAttribute('title') || '') : e.textContent + ' ' +"
        " (e.getAttribute('title') || '')).join(' | ')")


def _check(browser, axe_source, language: str, name: str, width: int, found: dict) -> None:  # noqa: F811
    problems = layout_problems(browser, axe_source, ARTIFACTS / f"{language}-{width}-{name}.png")
    if problems:
        found[f"{language} {width}px {name}"] = problems


def test_boards_faults_and_reasons_speak_the_readers_language(browser, live_server, world, settings,
                                                              axe_source):  # noqa: F811
    from arena import replay as replays
    from arena.reasons import Reason
    from botregistry.models import BotVersion
    from botregistry.services import mark_validated
    from matches.models import Participant

    browser.set_script_timeout(60)
    match = world["match"]  # Thebes, 4 players: seat 2 answered an illegal action at decision 12 (frame 13)
    Participant.objects.filter(match=match, seat=2).update(
        faults=[{"kind": "illegal", "message": ILLEGAL, "decision": 12}])
    replay = world["replay"]
    replay["decisions"][12]["fault"] = {"kind": "illegal", "message": ILLEGAL}
    replays.write(settings.STORAGE_DIR / match.replay_path, replay)
    minos = finished_match(world, settings, "minos", 3, seed=33)
    bot = world["bots"][2]  # plays in the world's matches: its page has head-to-head and recent matches
    failed = BotVersion.objects.create(bot=bot, number=2, status=BotVersion.Status.VALIDATING, sha256="e" * 64,
                                       package_dir="x")
    mark_validated(failed, False, [Reason("check.game_not_listed", {"game": "thebes"}), Reason("check.crash")], "")

    found: dict[str, list[str]] = {}
    browser.get(live_server.url + "/")
    for language in ("pt-br", "zh-hans"):
        browser.add_cookie({"name": "arena_language", "value": language, "path": "/"})
        said = SAID[language]
        for width, height in ((1366, 900), (390, 844)):
            browser.set_window_size(width, height)
            browser.get(f"{live_server.url}/matches/{match.pk}/#turn=13")
            wait(browser, lambda d: d.execute_script(
                "return document.querySelector('[data-viewer]').dataset.ready === '1'"), timeout=60)
            page = browser.execute_script("return document.body.innerText")
            status = browser.execute_script("return document.querySelector('[data-status]').textContent")
            if said["fault"] not in status or said["kind"] not in status:
                found[f"{language} {width}px viewer fault"] = [status[:400]]
            if said["fault"] not in page:
                found[f"{language} {width}px seats table fault"] = ["the seats table does not tell the fault"]
            words = _board_words(browser)
            english = BOARD_ENGLISH.findall(words) + (POINTS.findall(words) if language == "zh-hans" else [])
            if said["thebes"] not in words or english:
                found[f"{language} {width}px thebes board"] = [str(english[:10])]
            _check(browser, axe_source, language, "replay-thebes", width, found)
            browser.execute_script("document.querySelector('[data-board]').scrollIntoView()")  # the board, to look at
            browser.save_screenshot(str(ARTIFACTS / f"{language}-{width}-replay-thebes-board.png"))

            browser.get(f"{live_server.url}/matches/{minos['match'].pk}/#turn=30")
            wait(browser, lambda d: d.execute_script(
                "return document.querySelector('[data-viewer]').dataset.ready === '1'"), timeout=60)
            words = _board_words(browser)
            if said["minos"] not in words or BOARD_ENGLISH.search(words):
                found[f"{language} {width}px minos board"] = [str(BOARD_ENGLISH.findall(words)[:10])]
            _check(browser, axe_source, language, "replay-minos", width, found)
            browser.execute_script("document.querySelector('[data-board]').scrollIntoView()")
            browser.save_screenshot(str(ARTIFACTS / f"{language}-{width}-replay-minos-board.png"))

            browser.get(f"{live_server.url}/bots/{bot.pk}/")
            text = browser.execute_script("return document.body.innerText")
            if said["reason"] not in text:
                found[f"{language} {width}px bot reason"] = ["the bot page does not tell the reason"]
            left = [w for w in BOT_PAGE_ENGLISH if w in text]
            if left:
                found[f"{language} {width}px bot English"] = left
            _check(browser, axe_source, language, "bot", width, found)
            browser.execute_script("document.getElementById('h2h-h').scrollIntoView()")  # its widest tables
            _check(browser, axe_source, language, "bot-tables", width, found)
    assert found == {}, found
