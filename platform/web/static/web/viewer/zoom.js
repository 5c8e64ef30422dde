// A board drawn in a box narrower than its own width (the renderers draw 1000 units wide, their smallest text
// 11 units): fitted to the box its text shrinks below reading size (4–5 px on a 390 px phone). Zoomed, the
// board keeps one unit per CSS pixel and its box scrolls to pan (a focusable region, so keys scroll it too); a
// toggle button switches between that and the whole board fitted. Narrow boxes start zoomed; the reader's
// choice is remembered (localStorage). Used by the replay viewer and the rules pages' diagrams.

import { gettext } from "../i18n.js";

const KEY = "arena-board-zoom";
const READABLE = 0.9; // below this scale (text under ~10 px) the button is offered

function remembered() {
  try { return localStorage.getItem(KEY); } catch { return null; }
}

function remember(value) {
  try { localStorage.setItem(KEY, value); } catch { /* private mode: the choice lasts for this page */ }
}

// `name`: what the zoomed box is called to screen readers (a page with two boards needs two names). `scale`:
// CSS pixels per board unit when zoomed (the playing surface zooms further: its things are tap targets);
// `follow`: the zoom follows the box's width (zoomed when it turns narrow, fitted when it turns wide) until the
// reader chooses with the button.
export function boardZoom(wrap, button, board, name = gettext("Board"), { scale = 1, follow = false } = {}) {
  if (!wrap || !button || !board) return { refresh() {} };
  const width = () => ((board.viewBox && board.viewBox.baseVal && board.viewBox.baseVal.width) || 1000) * scale;
  const set = (zoomed) => {
    wrap.classList.toggle("zoomed", zoomed);
    wrap.style.setProperty("--board-w", `${width()}px`);
    button.setAttribute("aria-pressed", zoomed ? "true" : "false");
    button.textContent = zoomed ? gettext("Fit the board to the screen") : gettext("Zoom the board");
    if (zoomed) {
      wrap.setAttribute("role", "region");
      wrap.setAttribute("aria-label", `${name} — ${gettext("zoomed: scroll to pan")}`);
      wrap.tabIndex = 0;
    } else {
      wrap.removeAttribute("role");
      wrap.removeAttribute("aria-label");
      wrap.removeAttribute("tabindex");
    }
  };
  const narrow = () => wrap.clientWidth > 0 && wrap.clientWidth < width() / scale * READABLE;
  let chosen = false; // the reader pressed the button on this page
  const refresh = () => {
    const zoomed = wrap.classList.contains("zoomed");
    if (follow && !chosen && narrow() !== zoomed && (zoomed || remembered() !== "fit")) set(!zoomed);
    const offer = narrow() || wrap.classList.contains("zoomed") && wrap.clientWidth < width();
    button.hidden = !offer;
    if (!offer && wrap.classList.contains("zoomed")) set(false);
  };
  button.addEventListener("click", () => {
    const zoomed = !wrap.classList.contains("zoomed");
    chosen = true;
    set(zoomed);
    remember(zoomed ? "zoom" : "fit");
  });
  if (narrow()) set(remembered() !== "fit");
  refresh();
  if (window.ResizeObserver) new ResizeObserver(refresh).observe(wrap.parentElement || wrap);
  return { refresh };
}
