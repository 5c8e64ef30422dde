"""In headless Chromium: the board can be read on a phone, a replay's turn can be shared, and the rules pages show
the table as the viewer draws it.

- At 390 px the viewer's board starts zoomed (one board unit per CSS pixel, panned by scrolling), so its smallest
  text measures ≥ 11 px on screen; "Fit the board to the screen" shows the whole board and is remembered.
- "Copy link to this turn" announces the copy (a status line) and the link opens the replay at that turn.
- /games/thebes/ and /games/minos/ draw an example game's table with the viewer's renderer (start and half way).
Every page checked with axe; screenshots at 1366 and 390 px under test-artifacts/."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.platform.web.conftest import finished_match, wait
from tests.platform.web.test_accessibility_browser import axe_source, violations  # noqa: F401 (a fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[3] / "test-artifacts"

# the smallest on-screen size of the text of the board(s) in `root`, in CSS pixels: font size × the SVG's scale
SMALLEST_TEXT = """
    const root = arguments[0];
    let smallest = Infinity;
    for (const svg of root.querySelectorAll('svg[data-board]')) {
      const scale = svg.getScreenCTM().a;
      for (const t of svg.querySelectorAll('text')) {
        const size = parseFloat(t.getAttribute('font-size') || getComputedStyle(t).fontSize);
        if (size > 0) smallest = Math.min(smallest, size * scale);
      }
    }
    return smallest;
