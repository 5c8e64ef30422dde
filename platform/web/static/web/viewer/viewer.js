// The replay viewer: loads the frames of a match (from the JSON endpoint of web.views.frames) and draws one
// frame at a time with the renderer of the match's game. Plain ES module, no build step.
//
// Markup (see web/templates/web/_viewer.html): an element [data-viewer] carrying data-frames-url, data-game
// and data-finished, holding the controls, an <svg> board, a players panel and a live status line.
// Keys (when the viewer has focus): ←/→ step, Home/End first/last, space play/pause, PageUp/PageDown ±10.

import { renderGeneric } from "./generic.js";

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
    this.frames = [];
    this.index = 0;
    this.timer = null;
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
    this.root.dataset.ready = "1";
    this.root.dataset.readyMs = String(Math.round(performance.now())); // since navigation start (bench/)
  }

  async loadSeat(seat) {
    let payload = this.cache.get(seat);
    if (!payload) {
      this.setStatus("Loading…");
      const sep = this.url.includes("?") ? "&" : "?";
      const resp = await fetch(`${this.url}${sep}seat=${encodeURIComponent(seat)}`, {
        headers: { Accept: "application/json" },
      });
      if (!resp.ok) {
        const text = await resp.text();
        this.setStatus(`Could not load the replay: ${resp.status} ${text.slice(0, 200)}`);
        throw new Error(`frames ${resp.status}`);
      }
      payload = await resp.json();
      this.cache.set(seat, payload);
    }
    this.payload = payload;
    this.frames = payload.frames;
    this.root.dataset.seatView = seat;
    const last = this.frames.length - 1;
    if (this.slider) this.slider.max = String(last);
    if (this.turnInput) this.turnInput.max = String(last);
    const total = this.root.querySelector("[data-total]");
    if (total) total.textContent = String(last);
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
    });
    this.root.addEventListener("keydown", (ev) => {
      if (ev.target.matches("input, select, textarea")) return;
      const keys = {
        ArrowRight: () => this.step(1), ArrowLeft: () => this.step(-1),
        PageDown: () => this.step(10), PageUp: () => this.step(-10),
        Home: () => this.show(0), End: () => this.show(this.frames.length - 1),
        " ": () => this.togglePlay(),
      };
      const fn = keys[ev.key];
      if (fn) { ev.preventDefault(); fn(); }
    });
    if (this.turnInput) {
      this.turnInput.addEventListener("change", () => this.show(parseInt(this.turnInput.value, 10) || 0));
    }
    if (this.slider) this.slider.addEventListener("input", () => this.show(parseInt(this.slider.value, 10)));
    if (this.seatSelect) {
      this.seatSelect.addEventListener("change", async () => {
        const keep = this.index;
        await this.loadSeat(this.seatSelect.value);
        this.show(keep);
      });
    }
  }

  step(delta) { this.show(this.index + delta); }

  togglePlay() {
    if (this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    } else {
      if (this.index >= this.frames.length - 1) this.show(0);
      this.timer = setInterval(() => {
        if (this.index >= this.frames.length - 1) this.togglePlay();
        else this.step(1);
      }, 600);
    }
    if (this.playButton) {
      this.playButton.setAttribute("aria-pressed", this.timer ? "true" : "false");
      this.playButton.textContent = this.timer ? "Pause" : "Play";
      this.playButton.setAttribute("aria-label", this.timer ? "Pause" : "Play");
    }
  }

  show(i) {
    if (!this.frames.length) return;
    this.index = Math.max(0, Math.min(this.frames.length - 1, i));
    const frame = this.frames[this.index];
    if (this.turnInput) this.turnInput.value = String(this.index);
    if (this.slider) this.slider.value = String(this.index);
    this.root.dataset.index = String(this.index);
    const ctx = {
      header: this.payload.header, seats: this.payload.seats, view: this.payload.seat,
      result: this.payload.result, index: this.index, last: this.frames.length - 1,
    };
    this.renderer(this.board, this.panel, frame, ctx);
    this.setStatus(describe(frame, ctx));
    // A shareable link to this turn (#turn=N), without adding a history entry per step.
    if (this.root.dataset.ready === "1") history.replaceState(null, "", `#turn=${this.index}`);
  }

  setStatus(text) { if (this.status) this.status.textContent = text; }
}

export function seatName(ctx, seat) {
  const s = ctx.seats && ctx.seats[seat];
  return s ? `${s.name} (seat ${seat + 1})` : `seat ${seat + 1}`;
}

function describe(frame, ctx) {
  if (frame.index === 0) return `Start of the game (turn 0 of ${ctx.last}).`;
  let text = frame.action == null
    ? `Turn ${frame.index} of ${ctx.last}: ${seatName(ctx, frame.seat)} decided (hidden in this seat's view)`
    : `Turn ${frame.index} of ${ctx.last}: ${seatName(ctx, frame.seat)} played “${frame.action}”`;
  if (frame.ms != null) text += ` in ${Math.round(frame.ms)} ms`;
  if (frame.fault) text += ` — fault (${frame.fault.kind}): ${frame.fault.message}`;
  if (frame.index === ctx.last) text += ". End of the game.";
  return text;
}

export function boot() {
  for (const root of document.querySelectorAll("[data-viewer]")) {
    const v = new Viewer(root);
    root.viewer = v;
    v.start().catch((err) => { root.dataset.error = String(err); });
  }
}

boot();
