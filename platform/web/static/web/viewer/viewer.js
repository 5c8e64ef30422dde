// The replay viewer: loads the frames of a match (from the JSON endpoint of web.views.frames) and draws one
// frame at a time with the renderer of the match's game. Plain ES module, no build step.
//
// Markup (see web/templates/web/_viewer.html): an element [data-viewer] carrying data-frames-url, data-game
// and data-finished, holding the controls, an <svg> board, a players panel and a live status line.
// Keys (when the viewer has the focus, or nothing has: a fresh page): ←/→ step, Home/End first/last, space
// play/pause, PageUp/PageDown ±10.
//
// A game's renderer (thebes.js, minos.js, generic.js) exports `render(board, panel, frame, ctx)` and imports
// nothing from this module: what it needs of the viewer (seat names, the glossary) comes in `ctx`.
//
// Playback runs on animation frames: each one shows the turn the clock has reached (the turns in between are
// not drawn, so 60× keeps its speed however long a drawing takes, and a click on Pause waits for one drawing at
// most); what nobody sees while it plays (the URL, scrolling the log, the status read to screen readers) is
// brought up to date when it stops.

import { gettext, interpolate } from "../i18n.js";
import { renderGeneric } from "./generic.js";
import { rowColour } from "./svg.js";
import { buildChart, buildEnd, buildLegend, buildLog, buildMarkers, followLog, moveCursor } from "./story.js";
import { boardZoom } from "./zoom.js";

const RENDERERS = {
  thebes: () => import("./thebes.js"),
  minos: () => import("./minos.js"),
};

export class Viewer {
  constructor(root) {
    this.root = root;
    this.url = root.dataset.framesUrl;
    this.game = root.dataset.game;
    this.finished = root.dataset.finished === "1";
    this.board = root.querySelector("[data-board]");
    this.panel = root.querySelector("[data-players]");
    this.status = root.querySelector("[data-status]");
    this.turnInput = root.querySelector("[data-turn]");
    this.slider = root.querySelector("[data-slider]");
    this.seatSelect = root.querySelector("[data-seat]");
    this.playButton = root.querySelector("[data-act=play]");
    this.speedSelect = root.querySelector("[data-speed]");
    this.log = root.querySelector("[data-log]");
    this.chart = root.querySelector("[data-chart]");
    this.marks = root.querySelector("[data-marks]");
    this.endBox = root.querySelector("[data-end]");
    this.botlog = root.querySelector("[data-botlog]");
    this.copied = root.querySelector("[data-copied]");
    this.logsUrl = root.dataset.logsUrl;
    this.logs = null; // the bots' own logs the viewer may see (web/api: matches.botlogs), by seat
    this.frames = [];
    this.index = 0;
    this.playing = false;
    this.clock = 0; // while playing: when the turn shown began (performance.now(), animation-frame time)
    this.draws = 0; // drawings made so far (bench/viewer_playback.py counts them)
    this.cache = new Map(); // seat view -> frames payload
    this.renderer = null;
    this.bind();
  }

  async start() {
    // Fetch the frames and the game's renderer at the same time.
    const load = RENDERERS[this.game];
    const [mod] = await Promise.all([
      load ? load().catch(() => null) : null,
      this.loadSeat(this.seatSelect ? this.seatSelect.value : "all"),
    ]);
    this.renderer = mod ? mod.render : renderGeneric;
    const wanted = parseInt(new URLSearchParams(location.hash.slice(1)).get("turn") || "", 10);
    this.show(Number.isFinite(wanted) ? wanted : 0);
    // after the first drawing: the board's width is the renderer's (its viewBox)
    this.zoom = boardZoom(this.root.querySelector("[data-board-wrap]"), this.root.querySelector("[data-act=zoom]"), this.board);
    // a link to #turn=N on the same page (a fault in the seats table) jumps there
    window.addEventListener("hashchange", () => {
      const n = parseInt(new URLSearchParams(location.hash.slice(1)).get("turn") || "", 10);
      if (Number.isFinite(n) && n !== this.index) { this.stopPlay(); this.show(n); }
    });
    this.loadLogs().catch(() => {}); // the board never waits for the logs
    this.root.dataset.ready = "1";
    this.root.dataset.readyMs = String(Math.round(performance.now())); // since navigation start (bench/)
  }

