// Playing a seat (templates/web/_play_panel.html). The person's turn is pushed: the seat's own live stream
// (watch.js, web.watch) carries an event `turn` (the decision asked, its legal actions in words: `label`, `group`,
// `target`, `ends_turn`, web.play.in_words), which watch.js hands over as the DOM event `arena:turn`. The GET
// endpoint (…/play/?seat=N) is asked when the page opens (a closed tab that comes back resumes at the current
// decision) and every few seconds as a fallback. On the person's turn the legal actions are buttons grouped by
// kind, and the things on the board an action is about (a site, a card, a die, a region) are buttons too
// (focusable, Enter/Space); an action that ends the turn is confirmed in the page first. An answer is POSTed
// (…/play/ {seat, decision, action}). "Resign" (confirmed in the page first) POSTs …/play/resign/ {seat}: the seat
// is out, the others play on; the GET answers 410 from then on (a page reopened says so).

import { gettext, interpolate } from "../i18n.js";
import { boardZoom } from "./zoom.js";

// the fallback: the pushed turn normally arrives first
const POLL_MS = 3000;
// a group with more actions than this is folded (its actions are chosen from the board, or the list opened)
const LONG = 8;
const TARGETS = {
  place: (board, id) => board.querySelectorAll(`[data-place="${CSS.escape(id)}"]`),
  card: (board, id) => board.querySelectorAll(`[data-card="${CSS.escape(id)}"]`),
  die: (board, id) => board.querySelectorAll(`[data-die="${CSS.escape(id)}"]`),
  "die-face": (board, id) => board.querySelectorAll(`[data-die-face="${CSS.escape(id)}"]`),
  region: (board, id) => board.querySelectorAll(`[data-region="${CSS.escape(id)}"]`),
  offer: (board, id) => [...board.querySelectorAll(".offer-card")].slice(Number(id) - 1, Number(id)),
};
const SVG = "http://www.w3.org/2000/svg";
// On a narrow screen the board is zoomed to this many CSS px a board unit (its box scrolls to pan; zoom.js): the
// smallest thing chosen on it, a Minos die (26 units, its button 32), is then a 44 px tap target (WCAG 2.5.5,
// Apple's HIG). A board fitted to a 390 px phone would make it 12 px.
const PLAY_SCALE = 1.4;
const targetKey = (t) => (t ? `${t.kind}:${t.id}` : "");

