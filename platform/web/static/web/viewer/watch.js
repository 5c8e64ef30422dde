// Live watching (templates/web/_live_watch.html): a running match's public view, decision by decision, from the
// server-sent events of web.watch (EventSource reconnects by itself and resumes after the last event it got).
// Each event `frame` carries {index, seat, to_move, observation, story, scores}: the spectator's view (what every
// seat knows) after decision `index`, made by `seat`, drawn with the replay viewer's own renderer of the game;
// `story` is the decision told in each language (arena.narration, from what that view may know) for the log,
// `scores` each series' score for the chart. On a person's own seat the event `turn` is their decision to make:
// handed to play.js as the DOM event `arena:turn`; after each drawing the root gets `arena:drawn`. The
// event `end` says so and offers the full replay (a link reloading the page: no surprise reload under the
// reader's eyes). The root's data attributes say what arrived (`received`, `order`: "ok" or the first gap), for
// tests and for anyone curious.

import { gettext, interpolate } from "../i18n.js";
import { buildChart } from "./story.js";
import { rowColour } from "./svg.js";

const RENDERERS = { thebes: () => import("./thebes.js"), minos: () => import("./minos.js") };

export async function watch(root) {
  const board = root.querySelector("[data-board]");
  const panel = root.querySelector("[data-players]");
  const status = root.querySelector("[data-status]");
  const log = root.querySelector("[data-live-log]");
  const chart = root.querySelector("[data-live-chart]");
  const language = (document.documentElement.lang || "en").toLowerCase();
  let told = { scores: [], turns: [] }; // the story so far, for the chart
  const names = JSON.parse(document.getElementById("live-seats").textContent);
  const seats = names.map((name, seat) => ({ seat, name }));
  const glossary = JSON.parse(document.getElementById("live-glossary").textContent); // names for codes
  const load = RENDERERS[root.dataset.game] || (() => import("./generic.js").then((m) => ({ render: m.renderGeneric })));
  const { render } = await load();
  const seatName = (seat) => (seat >= 0 && seat < seats.length ? interpolate(gettext("%(name)s (seat %(number)s)"), { name: seats[seat].name, number: seat + 1 }, true)
    : gettext("the automated opponent"));
  let shown = -1;
  let pending = null;
  let drawing = false;

  function draw() {
    drawing = false;
    const frame = pending;
    if (!frame) return;
    const ctx = {
      header: {}, seats, view, result: null, index: frame.index, last: frame.index, glossary,
      seatName, colour: (seat) => rowColour(seat, seats.length),
      legend: root.querySelector("[data-board-legend]"),
    };
    render(board, panel, { ...frame, action: null, events: [] }, ctx);
    root.dataset.index = String(frame.index);
    if (chart && told.scores.length) {
      const n = told.scores[0].length; // Minos' solo opponent is a series of its own
      buildChart(chart, told, names, () => {}, Array.from({ length: n }, (_, k) => rowColour(k, n)));
      chart.hidden = false;
    }
    root.dispatchEvent(new CustomEvent("arena:drawn", { detail: { index: frame.index } }));
  }

  let received = 0;
  root.dataset.order = "ok";
  function show(frame) {
    if (frame.index <= shown) return; // a resumed stream never repeats an event; ignore one if it did
    // a seat's own view starts at the decision after its watcher came; from then on, none may be missing
    if (received > 0 && frame.index !== shown + 1 && root.dataset.order === "ok") {
      root.dataset.order = `gap before ${frame.index}`;
    }
    shown = frame.index;
    received += 1;
    root.dataset.received = String(received);
    pending = frame;
    if (!drawing) {
      drawing = true;
      requestAnimationFrame(draw); // one drawing per animation frame, however fast decisions come
    }
    const story = frame.story && (frame.story[language] || frame.story.en);
    const text = story ? (frame.index === 0 ? gettext("The match has started.") : `${frame.index}. ${story.text}`)
      : frame.index === 0 ? gettext("The match has started.")
      : interpolate(gettext("Turn %(turn)s: %(seat)s decided."), { turn: frame.index, seat: seatName(frame.seat) }, true)
        + (frame.to_move >= 0 ? " " + interpolate(gettext("Next: %(seat)s."), { seat: seatName(frame.to_move) }, true) : "");
    if (story) root.dataset.told = String(Number(root.dataset.told || 0) + 1); // frames told in words
    if (frame.scores) {
      told.scores.push(frame.scores);
      told.turns.push({ scoring: story ? story.scoring : null });
    }
    status.textContent = text;
    const li = document.createElement("li");
    li.dataset.turn = String(frame.index);
    li.textContent = text;
    const notes = story ? [...story.lines, ...story.deltas.map((d) =>
      `${seatName(d.seat)} ${d.delta > 0 ? "+" : ""}${d.delta}${d.cause ? " (" + d.cause + ")" : ""}`)] : [];
    if (notes.length) {
      const ul = document.createElement("ul");
      ul.className = "log-notes";
      for (const n of notes) { const x = document.createElement("li"); x.textContent = n; ul.append(x); }
      li.append(ul);
    }
    log.prepend(li);
    while (log.children.length > 50) log.lastElementChild.remove();
  }

  let source = null;
  let view = -1;
  // Streams refused or cut in a row (a frame resets it). EventSource retries a dropped connection by itself but
  // gives up on an answer that is not a stream: the 503 of a web process serving its cap of live views
  // (web.watch, Retry-After 10 s), or a 204 once the match is over. Such a page asks again later, and after a
  // few refusals loads itself again (a match over meanwhile then shows its replay).
  let refusals = 0;
  const RETRY_MS = 10000;
  function refused() {
    refusals += 1;
    root.dataset.refusals = String(refusals);
    if (refusals > 3) {
      window.location.reload();
      return;
    }
    status.textContent = gettext("Too many people are watching on this server just now: trying again in a few seconds…");
    const seat = view;
    setTimeout(() => {
      if (view === seat && !root.dataset.ended) connect(seat);
    }, RETRY_MS * refusals + Math.random() * 2000);
  }
  function connect(seat) {
    // a seat's own view (for its owner: the server checks) or everyone's; switching starts the story again
    if (source) source.close();
    view = seat;
    shown = -1;
    received = 0;
    root.dataset.order = "ok";
    log.replaceChildren();
    told = { scores: [], turns: [] };
    source = new EventSource(root.dataset.eventsUrl + (seat >= 0 ? `?seat=${seat}` : ""));
    source.addEventListener("open", () => {
      root.dataset.streams = String(Number(root.dataset.streams || 0) + 1); // streams opened (a test reads it)
    });
    source.addEventListener("frame", (e) => {
      refusals = 0;
      show(JSON.parse(e.data));
    });
    source.addEventListener("end", ended);
    source.addEventListener("turn", (e) => root.dispatchEvent(new CustomEvent("arena:turn", { detail: JSON.parse(e.data) })));
    source.addEventListener("error", () => {
      if (root.dataset.ended) return;
      if (source.readyState === EventSource.CONNECTING) status.textContent = gettext("Connection lost: reconnecting…");
      else if (source.readyState === EventSource.CLOSED) refused();
    });
  }
  function ended() {
    source.close();
    root.dataset.ended = "1";
    status.textContent = gettext("The match is over.") + " ";
    const again = document.createElement("a");
    again.href = window.location.pathname;
    again.textContent = gettext("Show its replay");
    status.append(again);
  }
  const picker = root.querySelector("[data-live-seat]");
  if (picker) picker.addEventListener("change", () => connect(picker.value === "" ? -1 : Number(picker.value)));
  // a person playing a seat of this match (web.play) sees the board as their seat does
  connect(root.dataset.seat !== undefined ? Number(root.dataset.seat) : -1);
}

const root = document.querySelector("[data-live-watch]");
if (root) watch(root);
