// Thebes renderer: the map (places, routes, archaeologists), the card display and exhibition slots, the time
// track with stacked markers, and one panel per player (cards, finds, exhibitions, knowledge, score).
// Draws `frame.observation` (arena.games.thebes ThebesState.observation) into the viewer's <svg> and panel.

import { gettext, interpolate, pgettext } from "../i18n.js";
import { clear, h, s, SEAT_COLOURS, seatText, textOn, title } from "./svg.js";

const placeName = (id) => PLACE_NAMES[id] || cap(id || "");

// Board geometry (our own schematic map of Europe and the Near East, 600 x 420 user units).
const PLACES = {
  london: [70, 70, "city"], paris: [125, 165, "city"], berlin: [255, 78, "city"], vienna: [285, 180, "city"],
  rome: [215, 270, "city"], moscow: [505, 48, "city"], warsaw: [395, 105, "exchange"],
  greece: [365, 265, "site"], crete: [320, 360, "site"], egypt: [405, 400, "site"],
  palestine: [520, 345, "site"], mesopotamia: [550, 235, "site"],
};
const ROUTES = [
  ["london", "paris"], ["london", "berlin"], ["paris", "berlin"], ["paris", "vienna"], ["paris", "rome"],
  ["berlin", "warsaw"], ["vienna", "warsaw"], ["vienna", "rome"], ["warsaw", "moscow"], ["warsaw", "greece"],
  ["rome", "greece"], ["rome", "crete"], ["greece", "crete"], ["greece", "mesopotamia"], ["crete", "egypt"],
  ["crete", "palestine"], ["egypt", "palestine"], ["palestine", "mesopotamia"],
];
export const SITE_COLOURS = {
  greece: "#e07b00", crete: "#7b3fa0", egypt: "#d4b000", palestine: "#2f8a3a", mesopotamia: "#1f5fb0",
};
// the short names on the card tiles (80 units wide) and the map's place names, in the page's language
const KIND_SHORT = {
  specialized_knowledge: pgettext("thebes card", "Knowledge"), general_knowledge: pgettext("thebes card", "General"),
  rumors: pgettext("thebes card", "Rumors"), assistant: pgettext("thebes card", "Assistant"),
  shovel: pgettext("thebes card", "Shovel"), car: pgettext("thebes card", "Car"),
  zeppelin: pgettext("thebes card", "Zeppelin"), special_permission: pgettext("thebes card", "Permission"),
  congress: pgettext("thebes card", "Congress"),
};
const PLACE_NAMES = {
  london: gettext("London"), paris: gettext("Paris"), berlin: gettext("Berlin"), vienna: gettext("Vienna"),
  rome: gettext("Rome"), moscow: gettext("Moscow"), warsaw: gettext("Warsaw"), greece: gettext("Greece"),
  crete: gettext("Crete"), egypt: gettext("Egypt"), palestine: gettext("Palestine"),
  mesopotamia: gettext("Mesopotamia"),
};
// the sites' short names on the card tiles: requirements (3 letters in English) and a card's site
const SITE_SHORT = {
  greece: pgettext("thebes requirement", "Gre"), crete: pgettext("thebes requirement", "Cre"),
  egypt: pgettext("thebes requirement", "Egy"), palestine: pgettext("thebes requirement", "Pal"),
  mesopotamia: pgettext("thebes requirement", "Mes"),
};
const SITE_ON_CARD = {
  greece: pgettext("thebes card site", "Greece"), crete: pgettext("thebes card site", "Crete"),
  egypt: pgettext("thebes card site", "Egypt"), palestine: pgettext("thebes card site", "Palestine"),
  mesopotamia: pgettext("thebes card site", "Mesop."),
};
// an exhibition's size (the game's data: small, large)
const SIZES = { small: pgettext("thebes exhibition", "small"), large: pgettext("thebes exhibition", "large") };
// the knowledge a player holds, by its key in the observation
const HOLDINGS = [
  ["general_knowledge", pgettext("thebes holding", "general")], ["assistants", pgettext("thebes holding", "assistants")],
  ["shovels", pgettext("thebes holding", "shovels")], ["cars", pgettext("thebes holding", "cars")],
  ["zeppelins", pgettext("thebes holding", "zeppelins")], ["special_permissions", pgettext("thebes holding", "permissions")],
  ["congress", pgettext("thebes holding", "congress")],
];
const list = (items) => items.join(pgettext("list", ", "));
const pts = (points) => interpolate(gettext("%(points)s pts"), { points }, true);
const weeks = (n) => interpolate(gettext("%(weeks)sw"), { weeks: n }, true);
const START_YEAR = 1901;
const WEEKS = 52;
const END_TIME = 3 * WEEKS; // week 1 of 1904

