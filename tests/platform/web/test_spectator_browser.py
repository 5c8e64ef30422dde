"""The replay viewer as a spectator uses it, in headless Chromium (Debian's chromium + chromedriver, Selenium):
every region and panel of the board inside the board (element boxes) at 1366 px and on a 390 px phone for each
player count, SVG text of at least 11 px at 1366 px, the narrated event log (the action of each of the first 20
turns by name), the score chart (one series per seat), skipping by chapter, timeline markers, and playback at
the highest speed reaching the end screen. Screenshots of each state go to test-artifacts/."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.platform.web.conftest import finished_match, wait

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[3] / "test-artifacts"
DESKTOP = (1366, 900)
PHONE = (390, 844)

# What the log line of a decision must say, by the action's first word (Thebes) or kind (Minos).
THEBES_WORDS = {"take": "takes", "dig": "digs in", "exchange": "exchanges the display", "exhibit": "exhibition",
                "retire": "retires"}
MINOS_WORDS = {
    "pick": "chooses", "start": "starts in", "keep": "keeps", "palace": "into the palace", "draft": "places the",
    "groups": "advance", "retrieve": "takes back", "bonus": "slot bonus", "trait": "Royal Trait",
    "main": "main action", "end": "ends the turn", "extra": "", "offer": "offer card", "deck": "draws",
    "play": "plays", "farm": "builds a farm", "city": "builds a city", "tower": "builds a tower",
    "ship": "ship", "step": "ship", "recruit": "recruits", "deploy": "deploys", "march": "marches",
    "good": "takes", "track": "advances on", "tile": "trade tile", "stop": "is done", "move": "into the palace",
    "fight": "final combat", "decline": "declines",
}
EXTRA_WORDS = {"fight": "fights the Sea Peoples", "craft": "crafts", "barter": "barters"}

GEOMETRY = """
const v = document.querySelector('[data-viewer]');
const board = v.querySelector('[data-board]');
const bb = board.getBoundingClientRect();
const inside = (r, o) => (r.width === 0 && r.height === 0) || r.left >= o.left - 1 && r.right <= o.right + 1 && r.top >= o.top - 1 && r.bottom <= o.bottom + 1;
const name = (el) => el.getAttribute('class') + ' ' + (el.dataset.region || el.dataset.die || el.dataset.vase || el.dataset.card || el.dataset.place || el.textContent.slice(0, 30));
const out = {outside_board: [], outside_panel: [], small_text: [], regions: 0, dice: 0, vases: 0, offer: 0};
for (const el of board.querySelectorAll('g.region, g.panel, g.die, g.vase, g.offer-card, g.place, g.card, g.marker, g.pawn, text')) {
  if (!inside(el.getBoundingClientRect(), bb)) out.outside_board.push(name(el));
}
// each panel's pieces (and every text in it) inside the panel's frame; each region's text inside the region
for (const panel of board.querySelectorAll('g.panel')) {
  const frame = panel.querySelector('.panel-frame').getBoundingClientRect();
  for (const el of panel.querySelectorAll('g.region, g.die, g.vase, g.offer-card, text')) {
    if (!inside(el.getBoundingClientRect(), frame)) out.outside_panel.push(panel.dataset.panel + ': ' + name(el));
  }
}
for (const region of board.querySelectorAll('g.region')) {
  const frame = region.querySelector('.region-frame').getBoundingClientRect();
  for (const el of region.querySelectorAll('text, rect, path')) {
    if (!inside(el.getBoundingClientRect(), frame)) out.outside_panel.push('region ' + region.dataset.region + ': ' + name(el));
  }
}
for (const card of board.querySelectorAll('g.card, g.offer-card, g.vase')) {
  const frame = card.querySelector('rect').getBoundingClientRect();
  for (const t of card.querySelectorAll('text')) {
    if (!inside(t.getBoundingClientRect(), frame)) out.outside_panel.push('card ' + name(card) + ': ' + name(t));
  }
}
const scale = board.getScreenCTM().a;
for (const t of board.querySelectorAll('text')) {
  const px = parseFloat(t.getAttribute('font-size') || '16') * scale;
  if (px < 10.95) out.small_text.push(`${t.textContent.slice(0, 20)}: ${px.toFixed(1)} px`);
}
out.regions = board.querySelectorAll('g.region').length;
out.dice = board.querySelectorAll('g.die').length;
out.vases = board.querySelectorAll('g.vase').length;
out.offer = board.querySelectorAll('g.offer-card').length;
out.pageWidth = document.documentElement.scrollWidth;
const display = v.querySelector('[data-display]');
out.display = display ? display.getBoundingClientRect().right <= window.innerWidth + 1 : null;
return out;
"""


def state(driver) -> dict:
    return driver.execute_script("""
        const v = document.querySelector('[data-viewer]');
        const log = v.querySelector('[data-log]');
        return {index: Number(v.dataset.index), ready: v.dataset.ready, error: v.dataset.error || null,
                ended: v.dataset.ended, endVisible: !v.querySelector('[data-end]').hidden,
                series: v.querySelectorAll('[data-chart] .series').length,
                moments: v.querySelectorAll('[data-chart] .moment').length,
                marks: [...v.querySelectorAll('[data-marks] [data-mark]')].map(m => m.dataset.mark),
                current: (log.querySelector('li.current') || {}).dataset?.turn,
                chapter: v.querySelector('[data-chapter]').textContent,
                endRows: [...v.querySelectorAll('[data-end] tbody tr')].map(r => r.cells[0].textContent)};""")


def open_viewer(driver, url: str, size=DESKTOP):
    driver.set_window_size(*size)
    driver.get("about:blank")  # a new load even when only the #turn differs
    driver.get(url)
    wait(driver, lambda d: d.execute_script(
        "const v = document.querySelector('[data-viewer]'); return v && (v.dataset.ready === '1' || v.dataset.error)"),
        timeout=30)
    st = state(driver)
    assert st["error"] is None, st["error"]
    return driver.find_element("css selector", "[data-viewer]")


def log_lines(driver, upto: int) -> list[str]:
    return driver.execute_script(
        "return [...document.querySelectorAll('[data-log] > li')].slice(0, arguments[0] + 1)"
        ".map(li => li.querySelector('.log-line').textContent)", upto)


def show(driver, viewer, i: int) -> None:
    driver.execute_script("arguments[0].viewer.show(arguments[1])", viewer, i)


def play_to_the_end(driver, viewer, frames: int) -> dict:
    """Playback at the highest speed from shortly before the end: it stops on the end screen."""
    from selenium.webdriver.support.ui import Select

    Select(viewer.find_element("css selector", "[data-speed]")).select_by_index(-1 + len(
        viewer.find_elements("css selector", "[data-speed] option")))
    show(driver, viewer, max(0, frames - 25))
    viewer.find_element("css selector", "[data-act=play]").click()
    wait(driver, lambda d: state(d)["ended"] == "1", timeout=60)
    wait(driver, lambda d: d.find_element("css selector", "[data-act=play]").text == "Play", timeout=10)
    return state(driver)


def assert_fits(driver, *, text_check: bool) -> dict:
    geo = driver.execute_script(GEOMETRY)
    assert geo["outside_board"] == [], geo["outside_board"][:10]
    assert geo["outside_panel"] == [], geo["outside_panel"][:10]
    if text_check:
        assert geo["small_text"] == [], geo["small_text"][:10]
    return geo


def snap(driver, viewer, name: str) -> None:
    """A screenshot of the whole viewer: the window is made tall enough to hold it first."""
    width = driver.get_window_size()["width"]
    height = driver.execute_script("return arguments[0].getBoundingClientRect().height", viewer)
    driver.set_window_size(width, int(height) + 400)
    driver.execute_script("arguments[0].scrollIntoView()", viewer)
    ARTIFACTS.mkdir(exist_ok=True)
    viewer.screenshot(str(ARTIFACTS / name))
    driver.set_window_size(width, DESKTOP[1] if width >= DESKTOP[0] else PHONE[1])


def test_thebes_replay_tells_the_story(browser, live_server, world):
    from selenium.webdriver.common.by import By

    m, replay = world["match"], world["replay"]
    decisions = replay["decisions"]
    viewer = open_viewer(browser, f"{live_server.url}/matches/{m.pk}/")
    ARTIFACTS.mkdir(exist_ok=True)
    show(browser, viewer, 12)
    assert_fits(browser, text_check=True)

    lines = log_lines(browser, 20)
    assert lines[0].startswith("0") and "set up" in lines[0]
    for i, d in enumerate(decisions[:20], start=1):
        word = THEBES_WORDS[d["action"].split()[0]]
        assert word in lines[i], (i, d["action"], lines[i])
        assert f"digger{d['seat']} v1" in lines[i]
        if d["action"].startswith("take "):
            assert d["action"].split()[1] in lines[i], "the card taken is named"
    st = state(browser)
    assert st["series"] == 4 and st["current"] == "12"
    snap(browser, viewer, "viewer-thebes-4p-story.png")

    # clicking a log line jumps there; the chart's click jumps too; chapters skip by year
    browser.execute_script("document.querySelector('[data-log] li[data-turn=\"7\"] .log-line').click()")
    assert state(browser)["index"] == 7
    chart = viewer.find_element(By.CSS_SELECTOR, "[data-chart]")
    browser.execute_script("""const c = arguments[0], r = c.getBoundingClientRect();
        c.dispatchEvent(new MouseEvent('click', {clientX: r.right - 14, clientY: r.top + r.height / 2, bubbles: true}));""", chart)
    assert state(browser)["index"] >= len(decisions) - 2
    show(browser, viewer, 0)
    first_year = state(browser)["chapter"]
    viewer.find_element(By.CSS_SELECTOR, "[data-act=chapter-next]").click()
    st = state(browser)
    assert st["index"] > 0 and st["chapter"] != first_year
    viewer.find_element(By.CSS_SELECTOR, "[data-act=chapter-prev]").click()
    assert state(browser)["index"] == 0
    assert "scoring" in st["marks"], "the final scoring is marked on the timeline"
    assert "fault" in st["marks"], "the timed-out decision is marked on the timeline"
    browser.execute_script("document.querySelector('[data-marks] [data-mark=fault]').click()")
    assert state(browser)["index"] == 13
    assert "Fault (timeout)" in browser.execute_script(
        "return document.querySelector('[data-log] li[data-turn=\"13\"]').textContent")

    st = play_to_the_end(browser, viewer, len(decisions))
    assert st["endVisible"] and st["index"] == len(decisions)
    ranks = sorted(s["rank"] for s in replay["result"]["seats"])
    assert [int(r) for r in st["endRows"]] == ranks, "the end screen ranks the seats"
    snap(browser, viewer, "viewer-thebes-4p-end.png")

    open_viewer(browser, f"{live_server.url}/matches/{m.pk}/#turn=30", PHONE)
    assert state(browser)["index"] == 30, "a #turn link opens that turn"
    geo = assert_fits(browser, text_check=False)
    assert geo["pageWidth"] <= PHONE[0] + 2, "no sideways scroll of the page on a phone"
    assert geo["display"] is True, "the card display is readable without panning"
    snap(browser, browser.find_element("css selector", "[data-viewer]"), "viewer-thebes-4p-phone.png")
    browser.set_window_size(*DESKTOP)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_minos_board_fits_for_every_player_count(browser, live_server, world, settings, players):
    made = finished_match(world, settings, "minos", players, seed=20 + players)
    m, decisions = made["match"], made["replay"]["decisions"]
    viewer = open_viewer(browser, f"{live_server.url}/matches/{m.pk}/")
    regions = {1: 10, 2: 10, 3: 13, 4: 16}[players]
    ARTIFACTS.mkdir(exist_ok=True)
    for turn in (0, len(decisions) // 3, len(decisions) * 2 // 3, len(decisions)):
        show(browser, viewer, turn)
        geo = assert_fits(browser, text_check=True)
        assert geo["regions"] == regions and geo["vases"] == 3
        assert geo["dice"] == {1: 13, 2: 13, 3: 16, 4: 17}[players]
    show(browser, viewer, len(decisions) // 3)
    snap(browser, viewer, f"viewer-minos-{players}p.png")
    st = state(browser)
    assert st["series"] == (2 if players == 1 else players), "one series per seat (and Rhadamanthus in solo)"

    open_viewer(browser, f"{live_server.url}/matches/{m.pk}/#turn={len(decisions) // 3}", PHONE)
    geo = assert_fits(browser, text_check=False)
    assert geo["regions"] == regions
    assert geo["pageWidth"] <= PHONE[0] + 2 and geo["display"] is True
    snap(browser, browser.find_element("css selector", "[data-viewer]"), f"viewer-minos-{players}p-phone.png")
    browser.set_window_size(*DESKTOP)


def test_minos_4p_log_chart_and_playback(browser, live_server, world, settings):
    made = finished_match(world, settings, "minos", 4, seed=44)
    m, replay = made["match"], made["replay"]
    decisions = replay["decisions"]
    viewer = open_viewer(browser, f"{live_server.url}/matches/{m.pk}/")
    lines = log_lines(browser, 20)
    for i, d in enumerate(decisions[:20], start=1):
        kind, *args = d["action"].split(":")
        word = EXTRA_WORDS[args[0]] if kind == "extra" else MINOS_WORDS[kind]
        assert word in lines[i], (i, d["action"], lines[i])
        assert f"min4p{d['seat']} v1" in lines[i]
    st = state(browser)
    assert st["series"] == 4 and st["moments"] >= 2, "the scorings after rounds 2 and 4 (and the final one) are marked"
    # skipping by round
    show(browser, viewer, 0)
    viewer.find_element("css selector", "[data-act=chapter-next]").click()
    assert state(browser)["chapter"].startswith("round 1")
    viewer.find_element("css selector", "[data-act=chapter-next]").click()
    assert state(browser)["chapter"].startswith("round 2")
    viewer.find_element("css selector", "[data-act=era-next]").click()
    assert state(browser)["chapter"] == "round 3 (era II)", "skipping by era"
    viewer.find_element("css selector", "[data-act=era-prev]").click()
    assert state(browser)["index"] == 0, "back to the start of era I (the setup belongs to it)"
    show(browser, viewer, 60)
    snap(browser, viewer, "viewer-minos-4p-story.png")
    st = play_to_the_end(browser, viewer, len(decisions))
    assert st["endVisible"] and len(st["endRows"]) == 4
    follows = browser.execute_script("""const log = document.querySelector('[data-log]');
        const li = log.querySelector('li.current'), box = log.getBoundingClientRect(), r = li.getBoundingClientRect();
        return r.top >= box.top - 1 && r.top + 20 <= box.bottom;""")
    assert follows, "the log shows the current turn (at least its first line)"
    snap(browser, viewer, "viewer-minos-4p-end.png")