  async loadSeat(seat) {
    let payload = this.cache.get(seat);
    if (!payload) {
      this.setStatus(gettext("Loading…"));
      const sep = this.url.includes("?") ? "&" : "?";
      const resp = await fetch(`${this.url}${sep}seat=${encodeURIComponent(seat)}&lang=${encodeURIComponent(document.documentElement.lang || "en")}`, {
        headers: { Accept: "application/json" },
      });
      if (!resp.ok) {
        const text = await resp.text();
        this.setStatus(interpolate(gettext("Could not load the replay: %(reason)s"), { reason: `${resp.status} ${text.slice(0, 200)}` }, true));
        throw new Error(`frames ${resp.status}`);
      }
      payload = await resp.json();
      this.cache.set(seat, payload);
    }
    this.payload = payload;
    this.frames = payload.frames;
    this.root.dataset.seatView = seat;
    this.buildStory();
    const last = this.frames.length - 1;
    if (this.slider) this.slider.max = String(last);
    if (this.turnInput) this.turnInput.max = String(last);
    const total = this.root.querySelector("[data-total]");
    if (total) total.textContent = String(last);
  }

  // What the bots printed and their annotations, for the seats this visitor may see (its own bots' output and
  // annotations, others' public annotations): arena/botlogs.py, platform/matches/botlogs.py.
  async loadLogs() {
    if (!this.logsUrl || !this.botlog) return;
    const resp = await fetch(this.logsUrl, { headers: { Accept: "application/json" }, credentials: "same-origin" });
    if (!resp.ok) return;
    const doc = await resp.json();
    if (!doc.seats || !doc.seats.length) return;
    this.logs = new Map();
    for (const seat of doc.seats) {
      const byDecision = new Map((seat.decisions || []).map((d) => [d.decision, d]));
      this.logs.set(seat.seat, { ...seat, byDecision });
    }
    this.botlog.hidden = false;
    const downloads = this.botlog.querySelector("[data-botlog-downloads]");
    if (downloads) {
      downloads.textContent = "";
      for (const seat of doc.seats) {
        if (!seat.output_visible) continue;
        const a = document.createElement("a");
        a.href = `${this.logsUrl}${seat.seat}/`;
        a.setAttribute("download", "");
        a.textContent = interpolate(gettext("Download all of %(name)s's output (seat %(number)s)"), { name: seat.name, number: seat.seat + 1 }, true);
        downloads.append(a, " ");
      }
    }
    this.root.dataset.logs = "1";
    this.renderBotLog(this.frames[this.index]);
  }

  renderBotLog(frame) {
    if (!this.logs || !this.botlog || !frame) return;
    const body = this.botlog.querySelector("[data-botlog-body]");
    body.textContent = "";
    const block = (seat, label, annotation, output, visible) => {
      const div = document.createElement("div");
      div.className = "botlog-seat";
      div.dataset.seat = String(seat.seat);
      const head = document.createElement("h4");
      head.textContent = interpolate(gettext("%(name)s (seat %(number)s)"), { name: seat.name, number: seat.seat + 1 }, true) + ` — ${label}`;
      div.append(head);
      if (annotation) {
        const note = document.createElement("p");
        note.className = "botlog-annotation";
        note.dataset.annotation = "";
        note.textContent = `Annotation: ${annotation}`;
        div.append(note);
      }
      if (visible) {
        const pre = document.createElement("pre");
        pre.className = "botlog-output";
        pre.dataset.output = "";
        pre.textContent = output || "(printed nothing)";
        div.append(pre);
      }
      body.append(div);
    };
    const last = this.frames.length - 1;
    if (frame.index === 0) {
      for (const seat of this.logs.values()) {
        if (seat.output_visible) block(seat, "start-up", "", seat.startup, true);
      }
    } else {
      const seat = this.logs.get(frame.seat);
      const d = seat && seat.byDecision.get(frame.index - 1);
      if (seat && d) block(seat, interpolate(gettext("turn %(turn)s"), { turn: frame.index }, true), d.annotation, d.output, seat.output_visible);
      else if (seat && seat.output_visible) {
        const p = document.createElement("p");
        p.className = "muted small";
        p.textContent = frame.forced || frame.fault
          ? `${seat.name} was not asked this turn (the referee applied the move).`
          : `${seat.name} did not play this turn.`;
        body.append(p);
      }
    }
    if (frame.index === last) {
      for (const seat of this.logs.values()) {
        if (seat.output_visible && seat.end) block(seat, gettext("after the game"), "", seat.end, true);
      }
    }
    if (!body.childNodes.length) {
      const p = document.createElement("p");
      p.className = "muted small";
      p.textContent = gettext("Nothing from your bots on this turn.");
      body.append(p);
    }
  }