const cap = (t) => t.charAt(0).toUpperCase() + t.slice(1);

export function render(board, panel, frame, ctx) {
  const obs = frame.observation;
  clear(board);
  board.setAttribute("viewBox", "0 0 1000 640");
  drawMap(board, obs, frame, ctx);
  drawDisplay(board, obs);
  drawTimeTrack(board, obs, ctx);
  board.setAttribute("aria-label", boardSummary(obs, frame, ctx));
  drawPlayers(panel, obs, frame, ctx);
}

function boardSummary(obs, frame, ctx) {
  const where = obs.seats.map((p) => interpolate(gettext("%(name)s at %(place)s, %(year)s week %(week)s"),
    { name: ctx.seatName(p.seat), place: placeName(p.place), year: p.year, week: p.week }, true));
  return interpolate(gettext("Thebes board at turn %(turn)s: %(where)s."),
    { turn: frame.index, where: where.join(pgettext("list", "; ")) }, true);
}

// ------------------------------------------------------------------------------------------------------ map
function drawMap(svg, obs, frame, ctx) {
  const g = s("g", { class: "map", "aria-hidden": "true" });
  for (const [a, b] of ROUTES) {
    const [x1, y1] = PLACES[a];
    const [x2, y2] = PLACES[b];
    g.append(s("line", { x1, y1, x2, y2, stroke: "#a89b7c", "stroke-width": 3, "stroke-linecap": "round" }));
  }
  const bags = Object.fromEntries((obs.bags || []).map((bag) => [bag.site, bag]));
  for (const [id, [x, y, type]] of Object.entries(PLACES)) {
    const pg = s("g", { class: `place place-${id}`, "data-place": id });
    if (type === "site") {
      pg.append(s("circle", { cx: x, cy: y, r: 22, fill: SITE_COLOURS[id], stroke: "#3b3325", "stroke-width": 1.5 }));
      const bag = bags[id];
      if (bag) {
        pg.append(s("text", { x, y: y + 5, "text-anchor": "middle", "font-size": 14, fill: textOn(SITE_COLOURS[id]), "font-weight": 700 },
          String(bag.size)));
        pg.append(title(interpolate(bag.first_dig_bonus
          ? gettext("%(site)s: %(size)s tokens in the bag (%(artifacts)s artifacts, %(dirt)s dirt); first-dig bonus still there")
          : gettext("%(site)s: %(size)s tokens in the bag (%(artifacts)s artifacts, %(dirt)s dirt)"),
        { site: placeName(id), size: bag.size, artifacts: bag.artifacts.length, dirt: bag.dirt }, true)));
        if (bag.first_dig_bonus) {
          pg.append(s("circle", { cx: x + 17, cy: y - 17, r: 6, fill: "#ffd54a", stroke: "#3b3325" }));
        }
      }
    } else if (type === "exchange") {
      pg.append(s("rect", { x: x - 18, y: y - 18, width: 36, height: 36, rx: 6, fill: "#6d6875", stroke: "#3b3325" }));
    } else {
      pg.append(s("rect", { x: x - 16, y: y - 13, width: 32, height: 26, rx: 4, fill: "#c9b28a", stroke: "#3b3325" }));
    }
    pg.append(s("text", { x, y: y + (type === "site" ? 38 : 32), "text-anchor": "middle", "font-size": 13, fill: "#2b2418" },
      placeName(id)));
    g.append(pg);
  }
  // Archaeologists: one pawn per seat, fanned around the place they stand at.
  const byPlace = {};
  for (const p of obs.seats) (byPlace[p.place] ||= []).push(p);
  for (const [place, seats] of Object.entries(byPlace)) {
    const [x, y] = PLACES[place] || [300, 200];
    seats.forEach((p, i) => {
      const angle = -Math.PI / 2 + (i - (seats.length - 1) / 2) * 0.75;
      const px = x + Math.cos(angle) * 30;
      const py = y + Math.sin(angle) * 30 - 4;
      const mover = frame.seat === p.seat && frame.index > 0;
      const pawn = s("g", { class: "pawn", "data-seat": p.seat });
      pawn.append(s("circle", { cx: px, cy: py, r: 11, fill: SEAT_COLOURS[p.seat], stroke: mover ? "#111" : "#fff",
        "stroke-width": mover ? 3 : 2 }));
      pawn.append(s("text", { x: px, y: py + 4.5, "text-anchor": "middle", "font-size": 12, fill: seatText(p.seat), "font-weight": 700 },
        String(p.seat + 1)));
      pawn.append(title(interpolate(gettext("%(name)s at %(place)s"), { name: ctx.seatName(p.seat), place: placeName(place) }, true)));
      svg.append(pawn);
    });
  }
  svg.prepend(g);
  svg.prepend(s("rect", { x: 0, y: 0, width: 1000, height: 640, fill: "#f7f4ec" }));
}

