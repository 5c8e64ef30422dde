// The story around the board: the narrated event log, the score-over-time chart, the timeline markers under the
// slider and the end screen. Everything is drawn from `payload.story` (arena.narration, computed server-side
// from the same view's frames, so it never says more than the view shows).

import { gettext, interpolate, pgettext } from "../i18n.js";
import { clear, h, s, SEAT_COLOURS, title } from "./svg.js";

const fmt = (x) => (Number.isInteger(x) ? String(x) : x.toFixed(1));
const signed = (x) => (x > 0 ? "+" : "") + fmt(x);

// ------------------------------------------------------------------------------------------------- event log
export function buildLog(list, story, names, jump) {
  clear(list);
  story.turns.forEach((t, i) => {
    const li = h("li", { "data-turn": i,
      class: [t.substitute ? "substitute" : t.fault ? "fault" : "", t.scoring ? "scoring" : ""].join(" ").trim() });
    const btn = h("button", { type: "button", class: "log-line", "data-jump": i },
      h("span", { class: "log-n" }, String(i)), " ", t.text,
      t.substitute ? h("span", { class: "log-tag", "data-substitute": "" }, "substitute move") : null);
    li.append(btn);
    const notes = [...t.lines];
    for (const d of t.deltas) {
      notes.push(`${names[d.seat] || "seat " + (d.seat + 1)} ${signed(d.delta)}${d.cause ? " (" + d.cause + ")" : ""}`);
    }
    if (t.scoring) notes.unshift(interpolate(gettext("Scoring: %(moment)s"), { moment: t.scoring }, true));
    if (notes.length) li.append(h("ul", { class: "log-notes" }, notes.map((n) => h("li", {}, n))));
    list.append(li);
  });
  list.onclick = (ev) => {
    const b = ev.target.closest("[data-jump]");
    if (b) jump(parseInt(b.dataset.jump, 10));
  };
}

// Mark the current turn's line; `scroll`: bring it into view as well (while playing the viewer skips that: it
// reads the layout, which costs a synchronous reflow per turn; the line scrolls into view when playback stops).
export function followLog(list, index, scroll = true) {
  const old = list.querySelector("li.current");
  if (old) { old.classList.remove("current"); old.querySelector(".log-line").removeAttribute("aria-current"); }
  const li = list.children[index];
  if (!li) return;
  li.classList.add("current");
  li.querySelector(".log-line").setAttribute("aria-current", "step");
  if (!scroll) return;
  // keep the current line in view inside the log box only (never scroll the page)
  const top = li.offsetTop; // the list is positioned (viewer.css), so this is relative to it
  if (top < list.scrollTop || top + li.offsetHeight > list.scrollTop + list.clientHeight) {
    // a third of the way down, or at the top when the line (with its notes) is taller than that leaves room for
    list.scrollTop = Math.max(0, li.offsetHeight > (list.clientHeight * 2) / 3 ? top : top - list.clientHeight / 3);
  }
}

// ----------------------------------------------------------------------------------------------- score chart
const W = 640;
const H = 200;
const PAD = { l: 40, r: 12, t: 12, b: 28 };

export function buildChart(svg, story, names, jump, colours = SEAT_COLOURS) {
  clear(svg);
  const n = story.scores.length;
  const seats = Math.max(0, ...story.scores.map((r) => r.length));
  const all = story.scores.flat();
  const lo = Math.min(0, ...all);
  const hi = Math.max(10, ...all);
  const x = (i) => PAD.l + ((W - PAD.l - PAD.r) * i) / Math.max(1, n - 1);
  const y = (v) => PAD.t + (H - PAD.t - PAD.b) * (1 - (v - lo) / (hi - lo));
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.append(title(interpolate(gettext("Score of each seat by turn, %(turns)s turns; final: %(scores)s"), { turns: n - 1,
    scores: names.slice(0, seats).map((nm, k) => `${nm} ${fmt(story.scores[n - 1][k] ?? 0)}`).join(pgettext("list", ", ")) }, true)));
  for (const frac of [0, 0.5, 1]) {
    const v = lo + (hi - lo) * frac;
    svg.append(s("line", { x1: PAD.l, x2: W - PAD.r, y1: y(v), y2: y(v), class: "grid" }));
    svg.append(s("text", { x: PAD.l - 5, y: y(v) + 4, "text-anchor": "end", class: "axis" }, fmt(Math.round(v))));
  }
  svg.append(s("text", { x: PAD.l, y: H - 6, class: "axis" }, interpolate(gettext("turn %(turn)s"), { turn: 0 }, true)));
  svg.append(s("text", { x: W - PAD.r, y: H - 6, "text-anchor": "end", class: "axis" }, interpolate(gettext("turn %(turn)s"), { turn: n - 1 }, true)));
  // scoring moments: a dashed line each
  story.turns.forEach((t, i) => {
    if (!t.scoring) return;
    const m = s("line", { x1: x(i), x2: x(i), y1: PAD.t, y2: H - PAD.b, class: "moment", "data-moment": i });
    m.append(title(interpolate(gettext("Turn %(turn)s: %(what)s"), { turn: i, what: t.scoring }, true)));
    svg.append(m);
  });
  for (let k = 0; k < seats; k++) {
    const pts = story.scores.map((row, i) => `${x(i).toFixed(1)},${y(row[k] ?? 0).toFixed(1)}`).join(" ");
    const line = s("polyline", { points: pts, fill: "none", stroke: colours[k], "stroke-width": 2.5,
      class: "series", "data-series": k });
    line.append(title(`${names[k] || "seat " + (k + 1)}: ${fmt(story.scores[n - 1][k] ?? 0)} at the end`));
    svg.append(line);
  }
  const cursor = s("line", { x1: PAD.l, x2: PAD.l, y1: PAD.t, y2: H - PAD.b, class: "cursor", "data-cursor": "" });
  svg.append(cursor);
  // a click anywhere on the plot jumps to that turn
  svg.onclick = (ev) => {
    const box = svg.getBoundingClientRect();
    const ux = ((ev.clientX - box.left) / box.width) * W;
    const i = Math.round(((ux - PAD.l) / (W - PAD.l - PAD.r)) * (n - 1));
    jump(Math.max(0, Math.min(n - 1, i)));
  };
  svg.chartX = x;
}