  names() {
    const story = this.payload.story;
    if (story && story.series) return story.series;
    return (this.payload.seats || []).map((s, i) => s.name || `seat ${i + 1}`);
  }

  buildStory() {
    const story = this.payload.story;
    if (!story) return;
    const jump = (i) => { this.stopPlay(); this.show(i); };
    const names = this.names();
    const colours = names.map((_, k) => rowColour(k, (this.payload.seats || []).length));
    if (this.log) buildLog(this.log, story, names, jump);
    if (this.chart) buildChart(this.chart, story, names, jump, colours);
    const legend = this.root.querySelector("[data-legend]");
    if (legend) buildLegend(legend, names, colours);
    if (this.marks) buildMarkers(this.marks, story, jump);
    if (this.endBox) buildEnd(this.endBox, this.payload, names, colours);
    // the seats table of the match page has a row for the game's own opponent: its score is in the story
    for (const op of this.payload.opponents || []) {
      const cell = document.querySelector(`[data-opponent-score="${CSS.escape(op.name)}"]`);
      if (cell && op.score != null) cell.textContent = String(op.score);
    }
  }

  // The first frame of the next (dir 1) or the current/previous (dir -1) chapter: a year in Thebes, a round in
  // Minos (story.chapters, one label per frame).
  chapterJump(dir, key = (label) => label) {
    const ch = (this.payload.story ? this.payload.story.chapters : []).map(key);
    if (!ch.length) return;
    let i = this.index;
    if (dir > 0) {
      while (i < ch.length - 1 && ch[i] === ch[this.index]) i++;
    } else {
      if (i > 0 && ch[i - 1] !== ch[i]) i--; // at a chapter's start: go to the previous chapter's start
      const here = ch[i];
      while (i > 0 && ch[i - 1] === here) i--;
    }
    this.show(i);
  }

  delay() {
    const v = this.speedSelect ? parseFloat(this.speedSelect.value) : 1;
    return Math.max(10, 600 / (v || 1));
  }

  stopPlay() { if (this.playing) this.togglePlay(); }