// ---------------------------------------------------------------------------------------------- card display
function cardBox(x, y, card, opts = {}) {
  const w = opts.w || 84;
  const hgt = opts.h || 78;
  const g = s("g", { class: "card", "data-card": card ? card.id : "" });
  if (!card) {
    g.append(s("rect", { x, y, width: w, height: hgt, rx: 6, fill: "none", stroke: "#b9ae96", "stroke-dasharray": "4 3" }));
    if (opts.label) g.append(s("text", { x: x + w / 2, y: y + hgt / 2 + 4, "text-anchor": "middle", "font-size": 12, fill: "#9a8f78" }, opts.label));
    return g;
  }
  const exhibition = card.points != null;
  const band = exhibition ? "#8c2d19" : (SITE_COLOURS[card.site] || "#857a64");
  g.append(s("rect", { x, y, width: w, height: hgt, rx: 6, fill: "#fffdf7", stroke: "#6f6552" }));
  g.append(s("rect", { x, y, width: w, height: 18, rx: 6, fill: band }));
  g.append(s("text", { x: x + 5, y: y + 13, "font-size": 11, fill: textOn(band), "font-weight": 700 }, card.id));
  g.append(s("text", { x: x + w - 5, y: y + 13, "font-size": 11, fill: textOn(band), "text-anchor": "end" }, weeks(card.weeks)));
  let line1;
  let line2;
  if (exhibition) {
    line1 = `${SIZES[card.size] || card.size} · ${pts(card.points)}`;
    line2 = Object.entries(card.requirements || {}).map(([site, n]) => `${n} ${SITE_SHORT[site] || site}`).join(" · ");
  } else {
    line1 = KIND_SHORT[card.kind] || card.kind;
    const site = SITE_ON_CARD[card.site] || cap(card.site || "");
    line2 = card.site ? `${site}${card.value ? " +" + card.value : ""}` : (card.value ? `+${card.value}` : "");
  }
  g.append(s("text", { x: x + 5, y: y + 36, "font-size": 11, fill: "#2b2418" }, line1));
  g.append(s("text", { x: x + 5, y: y + 51, "font-size": 11, fill: "#4a4335" }, line2));
  g.append(s("text", { x: x + 5, y: y + hgt - 7, "font-size": 11, fill: "#6f6552" }, placeName(card.city)));
  g.append(title(exhibition
    ? interpolate(gettext("Exhibition %(card)s in %(city)s: %(weeks)s weeks, %(points)s points, needs %(needs)s"),
      { card: card.id, city: placeName(card.city), weeks: card.weeks, points: card.points,
        needs: list(Object.entries(card.requirements || {}).map(([site, n]) => `${n} ${placeName(site)}`)) }, true)
    : interpolate(gettext("%(card)s: %(kind)s in %(city)s, %(weeks)s weeks %(what)s"),
      { card: card.id, kind: KIND_SHORT[card.kind] || card.kind, city: placeName(card.city), weeks: card.weeks, what: line2 }, true)));
  return g;
}