export function moveCursor(svg, index) {
  const c = svg.querySelector("[data-cursor]");
  if (c && svg.chartX) { c.setAttribute("x1", svg.chartX(index)); c.setAttribute("x2", svg.chartX(index)); }
}

export function buildLegend(box, names, colours = SEAT_COLOURS) {
  clear(box);
  names.forEach((name, k) => box.append(h("span", { class: "seat-key" },
    h("span", { class: "seat-dot", style: `background:${colours[k]}`, "aria-hidden": "true" }), ` ${name}`), " "));
}

// ------------------------------------------------------------------------------------------ timeline markers
export function buildMarkers(box, story, jump) {
  clear(box);
  const n = story.turns.length;
  story.turns.forEach((t, i) => {
    if (!t.fault && !t.scoring) return;
    const kind = t.fault ? "fault" : "scoring";
    const label = interpolate(gettext("Turn %(turn)s: %(what)s"), { turn: i, what: t.fault
      ? interpolate(gettext("fault (%(kind)s)"), { kind: t.fault_name || t.fault }, true) : t.scoring }, true);
    const b = h("button", { type: "button", class: `mark mark-${kind}`, "data-jump": i, "data-mark": kind,
      title: label, "aria-label": label });
    b.style.left = `calc(${(100 * i) / Math.max(1, n - 1)}% - 5px)`;
    box.append(b);
  });
  box.onclick = (ev) => {
    const b = ev.target.closest("[data-jump]");
    if (b) jump(parseInt(b.dataset.jump, 10));
  };
}

// ------------------------------------------------------------------------------------------------ end screen
// Final ranking: the seats, and the game's own opponents (Minos solo: Rhadamanthus, `payload.opponents`) in
// their place. Total comes right after the name so that a phone, which hides the parts (viewer.css), keeps it.
export function buildEnd(box, payload, names, colours = SEAT_COLOURS) {
  clear(box);
  const story = payload.story;
  const result = payload.result || {};
  const rows = (result.seats || []).map((st) => ({ ...st, row: st.seat }));
  for (const op of payload.opponents || []) rows.push({ ...op, seat: null });
  rows.sort((a, b) => (a.rank ?? 99) - (b.rank ?? 99) || a.row - b.row);
  const partNames = story.part_names || {};
  const keys = Object.keys(story.parts[0] || {}).filter((k) => k !== "total");
  box.append(h("h3", { id: "end-h" }, gettext("End of the game")));
  const table = h("table", { class: "end-table" });
  table.append(h("caption", { class: "sr-only" }, gettext("Final ranking and each seat's score by part")));
  table.append(h("thead", {}, h("tr", {}, h("th", { scope: "col" }, gettext("Rank")), h("th", { scope: "col" }, gettext("Seat")),
    h("th", { scope: "col", class: "num" }, gettext("Total")),
    keys.map((k) => h("th", { scope: "col", class: "num part" }, partNames[k] || k)))));
  const body = h("tbody");
  for (const st of rows) {
    const parts = story.parts[st.row] || {};
    const opponent = st.seat == null;
    const row = h("tr", opponent ? { "data-opponent": st.name } : { "data-seat": st.seat },
      h("td", { class: "num" }, st.rank != null ? String(st.rank) : "—"),
      h("td", {}, h("span", { class: "seat-dot", style: `background:${colours[st.row]}`, "aria-hidden": "true" }), " ",
        names[st.row] || `seat ${st.row + 1}`, opponent ? h("span", { class: "muted" }, " (" + gettext("the game's automated opponent") + ")") : null,
        st.disqualified ? h("span", { class: "bad" }, " " + gettext("disqualified")) : null),
      h("td", { class: "num" }, h("strong", {}, fmt(st.score ?? parts.total ?? 0))),
      keys.map((k) => h("td", { class: "num part" }, fmt(parts[k] ?? 0))));
    body.append(row);
  }
  table.append(body);
  box.append(h("div", { class: "table-wrap" }, table));
}