export function play(root) {
  const url = root.dataset.playUrl;
  const seat = Number(root.dataset.seat);
  const status = root.querySelector("[data-play-status]");
  const clock = root.querySelector("[data-play-clock]");
  const actions = root.querySelector("[data-play-actions]");
  const error = root.querySelector("[data-play-error]");
  const confirmBox = root.querySelector("[data-play-confirm]");
  const csrf = root.querySelector("input[name=csrfmiddlewaretoken]").value;
  const watchRoot = root.closest("[data-live-watch]") || document;
  const board = watchRoot.querySelector("[data-board]");
  const wrap = board && board.closest(".viewer-board-wrap");
  if (wrap) {
    const zoom = document.createElement("button");
    zoom.type = "button";
    zoom.className = "viewer-zoom";
    zoom.dataset.playZoom = "";
    wrap.before(zoom);
    boardZoom(wrap, zoom, board, gettext("Board"), { scale: PLAY_SCALE, follow: true });
  }
  let current = null; // the decision shown
  // the last decision answered: a poll sent before the answer may still bring it back; it is never shown again
  let done = -1;
  let sending = false;
  let over = false;
  const resignArea = root.querySelector("[data-play-resign-area]");
  const resignButton = root.querySelector("[data-play-resign]");
  const resignConfirm = root.querySelector("[data-play-resign-confirm]");

  function showClock() {
    if (!current) { clock.textContent = ""; return; }
    const left = Math.max(0, Math.round(current.deadline - Date.now() / 1000));
    clock.textContent = interpolate(gettext("Time left: %(s)s s (this decision %(d)s s, bank %(b)s s)"),
      { s: left, d: Math.round(current.time_left.decision_ms / 1000), b: Math.round(current.time_left.bank_ms / 1000) }, true);
  }

  function waiting() {
    current = null;
    actions.replaceChildren();
    hideConfirm();
    clearTargets();
    root.dataset.turn = "";
    status.textContent = gettext("Waiting for the other seats…");
    showClock();
  }

  // ---------------------------------------------------------------------------------------- the confirmation
  function hideConfirm() {
    confirmBox.hidden = true;
    confirmBox.replaceChildren();
  }
  function choose(a) {
    if (!current) return;
    if (!a.ends_turn) { answer(current.decision, a.text); return; }
    const decision = current.decision;
    const yes = document.createElement("button");
    yes.type = "button";
    yes.className = "primary";
    yes.dataset.confirm = "yes";
    yes.textContent = gettext("Confirm");
    yes.addEventListener("click", () => { hideConfirm(); answer(decision, a.text); });
    const no = document.createElement("button");
    no.type = "button";
    no.dataset.confirm = "no";
    no.textContent = gettext("Cancel");
    no.addEventListener("click", () => { hideConfirm(); status.textContent = gettext("Your turn: choose an action."); });
    const p = document.createElement("p");
    p.textContent = interpolate(gettext("End your turn with “%(action)s”?"), { action: a.label }, true);
    confirmBox.replaceChildren(p, yes, " ", no);
    confirmBox.hidden = false;
    yes.focus({ preventScroll: false });
  }

  // ------------------------------------------------------------------------------------------- the actions
  function button(a) {
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.action = a.text;
    if (a.target) b.dataset.target = targetKey(a.target);
    b.append(a.label);
    if (a.label !== a.text) {
      const code = document.createElement("code");
      code.className = "play-code";
      code.textContent = a.text; // the protocol's text, for bot authors (secondary)
      b.append(" ", code);
    }
    b.addEventListener("click", () => choose(a));
    return b;
  }

  let shownAt = 0;
  function showTurn(turn) {
    current = turn;
    shownAt = performance.now();
    root.dataset.turn = String(turn.decision);
    error.hidden = true;
    hideConfirm();
    status.textContent = gettext("Your turn: choose an action.");
    const groups = new Map();
    for (const a of turn.legal) {
      const g = a.group || a.kind;
      if (!groups.has(g)) groups.set(g, []);
      groups.get(g).push(a);
    }
    const parts = [];
    for (const [group, list] of groups) {
      const fieldset = document.createElement("fieldset");
      const legend = document.createElement("legend");
      legend.textContent = group;
      fieldset.append(legend);
      if (list.length > LONG) {
        // a long list (Minos' dice × actions) folds away: the board's things choose among it, or it opens
        const more = document.createElement("details");
        const summary = document.createElement("summary");
        summary.textContent = interpolate(gettext("All %(n)s choices (or choose on the board)"), { n: list.length }, true);
        more.append(summary, ...list.map(button));
        fieldset.append(more);
      } else {
        fieldset.append(...list.map(button));
      }
      parts.push(fieldset);
    }
    actions.replaceChildren(...parts);
    markTargets();
    bringTargetsIntoView();
    const first = actions.querySelector("button");
    if (first && !root.contains(document.activeElement)) first.focus({ preventScroll: true });
    showClock();
  }

  // ------------------------------------------------------------------------------ the board's things, chosen
  // each thing an action is about gets a button drawn over it (a rect of its size: the thing's own drawing keeps
  // its texts, the button's name is the action's words)
  function clearTargets() {
    if (!board) return;
    for (const layer of board.querySelectorAll("[data-play-hits]")) layer.remove();
    if (board.dataset.role) { board.setAttribute("role", board.dataset.role); delete board.dataset.role; }
  }

  function markTargets() {
    if (!board) return;
    clearTargets();
    if (!current) return;
    const byTarget = new Map();
    for (const a of current.legal) {
      if (!a.target || !TARGETS[a.target.kind]) continue;
      const k = targetKey(a.target);
      if (!byTarget.has(k)) byTarget.set(k, { target: a.target, list: [] });
      byTarget.get(k).list.push(a);
    }
    if (!byTarget.size) return;
    const layer = document.createElementNS(SVG, "g");
    layer.setAttribute("class", "play-hits");
    layer.dataset.playHits = "";
    for (const [k, { target, list }] of byTarget) {
      for (const el of TARGETS[target.kind](board, target.id)) {
        const box = el.getBBox();
        if (!box.width || !box.height) continue;
        const hit = document.createElementNS(SVG, "rect");
        for (const [name, value] of Object.entries({ x: box.x - 3, y: box.y - 3, width: box.width + 6, height: box.height + 6,
          rx: 6, class: "play-target", tabindex: "0", role: "button", "data-play-target": k,
          "aria-label": list.length === 1 ? list[0].label
            : interpolate(gettext("%(first)s (and %(n)s more choices)"), { first: list[0].label, n: list.length - 1 }, true) })) {
          hit.setAttribute(name, value);
        }
        layer.append(hit);
      }
    }
    board.append(layer);
    board.dataset.role = board.getAttribute("role") || "img";
    board.setAttribute("role", "group"); // its things are buttons now, not one picture
  }

  // a zoomed board scrolls (only its own box, never the page) to show the first thing to choose on it
  function bringTargetsIntoView() {
    if (!wrap || !wrap.classList.contains("zoomed")) return;
    const first = board.querySelector("[data-play-target]");
    if (!first) return;
    const r = first.getBoundingClientRect();
    const w = wrap.getBoundingClientRect();
    if (r.left < w.left || r.right > w.right || r.top < w.top || r.bottom > w.bottom) {
      wrap.scrollBy({ left: r.left - w.left - 16, top: r.top - w.top - 40 }); // (its heading above it in view)
    }
  }

  function pick(k) {
    if (!current) return;
    const list = current.legal.filter((a) => targetKey(a.target) === k);
    if (list.length === 1) { choose(list[0]); return; }
    // several actions are about this thing: they are marked in the panel, the first one focused
    for (const b of actions.querySelectorAll(".picked")) b.classList.remove("picked");
    const buttons = [...actions.querySelectorAll("button")].filter((b) => b.dataset.target === k);
    for (const b of buttons) {
      b.classList.add("picked");
      const fold = b.closest("details");
      if (fold) fold.open = true;
    }
    status.textContent = interpolate(gettext("%(n)s actions are about this: choose one of the marked ones."), { n: list.length }, true);
    if (buttons[0]) { buttons[0].scrollIntoView({ block: "nearest" }); buttons[0].focus({ preventScroll: true }); }
  }

  // ----------------------------------------------------------------------------------------------- resigning
  // the end of this seat's part (the match ended, or the person resigned): nothing more is shown to choose
  function finish(text, mark) {
    over = true;
    current = null;
    actions.replaceChildren();
    hideConfirm();
    clearTargets();
    resignArea.hidden = true;
    status.textContent = text;
    root.dataset[mark] = "1";
    showClock();
  }
  function closeResign() {
    resignConfirm.hidden = true;
    resignButton.setAttribute("aria-expanded", "false");
    resignButton.focus({ preventScroll: true });
  }
  resignButton.addEventListener("click", () => {
    resignConfirm.hidden = false;
    resignButton.setAttribute("aria-expanded", "true");
    resignConfirm.querySelector("[data-resign=no]").focus({ preventScroll: false }); // the safe choice first
  });
  resignConfirm.querySelector("[data-resign=no]").addEventListener("click", closeResign);
  resignConfirm.addEventListener("keydown", (ev) => { if (ev.key === "Escape") { ev.preventDefault(); closeResign(); } });
  resignConfirm.querySelector("[data-resign=yes]").addEventListener("click", async (ev) => {
    const yes = ev.currentTarget;
    yes.disabled = true;
    try {
      const resp = await fetch(yes.dataset.resignUrl, { method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRFToken": csrf }, body: JSON.stringify({ seat }) });
      if (resp.ok || resp.status === 409) {
        const body = await resp.json().catch(() => ({}));
        if (resp.ok) finish(gettext("You resigned. The other seats play on; the game ends as usual."), "resigned");
        else { error.textContent = body.error || ""; error.hidden = false; poll(); }
      } else {
        const body = await resp.json().catch(() => ({}));
        error.textContent = body.error || gettext("The resignation was not accepted.");
        error.hidden = false;
      }
    } catch (e) {
      error.textContent = gettext("The connection failed: try again.");
      error.hidden = false;
    } finally {
      yes.disabled = false;
      resignConfirm.hidden = true;
    }
  });

  if (board) {
    board.addEventListener("click", (ev) => {
      const el = ev.target.closest && ev.target.closest("[data-play-target]");
      if (el) pick(el.dataset.playTarget);
    });
    board.addEventListener("keydown", (ev) => {
      const el = ev.target.closest && ev.target.closest("[data-play-target]");
      if (el && (ev.key === "Enter" || ev.key === " ")) { ev.preventDefault(); pick(el.dataset.playTarget); }
    });
  }
  watchRoot.addEventListener("arena:drawn", markTargets); // the board was drawn again: its things are new

  // ------------------------------------------------------------------------------------- answers and turns
  async function answer(decision, action) {
    if (sending) return;
    sending = true;
    try {
      const resp = await fetch(url, { method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
        body: JSON.stringify({ seat, decision, action }) });
      if (resp.ok) {
        done = Math.max(done, decision);
        root.dataset.answered = String(Number(root.dataset.answered || 0) + 1);
        // (the next turn, pushed, can arrive before this answer's response: it stays)
        if (!current || current.decision <= decision) waiting();
      } else {
        const body = await resp.json().catch(() => ({}));
        error.textContent = body.error || gettext("The action was not accepted.");
        error.hidden = false;
      }
    } catch (e) {
      error.textContent = gettext("The connection failed: try again.");
      error.hidden = false;
    } finally {
      sending = false;
      poll();
    }
  }

  function offered(turn, how) {
    if (over) return;
    if (turn.decision > done && (!current || current.decision !== turn.decision)) {
      root.dataset.turnVia = how; // "push" or "poll": which way the turn came first (for tests and the curious)
      showTurn(turn);
    }
  }
  watchRoot.addEventListener("arena:turn", (ev) => offered(ev.detail, "push"));

  let timer = null;
  async function poll() {
    clearTimeout(timer);
    if (over) return;
    const sent = performance.now();
    try {
      const resp = await fetch(`${url}?seat=${seat}`, { credentials: "same-origin", cache: "no-store" });
      if (resp.status === 200) {
        offered(await resp.json(), "poll");
      } else if (resp.status === 204) {
        // (a turn pushed while this answer was on its way is not undone by it)
        if ((current && shownAt < sent) || root.dataset.turn === undefined) waiting();
      } else if (resp.status === 409) {
        finish(gettext("The match is over."), "over");
        return;
      } else if (resp.status === 410) {
        finish(gettext("You resigned. The other seats play on; the game ends as usual."), "resigned");
        return;
      }
    } catch (e) {
      status.textContent = gettext("Connection lost: reconnecting…");
    }
    showClock();
    timer = setTimeout(poll, POLL_MS);
  }
  setInterval(showClock, 1000);
  poll();
}

const root = document.querySelector("[data-play]");
if (root) play(root);