function drawDisplay(svg, obs) {
  const g = s("g", { class: "display" });
  g.append(s("text", { x: 620, y: 24, "font-size": 15, "font-weight": 700, fill: "#2b2418" }, gettext("Researcher cards")));
  const display = obs.display || [];
  for (let i = 0; i < 4; i++) g.append(cardBox(620 + i * 92, 34, display[i], { label: gettext("empty") }));
  g.append(s("text", { x: 620, y: 140, "font-size": 15, "font-weight": 700, fill: "#2b2418" }, gettext("Exhibitions")));
  const bySlot = Object.fromEntries((obs.exhibitions || []).map((x) => [x.slot, x]));
  ["a", "b", "c"].forEach((slot, i) => g.append(cardBox(620 + i * 124, 150, bySlot[slot], { label: interpolate(gettext("slot %(slot)s"), { slot }, true), w: 118 })));
  // Piles: the omniscient view knows the draw order, a seat's view only the count.
  const pile = obs.draw_pile && obs.draw_pile.length
    ? interpolate(gettext("Draw pile %(count)s: next %(cards)s"), { count: obs.draw_pile_count, cards: list(obs.draw_pile.slice(0, 4)) }, true)
    : interpolate(gettext("Draw pile %(count)s cards (order hidden)"), { count: obs.draw_pile_count }, true);
  g.append(s("text", { x: 620, y: 252, "font-size": 12, fill: "#2b2418", "data-pile": "" }, pile));
  g.append(s("text", { x: 620, y: 270, "font-size": 12, fill: "#2b2418" },
    interpolate(obs.stack3_used ? gettext("Stack 3: %(count)s cards (in play) · discard %(discard)s")
      : gettext("Stack 3: %(count)s cards · discard %(discard)s"), { count: obs.stack3_count, discard: (obs.discard || []).length }, true)));
  if (obs.exchange_run_count > 0 && obs.exchange_run_seat >= 0) {
    g.append(s("text", { x: 620, y: 288, "font-size": 12, fill: "#2b2418" },
      interpolate(gettext("Warsaw exchanges in a row: seat %(seat)s × %(count)s"), { seat: obs.exchange_run_seat + 1, count: obs.exchange_run_count }, true)));
  }
  svg.append(g);
}

