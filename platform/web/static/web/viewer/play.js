// Playing a seat (templates/web/_play_panel.html): asks web.play for the decision now asked of the person's seat
// (GET …/play/?seat=N, JSON: decision, legal actions with texts and kinds, clock, deadline) and shows, on their
// turn, the legal actions grouped by kind as buttons (keyboard usable: they are buttons); a click answers it
// (POST …/play/ {seat, decision, action}). The server says what is asked: a reloaded or reconnecting page
// resumes at the current decision. The board is the live view of the seat (watch.js, `data-seat`).

import { gettext, interpolate } from "../i18n.js";

const POLL_MS = 700;
// actions that end the person's turn, asked to be confirmed first (Minos; in Thebes every action is one move
// and none ends more than itself)
const ENDS_TURN = { minos: ["end", "main:finish", "main:forgo"] };

export function play(root) {
  const url = root.dataset.playUrl;
  const seat = Number(root.dataset.seat);
  const status = root.querySelector("[data-play-status]");
  const clock = root.querySelector("[data-play-clock]");
  const actions = root.querySelector("[data-play-actions]");
  const error = root.querySelector("[data-play-error]");
  const csrf = root.querySelector("input[name=csrfmiddlewaretoken]").value;
  let current = null; // the decision shown
  // the last decision answered: a poll sent before the answer may still bring it back; it is never shown again
  let done = -1;
  let sending = false;
  let over = false;

  function showClock() {
    if (!current) { clock.textContent = ""; return; }
    const left = Math.max(0, Math.round(current.deadline - Date.now() / 1000));
    clock.textContent = interpolate(gettext("Time left: %(s)s s (this decision %(d)s s, bank %(b)s s)"),
      { s: left, d: Math.round(current.time_left.decision_ms / 1000), b: Math.round(current.time_left.bank_ms / 1000) }, true);
  }

  function waiting() {
    current = null;
    actions.replaceChildren();
    root.dataset.turn = "";
    status.textContent = gettext("Waiting for the other seats…");
    showClock();
  }

  function showTurn(turn) {
    current = turn;
    root.dataset.turn = String(turn.decision);
    error.hidden = true;
    status.textContent = gettext("Your turn: choose an action.");
    const groups = new Map();
    for (const a of turn.legal) {
      if (!groups.has(a.kind)) groups.set(a.kind, []);
      groups.get(a.kind).push(a);
    }
    const parts = [];
    for (const [kind, list] of groups) {
      const fieldset = document.createElement("fieldset");
      const legend = document.createElement("legend");
      legend.textContent = kind;
      fieldset.append(legend);
      for (const a of list) {
        const b = document.createElement("button");
        b.type = "button";
        b.textContent = a.text;
        b.dataset.action = a.text;
        b.addEventListener("click", () => {
          if ((ENDS_TURN[root.dataset.game] || []).includes(a.text)
              && !window.confirm(interpolate(gettext("End your turn with “%(action)s”?"), { action: a.text }, true))) return;
          answer(turn.decision, a.text);
        });
        fieldset.append(b);
      }
      parts.push(fieldset);
    }
    actions.replaceChildren(...parts);
    const first = actions.querySelector("button");
    if (first && !root.contains(document.activeElement)) first.focus({ preventScroll: true });
    showClock();
  }

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
        waiting();
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

  let timer = null;
  async function poll() {
    clearTimeout(timer);
    if (over) return;
    try {
      const resp = await fetch(`${url}?seat=${seat}`, { credentials: "same-origin", cache: "no-store" });
      if (resp.status === 200) {
        const turn = await resp.json();
        if (turn.decision > done && (!current || current.decision !== turn.decision)) showTurn(turn);
      } else if (resp.status === 204) {
        if (current || root.dataset.turn === undefined) waiting();
      } else if (resp.status === 409) {
        over = true;
        current = null;
        actions.replaceChildren();
        status.textContent = gettext("The match is over.");
        root.dataset.over = "1";
        showClock();
        return;
      }
    } catch (e) {
      status.textContent = gettext("Connection lost: reconnecting…");
    }
    showClock();
    timer = setTimeout(poll, POLL_MS);
  }
  poll();
}

const root = document.querySelector("[data-play]");
if (root) play(root);