"""


def _open_viewer(browser, url: str) -> None:
    browser.get(url)
    wait(browser, lambda d: d.execute_script(
        "const v = document.querySelector('[data-viewer]'); return v.dataset.ready === '1' || !!v.dataset.error"))
    assert browser.execute_script("return document.querySelector('[data-viewer]').dataset.error || null") is None


@pytest.mark.parametrize("game,players,seed", [("thebes", 4, 5), ("minos", 2, 4)])
def test_the_board_reads_on_a_phone_and_a_turn_can_be_shared(browser, live_server, world, settings,
                                                              axe_source, game, players, seed):  # noqa: F811
    from selenium.webdriver.common.by import By

    ARTIFACTS.mkdir(exist_ok=True)
    m = finished_match(world, settings, game, players, seed)["match"]
    url = f"{live_server.url}/matches/{m.pk}/"
    try:
        browser.set_window_size(390, 844)
        browser.get(f"{live_server.url}/")
        browser.execute_script("localStorage.clear()")
        _open_viewer(browser, url)
        viewer = browser.find_element(By.CSS_SELECTOR, "[data-viewer]")
        wrap = viewer.find_element(By.CSS_SELECTOR, "[data-board-wrap]")
        zoom = viewer.find_element(By.CSS_SELECTOR, "[data-act=zoom]")
        assert "zoomed" in wrap.get_attribute("class") and zoom.is_displayed()
        assert browser.execute_script(SMALLEST_TEXT, viewer) >= 10.9
        # the board pans inside its box; the page itself does not scroll sideways
        assert browser.execute_script("return arguments[0].scrollWidth > arguments[0].clientWidth", wrap)
        assert browser.execute_script("return document.documentElement.scrollWidth") <= 390
        assert wrap.get_attribute("tabindex") == "0" and wrap.get_attribute("role") == "region"
        browser.execute_script("arguments[0].scrollIntoView(); arguments[0].scrollLeft = 300", wrap)
        browser.save_screenshot(str(ARTIFACTS / f"viewer-{game}-390-zoomed.png"))
        assert violations(browser, axe_source) == []

        zoom.click()  # the whole board, fitted: remembered for the next replay
        assert "zoomed" not in wrap.get_attribute("class") and zoom.get_attribute("aria-pressed") == "false"
        assert browser.execute_script("return arguments[0].scrollWidth <= arguments[0].clientWidth + 1", wrap)
        browser.execute_script("arguments[0].scrollIntoView()", wrap)
        browser.save_screenshot(str(ARTIFACTS / f"viewer-{game}-390-fitted.png"))
        _open_viewer(browser, url)
        assert "zoomed" not in browser.find_element(By.CSS_SELECTOR, "[data-board-wrap]").get_attribute("class")
        browser.execute_script("localStorage.clear()")

        # a wide screen: the board is drawn at ≥ 1 px a unit, nothing to zoom
        browser.set_window_size(1366, 900)
        _open_viewer(browser, url)
        viewer = browser.find_element(By.CSS_SELECTOR, "[data-viewer]")
        assert not viewer.find_element(By.CSS_SELECTOR, "[data-act=zoom]").is_displayed()
        assert browser.execute_script(SMALLEST_TEXT, viewer) >= 10.9

        # copy a link to turn 7: announced, and the link opens the replay there
        for _ in range(7):
            viewer.find_element(By.CSS_SELECTOR, "[data-act=next]").click()
        viewer.find_element(By.CSS_SELECTOR, "[data-act=copy-link]").click()
        wait(browser, lambda d: d.execute_script("return document.querySelector('[data-viewer]').dataset.copiedUrl"))
        link = browser.execute_script("return document.querySelector('[data-viewer]').dataset.copiedUrl")
        announced = viewer.find_element(By.CSS_SELECTOR, "[data-copied]")
        assert announced.get_attribute("role") == "status"
        # copied to the clipboard ("Link to turn 7 copied.") or, where the browser refuses, shown to copy by hand
        text = announced.text or announced.find_element(By.CSS_SELECTOR, "input").get_attribute("value")
        assert "7" in text
        assert link == f"{url}#turn=7"
        browser.save_screenshot(str(ARTIFACTS / f"viewer-{game}-1366-copied.png"))
        assert violations(browser, axe_source) == []
        browser.get(f"{live_server.url}/")
        _open_viewer(browser, link)
        assert browser.execute_script("return document.querySelector('[data-viewer]').dataset.index") == "7"
    finally:
        browser.set_window_size(1280, 1000)


@pytest.mark.parametrize("game", ["thebes", "minos"])
def test_the_rules_pages_show_the_table_as_the_viewer_draws_it(browser, live_server, world, axe_source, game):  # noqa: F811
    from selenium.webdriver.common.by import By

    ARTIFACTS.mkdir(exist_ok=True)
    try:
        for width in (1366, 390):
            browser.set_window_size(width, 900)
            browser.get(f"{live_server.url}/games/{game}/")
            wait(browser, lambda d: d.execute_script(
                "return [...document.querySelectorAll('[data-diagram]')].every(f => f.dataset.ready || f.dataset.error)"),
                timeout=30)
            figures = browser.find_elements(By.CSS_SELECTOR, "[data-diagram]")
            assert len(figures) == 2
            for fig in figures:
                assert fig.get_attribute("data-error") is None
                assert fig.is_displayed()
                # the renderer drew the board: many labelled shapes, its text readable at this width (zoomed
                # on a phone)
                assert len(fig.find_elements(By.CSS_SELECTOR, "svg[data-board] text")) > 20
                assert browser.execute_script(SMALLEST_TEXT, fig) >= 10.9
            # the half-way picture says what its turn did, in the narration's words
            assert "Turn " in figures[1].find_element(By.CSS_SELECTOR, "[data-turn-text]").text
            assert browser.execute_script("return document.documentElement.scrollWidth") <= width
            browser.execute_script("arguments[0].scrollIntoView()", figures[0])
            browser.save_screenshot(str(ARTIFACTS / f"rules-{game}-{width}.png"))
            assert violations(browser, axe_source) == []
    finally:
        browser.set_window_size(1280, 1000)


def test_the_example_game_is_404_for_an_unknown_game(client, db):
    assert client.get("/games/chess/example.json").status_code == 404
    resp = client.get("/games/thebes/example.json")
    assert resp.status_code == 200 and resp.json()["frames"][0]["index"] == 0