// ------------------------------------------------------------------------------------------------ time track
function drawTimeTrack(svg, obs, ctx) {
  const g = s("g", { class: "time-track" });
  const x0 = 20;
  const y0 = 470;
  const cw = 35;
  const ch = 58;
  g.append(s("text", { x: x0, y: y0 - 14, "font-size": 15, "font-weight": 700, fill: "#2b2418" }, gettext("Time track (weeks of the year)")));
  for (let w = 1; w <= WEEKS; w++) {
    const row = w <= 26 ? 0 : 1;
    const col = row ? w - 27 : w - 1;
    const x = x0 + col * cw;
    const y = y0 + row * (ch + 18);
    g.append(s("rect", { x, y, width: cw - 2, height: ch, fill: w % 13 === 1 ? "#efe6d2" : "#fbf8f0", stroke: "#c9bfa8" }));
    g.append(s("text", { x: x + 2, y: y + ch + 12, "font-size": 11, fill: "#6b6250" }, String(w)));
  }
  // Stack markers standing on the same week: the seat that acts first (last to arrive) is drawn on top.
  const order = obs.turn_order || [];
  const rankInOrder = (seat) => { const i = order.indexOf(seat); return i < 0 ? 99 : i; };
  const byTime = {};
  for (const p of obs.seats) (byTime[p.time] ||= []).push(p);
  for (const [time, seats] of Object.entries(byTime)) {
    seats.sort((a, b) => rankInOrder(b.seat) - rankInOrder(a.seat)); // bottom of the stack first
    seats.forEach((p, i) => {
      let x;
      let y;
      if (Number(time) >= END_TIME) {
        x = x0 + 26 * cw + 8;
        y = y0 + 20;
      } else {
        const w = p.week;
        const row = w <= 26 ? 0 : 1;
        const col = row ? w - 27 : w - 1;
        x = x0 + col * cw + 1;
        y = y0 + row * (ch + 18);
      }
      const my = y + ch - 14 - i * 13.5;
      const m = s("g", { class: "marker", "data-seat": p.seat, "data-week": p.week, "data-year": p.year });
      m.append(s("rect", { x, y: my, width: cw - 4, height: 13, rx: 3, fill: SEAT_COLOURS[p.seat], stroke: "#fff" }));
      m.append(s("text", { x: x + (cw - 4) / 2, y: my + 10, "text-anchor": "middle", "font-size": 11, fill: seatText(p.seat), "font-weight": 700 },
        `${p.seat + 1}·'${String(p.year).slice(2)}`));
      m.append(title(interpolate(p.finished ? gettext("%(name)s: %(year)s, week %(week)s (finished)")
        : gettext("%(name)s: %(year)s, week %(week)s"), { name: ctx.seatName(p.seat), year: p.year, week: p.week }, true)));
      g.append(m);
    });
  }
  const ex = x0 + 26 * cw + 8;
  g.append(s("rect", { x: ex - 2, y: y0, width: 40, height: ch, fill: "none", stroke: "#8c2d19", "stroke-dasharray": "3 2" }));
  g.append(s("text", { x: ex, y: y0 - 2, "font-size": 11, fill: "#8c2d19" }, interpolate(gettext("end %(year)s"), { year: 1904 }, true)));
  svg.append(g);
}

// -------------------------------------------------------------------------------------------- player panels
function chip(text, cls = "", tip = "") {
  const el = h("span", { class: `chip ${cls}` }, text);
  if (tip) el.title = tip;
  return el;
}