  // The keys of the header comment. `ev` comes from inside the viewer, or from the page when nothing has the
  // focus (a fresh page: boot lets the first viewer take those).
  key(ev) {
    if (ev.defaultPrevented || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    if (ev.target.matches("input, select, textarea, [contenteditable]")) return;
    // on a button of the viewer space and enter press it (native), the other keys still step
    if (ev.key === " " && ev.target.matches("button, a")) return;
    const keys = {
      ArrowRight: () => this.step(1), ArrowLeft: () => this.step(-1),
      PageDown: () => this.step(10), PageUp: () => this.step(-10),
      Home: () => this.show(0), End: () => this.show(this.frames.length - 1),
      " ": () => this.togglePlay(),
    };
    const fn = keys[ev.key];
    if (fn) { ev.preventDefault(); fn(); }
  }

  bind() {
    this.root.addEventListener("click", (ev) => {
      const btn = ev.target.closest("[data-act]");
      if (!btn || !this.root.contains(btn)) return;
      const act = btn.dataset.act;
      if (act === "first") this.show(0);
      else if (act === "prev") this.step(-1);
      else if (act === "next") this.step(1);
      else if (act === "last") this.show(this.frames.length - 1);
      else if (act === "play") this.togglePlay();
      else if (act === "copy-link") this.copyLink();
      else if (act === "chapter-prev") this.chapterJump(-1);
      else if (act === "chapter-next") this.chapterJump(1);
      else if (act === "era-prev" || act === "era-next") {
        // Minos' chapters read "round 3 (era II)": the era is the part in brackets (setup counts as era I)
        this.chapterJump(act === "era-next" ? 1 : -1, (label) => (/\(era (\w+)\)/.exec(label) || [, "I"])[1]);
      }
    });
    this.root.addEventListener("keydown", (ev) => this.key(ev));
    if (this.turnInput) {
      this.turnInput.addEventListener("change", () => this.show(parseInt(this.turnInput.value, 10) || 0));
    }
    if (this.slider) this.slider.addEventListener("input", () => this.show(parseInt(this.slider.value, 10)));
    if (this.speedSelect) {
      // the next turn comes one new delay after the current one began
      this.speedSelect.addEventListener("change", () => { this.clock = performance.now(); });
    }
    if (this.seatSelect) {
      this.seatSelect.addEventListener("change", async () => {
        const keep = this.index;
        await this.loadSeat(this.seatSelect.value);
        this.show(keep);
      });
    }
  }

  step(delta) { this.show(this.index + delta); }

  // This page's address at the turn shown (#turn=N; start() opens it there), put on the clipboard and announced
  // in a status line; where the clipboard is refused (a page not served over https) the link is shown to copy.
  linkToTurn() {
    return `${location.origin}${location.pathname}${location.search}#turn=${this.index}`;
  }

  async copyLink() {
    this.stopPlay();
    const url = this.linkToTurn();
    let done = false;
    try {
      if (navigator.clipboard && window.isSecureContext) { await navigator.clipboard.writeText(url); done = true; }
    } catch { done = false; }
    if (!this.copied) return;
    this.copied.textContent = "";
    if (done) {
      this.copied.textContent = interpolate(gettext("Link to turn %(turn)s copied."), { turn: this.index }, true);
    } else {
      const field = document.createElement("input");
      field.type = "text"; field.readOnly = true; field.value = url; field.size = 30;
      field.setAttribute("aria-label", gettext("Link to this turn"));
      this.copied.append(gettext("Copy this link: "), field);
      field.focus();
      field.select();
    }
    this.root.dataset.copiedUrl = url;
  }

  togglePlay() {
    this.playing = !this.playing;
    if (this.playing) {
      if (this.index >= this.frames.length - 1) this.show(0);
      this.clock = performance.now();
      if (this.status) this.status.setAttribute("aria-live", "off"); // a screen reader hears where it stopped
      requestAnimationFrame((now) => this.tick(now));
    } else {
      if (this.status) this.status.setAttribute("aria-live", "polite");
      this.show(this.index); // what was skipped while playing: the log's scroll, the URL, the announcement
    }
    if (this.playButton) {
      this.playButton.setAttribute("aria-pressed", this.playing ? "true" : "false");
      this.playButton.textContent = this.playing ? gettext("Pause") : gettext("Play");
      this.playButton.setAttribute("aria-label", this.playButton.textContent);
    }
  }

  // One animation frame of playback: show the turn the clock has reached, at most one drawing per frame.
  tick(now) {
    if (!this.playing) return;
    const delay = this.delay();
    const due = Math.floor((now - this.clock) / delay);
    if (due > 0) {
      // a stall longer than a second (a background tab) resumes from here rather than racing to catch up
      this.clock = due * delay > 1000 ? now : this.clock + due * delay;
      const last = this.frames.length - 1;
      this.show(Math.min(last, this.index + due));
      if (this.index >= last) { this.togglePlay(); return; }
    }
    requestAnimationFrame((t) => this.tick(t));
  }

  show(i) {
    if (!this.frames.length) return;
    this.index = Math.max(0, Math.min(this.frames.length - 1, i));
    const frame = this.frames[this.index];
    if (this.turnInput) this.turnInput.value = String(this.index);
    if (this.slider) this.slider.value = String(this.index);
    this.root.dataset.index = String(this.index);
    const seats = this.payload.seats;
    const ctx = {
      header: this.payload.header, seats, view: this.payload.seat,
      result: this.payload.result, index: this.index, last: this.frames.length - 1,
      glossary: (this.payload.story && this.payload.story.glossary) || {},
      faults: this.payload.faults || {}, // each faulted frame's fault told in the page's language
      // a seat's name, or the game's own opponent's beyond the seats (Minos solo: Rhadamanthus), and its colour
      seatName: (seat) => seatName(seats, seat, this.names()),
      colour: (seat) => rowColour(seat, (seats || []).length),
      legend: this.root.querySelector("[data-board-legend]"), // a renderer may explain its pieces there
    };
    this.renderer(this.board, this.panel, frame, ctx);
    this.draws += 1;
    this.root.dataset.draws = String(this.draws);
    const story = this.payload.story;
    const turn = story && story.turns[this.index];
    this.setStatus(describe(frame, ctx) + (turn && this.index > 0 ? ` — ${turn.text}` : ""));
    if (this.log) followLog(this.log, this.index, !this.playing);
    if (this.chart) moveCursor(this.chart, this.index);
    const chapter = this.root.querySelector("[data-chapter]");
    if (chapter && story) chapter.textContent = story.chapters[this.index] || "";
    if (this.endBox) {
      const atEnd = this.index === this.frames.length - 1 && this.payload.result;
      this.endBox.hidden = !atEnd;
      this.root.dataset.ended = atEnd ? "1" : "0";
    }
    this.renderBotLog(frame);
    // A shareable link to this turn (#turn=N), without adding a history entry per step; not while playing.
    if (this.root.dataset.ready === "1" && !this.playing) history.replaceState(null, "", `#turn=${this.index}`);
  }

  setStatus(text) { if (this.status) this.status.textContent = text; }
}

function seatName(seats, seat, series) {
  const s = seats && seats[seat];
  if (s) return interpolate(gettext("%(name)s (seat %(number)s)"), { name: s.name, number: seat + 1 }, true);
  return (series && series[seat]) || interpolate(gettext("seat %(number)s"), { number: seat + 1 }, true);
}

function describe(frame, ctx) {
  if (frame.index === 0) return interpolate(gettext("Start of the game (turn 0 of %(last)s)."), { last: ctx.last }, true);
  const who = ctx.seatName(frame.seat);
  const what = frame.action == null ? gettext("a move (hidden in this seat's view)") : `“${frame.action}”`;
  const at = { turn: frame.index, last: ctx.last, who, what };
  let text;
  if (frame.substitute) {
    // the seat is out (disqualified): the referee plays its turns, the bot is not asked
    text = interpolate(gettext("Turn %(turn)s of %(last)s: substitute move — %(who)s is out of the game; the referee played %(what)s for it"), at, true);
  } else if (frame.fault) {
    // the bot did not choose this move: after its fault the referee substituted a random legal one
    text = interpolate(gettext("Turn %(turn)s of %(last)s: %(who)s faulted; the referee substituted %(what)s"), at, true);
    const told = ctx.faults[String(frame.index)] || frame.fault;
    text += " — " + interpolate(gettext("fault (%(kind)s)"), { kind: told.kind }, true) + (told.message ? ": " + told.message : "");
  } else {
    text = frame.action == null
      ? interpolate(gettext("Turn %(turn)s of %(last)s: %(who)s decided (hidden in this seat's view)"), at, true)
      : interpolate(gettext("Turn %(turn)s of %(last)s: %(who)s played %(what)s"), at, true);
    if (frame.forced) text += " " + gettext("(forced: the only legal action, applied without asking the bot)");
    else if (frame.ms != null) text += " " + interpolate(gettext("in %(ms)s ms"), { ms: Math.round(frame.ms) }, true);
  }
  if (frame.index === ctx.last) text += ". " + gettext("End of the game.");
  return text;
}

export function boot() {
  const viewers = [];
  for (const root of document.querySelectorAll("[data-viewer]")) {
    const v = new Viewer(root);
    root.viewer = v;
    viewers.push(v);
    v.start().catch((err) => { root.dataset.error = String(err); });
  }
  // A fresh page has the focus nowhere (on the body): the keys go to the first viewer without a click.
  if (viewers.length) {
    document.addEventListener("keydown", (ev) => {
      if (ev.target === document.body || ev.target === document.documentElement) viewers[0].key(ev);
    });
  }
}

boot();