function drawPlayers(panel, obs, frame, ctx) {
  clear(panel);
  // The card display again as text: readable on a phone without panning the board.
  const shown = (obs.display || []).filter(Boolean).map((c) => chip(`${c.id} ${KIND_SHORT[c.kind] || c.kind}` +
    (c.site ? ` ${placeName(c.site)}` : "") + (c.value ? ` +${c.value}` : "") + ` · ${placeName(c.city)} ${weeks(c.weeks)}`, c.site ? `site-${c.site}` : ""));
  const exh = (obs.exhibitions || []).map((x) => chip(`${x.slot}: ${x.id} ${pts(x.points)} · ${placeName(x.city)}`));
  panel.append(h("section", { class: "vp-display", "data-display": "", "aria-label": gettext("Card display") },
    h("div", { class: "row" }, h("strong", {}, gettext("Display:") + " "), shown.length ? shown : h("span", { class: "muted" }, gettext("empty"))),
    h("div", { class: "row" }, h("strong", {}, gettext("Exhibitions:") + " "), exh.length ? exh : h("span", { class: "muted" }, gettext("none")))));
  for (const p of obs.seats) {
    const viewer = ctx.view === p.seat;
    const box = h("section", { class: "vp" + (obs.current_player === p.seat ? " to-move" : ""), "data-seat": p.seat,
      "aria-label": `${ctx.seatName(p.seat)}` });
    box.style.setProperty("--seat", SEAT_COLOURS[p.seat]);
    const score = p.score || {};
    box.append(h("h3", {}, h("span", {}, `${ctx.seatName(p.seat)}${viewer ? " — " + gettext("this view") : ""}`),
      h("span", { "data-score": "" }, interpolate(gettext("%(points)s pts"), { points: score.total ?? 0 }, true))));
    box.append(h("div", { class: "row" },
      `${placeName(p.place)} · ` + interpolate(gettext("%(year)s week %(week)s"), { year: p.year, week: p.week }, true)
        + (p.finished ? " · " + gettext("finished") : ""),
      obs.current_player === p.seat ? " · " + gettext("to move") : ""));
    const cards = (p.cards || []).map((c) => chip(c.id + " " + (KIND_SHORT[c.kind] || c.kind) + (c.site ? " " + placeName(c.site) : "") + (c.value ? " +" + c.value : ""),
      c.site ? `site-${c.site}` : "", interpolate(gettext("%(card)s from %(city)s"), { card: c.id, city: placeName(c.city) }, true)));
    box.append(h("div", { class: "row" }, h("strong", {}, gettext("Cards:") + " "), cards.length ? cards : h("span", { class: "muted" }, gettext("none"))));
    const finds = (p.tokens || []).map((t) => chip(t.kind === "artifact" ? `${placeName(t.site)} ${t.value}`
      : t.kind === "specialized" ? `${placeName(t.site)}: +1 ${placeName(t.knowledge_site)}`
        : interpolate(gettext("%(site)s: +1 general"), { site: placeName(t.site) }, true), `site-${t.site}`));
    box.append(h("div", { class: "row" }, h("strong", {}, gettext("Finds:") + " "), finds.length ? finds : h("span", { class: "muted" }, gettext("none"))));
    if ((p.exhibitions || []).length) {
      box.append(h("div", { class: "row" }, h("strong", {}, gettext("Exhibitions:") + " "),
        p.exhibitions.map((x) => chip(`${x.id} ${pts(x.points)}`))));
    }
    const books = Object.entries(p.books || {}).filter(([, n]) => n).map(([site, n]) => chip(`${placeName(site)} ${n}`, `site-${site}`));
    const extras = [];
    for (const [key, label] of HOLDINGS) {
      if (p[key]) extras.push(chip(`${label} ${p[key]}`));
    }
    for (const site of p.rumors || []) extras.push(chip(interpolate(gettext("rumors %(site)s"), { site: placeName(site) }, true), `site-${site}`));
    box.append(h("div", { class: "row" }, h("strong", {}, gettext("Knowledge:") + " "), books.length || extras.length ? [...books, ...extras] : h("span", { class: "muted" }, gettext("none"))));
    if ((p.permits_used || []).length) {
      box.append(h("div", { class: "row small" }, interpolate(gettext("Permits used this year: %(sites)s"), { sites: list(p.permits_used.map(placeName)) }, true)));
    }
    box.append(h("div", { class: "row small muted" },
      interpolate(gettext("Score: artifacts %(artifacts)s, exhibitions %(exhibitions)s, congress %(congress)s, majorities %(majority)s"),
        { artifacts: score.artifacts ?? 0, exhibitions: score.exhibitions ?? 0, congress: score.congress ?? 0, majority: score.majority ?? 0 }, true)));
    panel.append(box);
  }
  const hiddenNote = obs.draw_pile && obs.draw_pile.length
    ? gettext("Omniscient view: the draw pile's order is shown.")
    : gettext("Seat view: the draw pile's order is hidden.");
  panel.append(h("p", { class: "small muted", "data-view-note": "" }, hiddenNote));
}
