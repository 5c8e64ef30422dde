// Minos renderer: the action board with its dice, the ten regions (warriors, cities, towers, farms, sea),
// the card offer, vases and supplies, and one panel per player. Draws `frame.observation`
// (arena.games.minos observation) into the viewer's <svg> and panel; hidden cards show as hidden.

import { gettext, interpolate, ngettext, pgettext } from "../i18n.js";
import { clear, h, s, textOn, title } from "./svg.js";

// the action rows by the game's terms in the page's language (RULES.md, "Terms")
const ACTION_NAMES = {
  prepare: gettext("Prepare"), develop: gettext("Develop"), build: gettext("Build"), expand: gettext("Expand"),
  wild: gettext("Wild"),
};

const DIE_FILL = { red: "#c8372d", blue: "#2a62b8", yellow: "#e8b400", grey: "#8a8f98", white: "#f4f4f4" };
// the phases of a round (the observation's `phase`), as the rules name them
const PHASES = {
  setup: pgettext("minos phase", "setup"), setup_pick: pgettext("minos phase", "setup"),
  start_region: pgettext("minos phase", "starting region"), draft: pgettext("minos phase", "draft"),
  keep: pgettext("minos phase", "draft"), actions: pgettext("minos phase", "actions"),
  groups: pgettext("minos phase", "groups"), groups_apply: pgettext("minos phase", "groups"),
  palace: pgettext("minos phase", "palace"), income: pgettext("minos phase", "income"),
  final_combat: pgettext("minos phase", "final combat"), over: pgettext("minos phase", "game over"),
};
const DIE_COLOURS = {
  red: pgettext("minos die", "red"), blue: pgettext("minos die", "blue"), yellow: pgettext("minos die", "yellow"),
  grey: pgettext("minos die", "grey"), white: pgettext("minos die", "white"),
};
const phaseName = (phase) => PHASES[phase] || phase;
// the pending decision (rules §15.1: the protocol's names): the common ones in words, any other by its name
const DECISIONS = {
  turn: pgettext("minos decision", "action turn"), retrieve: pgettext("minos decision", "retrieve a die"),
  setup_palace: pgettext("minos decision", "palace card"), temp_good: pgettext("minos decision", "temporary good"),
};
const decisionName = (decision) => DECISIONS[decision] || PHASES[decision] || decision;
const list = (items) => items.join(pgettext("list", ", "));
const GOODS = ["wood", "stone", "clay", "wool", "oil", "wine"];
// the goods by the game's terms in the page's language (RULES.md, "Terms")
const GOOD_NAMES = {
  wood: pgettext("minos good", "wood"), stone: pgettext("minos good", "stone"), clay: pgettext("minos good", "clay"),
  wool: pgettext("minos good", "wool"), oil: pgettext("minos good", "oil"), wine: pgettext("minos good", "wine"),
};

// The map: two rows (north and south coast) of up to 8 columns, as in data.json's layout note; regions 11-16
// join for 3 and 4 players. REGION_AT[id] = [row, column].
const REGION_AT = {
  1: [0, 0], 2: [1, 0], 3: [0, 1], 4: [1, 3], 5: [1, 1], 6: [0, 2], 7: [0, 4], 8: [1, 2],
  9: [0, 3], 10: [1, 4], 11: [0, 5], 12: [1, 5], 13: [0, 6], 14: [1, 6], 15: [0, 7], 16: [1, 7],
};
const VIEW_W = 1000;
const VIEW_H = 660;
const MAP = { x: 16, y: 40, w: 968, h: 296 };
const ACTIONS = { x: 16, y: 346, w: 318, h: 300 };
const SUPPLY = { x: 344, y: 346, w: 640, h: 300 };

const named = (ctx, id) => (ctx.glossary || {})[String(id).split("#")[0]] || "";

// `text` cut to what fits in `width` user units at `size` (an average glyph of system-ui is about 0.56 em wide),
// so that a label stays inside its tile; the whole text goes in the tile's tooltip.
// `text` cut to what `width` holds at font `size`: a Latin letter takes about 0.56 em, a CJK character a whole em
function fit(text, width, size) {
  const em = (ch) => (/[\u2e80-\u9fff\uac00-\ud7af\uff00-\uffef]/.test(ch) ? 1 : 0.56);
  const room = width / size;
  let used = 0;
  const chars = Array.from(text);
  for (let i = 0; i < chars.length; i++) {
    used += em(chars[i]);
    if (used > room) return chars.slice(0, Math.max(1, i - 1)).join("") + "…";
  }
  return text;
}

export function render(board, panel, frame, ctx) {
  const obs = frame.observation;
  clear(board);
  board.setAttribute("viewBox", `0 0 ${VIEW_W} ${VIEW_H}`);
  board.append(s("rect", { x: 0, y: 0, width: VIEW_W, height: VIEW_H, fill: "#eef3f6" }));
  board.append(s("text", { x: 16, y: 26, "font-size": 16, "font-weight": 700, fill: "#1d2330" },
    interpolate(gettext("Round %(round)s · era %(era)s"), { round: obs.round, era: obs.era }, true)
    + ` · ${phaseName(obs.phase)}${obs.decision && decisionName(obs.decision) !== phaseName(obs.phase) ? " / " + decisionName(obs.decision) : ""}` +
    (obs.current_player >= 0 ? " · " + interpolate(gettext("%(name)s to act"), { name: ctx.seatName(obs.current_player) }, true) : "")));
  drawRegions(board, obs, ctx);
  drawActionBoard(board, obs, ctx);
  drawSupplies(board, obs, ctx);
  board.setAttribute("aria-label", interpolate(gettext("Minos board at turn %(turn)s: round %(round)s, era %(era)s, phase %(phase)s."), { turn: frame.index, round: obs.round, era: obs.era, phase: phaseName(obs.phase) }, true));
  drawPlayers(panel, obs, ctx);
  if (ctx.legend && !ctx.legend.childNodes.length) drawLegend(ctx.legend, obs, ctx);
}

// What the pieces on the board are: drawn with the same shapes, in the first seat's colour.
function drawLegend(box, obs, ctx) {
  const icon = (...shapes) => s("svg", { width: 30, height: 24, viewBox: "0 0 30 24", "aria-hidden": "true" }, ...shapes);
  const c = ctx.colour(0);
  const items = [
    [icon(s("path", { d: "M4 21 l11 -11 l11 11 z", fill: c, stroke: "#333" })), gettext("city")],
    [icon(s("rect", { x: 11, y: 2, width: 9, height: 20, fill: "#555" })), gettext("tower (beside a city)")],
    [icon(s("rect", { x: 6, y: 4, width: 18, height: 18, rx: 2, fill: c, stroke: "#6a8a6a" })), gettext("farm")],
    [icon(s("rect", { x: 6, y: 4, width: 18, height: 18, rx: 2, fill: "none", stroke: "#6a8a6a", "stroke-dasharray": "2 2" })), gettext("free farm space")],
    [icon(s("rect", { x: 3, y: 4, width: 24, height: 17, rx: 3, fill: c }),
      s("text", { x: 15, y: 17, "text-anchor": "middle", "font-size": 11, "font-weight": 700, fill: textOn(c) }, "3")), gettext("warriors (how many)")],
    [icon(s("rect", { x: 4, y: 1, width: 22, height: 22, rx: 5, fill: DIE_FILL.red, stroke: c, "stroke-width": 3 })), gettext("die ring: the player who placed it")],
  ];
  box.append(h("strong", {}, gettext("Pieces:")));
  for (const [svg, label] of items) box.append(h("span", {}, svg, " ", label));
  if (obs.bot) {
    box.append(h("span", {}, h("span", { class: "seat-dot", style: `background:${ctx.colour(1)}`, "aria-hidden": "true" }),
      " " + interpolate(gettext("%(name)s, the game's automated opponent"), { name: ctx.seatName(1) }, true)));
  }
  box.hidden = false;
}

function panelBox(svg, box, label, cls) {
  const g = s("g", { class: `panel ${cls}`, "data-panel": cls });
  g.append(s("rect", { x: box.x, y: box.y, width: box.w, height: box.h, rx: 8, fill: "#f9fbfc", stroke: "#b8c2cc",
    class: "panel-frame" }));
  g.append(s("text", { x: box.x + 10, y: box.y + 18, "font-size": 14, "font-weight": 700, fill: "#1d2330" }, label));
  svg.append(g);
  return g;
}

function drawActionBoard(svg, obs, ctx) {
  const rows = [];
  for (const d of obs.dice || []) if (d.row && !rows.includes(d.row)) rows.push(d.row);
  for (const r of ["prepare", "develop", "build", "expand", "wild"]) if (!rows.includes(r)) rows.push(r);
  const g = panelBox(svg, ACTIONS, gettext("Actions"), "action-board");
  const x0 = ACTIONS.x + 8;
  rows.forEach((row, i) => {
    const y = ACTIONS.y + 26 + i * 34;
    g.append(s("rect", { x: x0, y, width: ACTIONS.w - 16, height: 30, rx: 5, fill: "#fff", stroke: "#b8c2cc" }));
    g.append(s("text", { x: x0 + 6, y: y + 20, "font-size": 13, fill: "#1d2330" }, ACTION_NAMES[row] || row));
    const dice = (obs.dice || []).filter((d) => d.row === row).sort((a, b) => a.slot - b.slot);
    dice.forEach((d, j) => g.append(die(x0 + 86 + j * 33, y + 2, d, ctx)));
  });
  const pool = (obs.dice || []).filter((d) => !d.row);
  const py = ACTIONS.y + 26 + rows.length * 34 + 4;
  g.append(s("text", { x: x0, y: py + 18, "font-size": 13, fill: "#1d2330" }, gettext("Unplaced")));
  pool.forEach((d, j) => g.append(die(x0 + 74 + (j % 7) * 32, py + Math.floor(j / 7) * 31, d, ctx)));
}

function die(x, y, d, ctx) {
  // an unplaced die is also named by its face: a draft action names the colour and value, not the die
  const g = s("g", { class: "die", "data-die": d.id, ...(d.row ? {} : { "data-die-face": `${d.colour}${d.value}` }) });
  const owner = d.owner >= 0 ? ctx.colour(d.owner) : "#555";
  g.append(s("rect", { x, y, width: 26, height: 26, rx: 5, fill: DIE_FILL[d.colour] || "#ccc", stroke: owner,
    "stroke-width": d.owner >= 0 ? 3 : 1, opacity: d.retrieved ? 0.45 : 1 }));
  g.append(s("text", { x: x + 13, y: y + 18, "text-anchor": "middle", "font-size": 14, "font-weight": 700,
    fill: textOn(DIE_FILL[d.colour] || "#cccccc") }, String(d.value)));
  const said = { colour: DIE_COLOURS[d.colour] || d.colour, value: d.value, name: d.owner >= 0 ? ctx.seatName(d.owner) : "" };
  const what = d.owner >= 0 ? gettext("%(colour)s die %(value)s, placed by %(name)s") : gettext("%(colour)s die %(value)s");
  g.append(title(interpolate(what, said, true) + (d.retrieved ? " " + gettext("(retrieved)") : "")));
  return g;
}

function drawRegions(svg, obs, ctx) {
  const regions = obs.regions || [];
  const cols = Math.max(1, ...regions.map((r) => ((REGION_AT[r.id] || [0, 0])[1]) + 1));
  const g = panelBox(svg, MAP, gettext("Crete"), "regions");
  const cw = (MAP.w - 16) / cols;
  const rh = (MAP.h - 30) / 2;
  regions.forEach((r) => {
    const [row, col] = REGION_AT[r.id] || [0, 0];
    const x = MAP.x + 8 + col * cw;
    const y = MAP.y + 24 + row * rh;
    const w = cw - 6;
    const hh = rh - 6;
    const rg = s("g", { class: "region", "data-region": r.id });
    rg.append(s("rect", { x, y, width: w, height: hh, rx: 8, fill: row ? "#f8f3e6" : "#fdfbf5", stroke: "#a8a28f",
      class: "region-frame" }));
    const name = named(ctx, `region${r.id}`);
    rg.append(s("text", { x: x + 6, y: y + 16, "font-size": 13, "font-weight": 700, fill: "#1d2330" }, fit(`${r.id} ${name}`, w - 10, 13)));
    rg.append(s("text", { x: x + 6, y: y + 31, "font-size": 11, fill: "#3d4556" }, fit(list((r.icons || []).map((k) => GOOD_NAMES[k] || k)), w - 10, 11)));
    const seats = (r.warriors || []).length;
    const ww = Math.min(26, (w - 12) / Math.max(1, seats));
    (r.warriors || []).forEach((n, seat) => {
      if (!n) return;
      rg.append(s("rect", { x: x + 6 + seat * ww, y: y + 35, width: ww - 3, height: 17, rx: 3, fill: ctx.colour(seat) }));
      rg.append(s("text", { x: x + 6 + seat * ww + (ww - 3) / 2, y: y + 48, "text-anchor": "middle", "font-size": 11,
        fill: textOn(ctx.colour(seat)), "font-weight": 700 }, String(n)));
    });
    if (r.city >= 0) {
      rg.append(s("path", { d: `M${x + 8} ${y + 74} l11 -11 l11 11 v11 h-22 z`, fill: ctx.colour(r.city), stroke: "#333" }));
    }
    if (r.tower) rg.append(s("rect", { x: x + 34, y: y + 58, width: 9, height: 27, fill: "#555" }));
    (r.farms || []).forEach((f, k) => {
      rg.append(s("rect", { x: x + 50 + k * 22, y: y + 67, width: 18, height: 18, rx: 2,
        fill: f >= 0 ? ctx.colour(f) : "none", stroke: "#6a8a6a", "stroke-dasharray": f >= 0 ? "" : "2 2" }));
    });
    const foundation = r.foundation ? named(ctx, r.foundation) || r.foundation : "";
    if (foundation) rg.append(s("text", { x: x + 6, y: y + 100, "font-size": 11, fill: "#1d2330" }, fit(foundation, w - 10, 11)));
    const sea = (r.sea || []).map((t) => (t === "hidden" ? "?" : (/^SP(\d)/.exec(t) || [, t])[1]));
    if (sea.length) {
      rg.append(s("text", { x: x + 6, y: y + 116, "font-size": 11, fill: "#1f3f5f" },
        fit(interpolate(gettext("Sea Peoples %(levels)s"), { levels: list(sea) }, true), w - 10, 11)));
    }
    const seaFull = list((r.sea || []).map((t) => (t === "hidden" ? gettext("a hidden tile") : named(ctx, t) || t)));
    const parts = [interpolate(gettext("Region %(id)s %(name)s: warriors %(warriors)s"), { id: r.id, name, warriors: (r.warriors || []).join("/") }, true)];
    if (r.city >= 0) {
      parts.push(interpolate(r.tower ? gettext("city of %(name)s with a tower") : gettext("city of %(name)s"), { name: ctx.seatName(r.city) }, true));
    }
    if (foundation) parts.push(`${foundation} (${r.foundation})`);
    if (seaFull) parts.push(`${seaFull} (${list(r.sea)})`);
    rg.append(title(parts.join(pgettext("list", "; "))));
    g.append(rg);
  });
}

// Words into at most `lines` lines of at most `width` characters (the last one cut with "…").
function wrap(text, width, lines) {
  const out = [];
  let cur = "";
  for (const word of text.split(" ")) {
    if (cur && (cur + " " + word).length > width) { out.push(cur); cur = word; } else cur = cur ? cur + " " + word : word;
  }
  if (cur) out.push(cur);
  if (out.length > lines) { out.length = lines; out[lines - 1] = out[lines - 1].slice(0, width - 1) + "…"; }
  return out.map((l) => (l.length > width ? l.slice(0, width - 1) + "…" : l));
}

function drawSupplies(svg, obs, ctx) {
  const g = panelBox(svg, SUPPLY, gettext("Offer"), "offer");
  const x0 = SUPPLY.x + 8;
  const offer = obs.offer || [];
  const cw = (SUPPLY.w - 16) / 5;
  offer.forEach((c, i) => {
    const x = x0 + i * cw;
    const card = s("g", { class: "offer-card", "data-card": c });
    card.append(s("rect", { x, y: SUPPLY.y + 24, width: cw - 6, height: 54, rx: 5, fill: "#fff", stroke: "#777" }));
    wrap(named(ctx, c) || c, 14, 2).forEach((line, k) => card.append(s("text", { x: x + 5, y: SUPPLY.y + 38 + k * 14,
      "font-size": 11, "font-weight": 700, fill: "#1d2330" }, line)));
    card.append(title(`${named(ctx, c)} (${c})`));
    g.append(card);
  });
  g.append(s("text", { x: x0, y: SUPPLY.y + 98, "font-size": 12, fill: "#1d2330" },
    interpolate(gettext("Decks: I %(deck_i)s, II %(deck_ii)s · discards: I %(discard_i)s, II %(discard_ii)s · goods pile %(pile)s"),
      { deck_i: obs.deck_i, deck_ii: obs.deck_ii, discard_i: obs.discard_i, discard_ii: obs.discard_ii, pile: obs.goods_pile }, true)));
  const stacks = obs.goods_stacks || {};
  g.append(s("text", { x: x0, y: SUPPLY.y + 116, "font-size": 12, fill: "#1d2330" },
    interpolate(gettext("Goods: %(goods)s"), { goods: list(GOODS.filter((k) => k in stacks).map((k) => `${GOOD_NAMES[k]} ${stacks[k]}`)) }, true)));
  g.append(s("text", { x: x0, y: SUPPLY.y + 140, "font-size": 14, "font-weight": 700, fill: "#1d2330" }, gettext("Vases")));
  // (vases below the offer, decks and goods)
  const vases = obs.vases || [];
  const vw = (SUPPLY.w - 16) / Math.max(3, vases.length);
  vases.forEach((v, i) => {
    const x = x0 + i * vw;
    const y = SUPPLY.y + 148;
    const vg = s("g", { class: "vase", "data-vase": v.id });
    vg.append(s("rect", { x, y, width: vw - 8, height: 56, rx: 6, fill: "#fff", stroke: DIE_FILL[v.colour] || "#777", "stroke-width": 2 }));
    vg.append(s("text", { x: x + 6, y: y + 17, "font-size": 11, "font-weight": 700, fill: "#1d2330" },
      wrap(named(ctx, v.id) || v.id, 27, 1)[0]));
    vg.append(s("text", { x: x + 6, y: y + 38, "font-size": 12, fill: "#1d2330" },
      (v.slots || []).map((sl) => `${interpolate(gettext("%(vp)s VP"), { vp: sl.vp }, true)}${sl.seat >= 0 ? " → " + (sl.seat < ctx.seats.length ? sl.seat + 1 : "R") : ""}`).join(" · ")));
    vg.append(title(`${named(ctx, v.id)} (${v.id})`));
    g.append(vg);
  });
  if (obs.bot) {
    g.append(s("rect", { x: x0, y: SUPPLY.y + 221, width: 14, height: 14, rx: 3, fill: ctx.colour(1) }));
    g.append(s("text", { x: x0 + 20, y: SUPPLY.y + 232, "font-size": 12, fill: "#1d2330" },
      interpolate(gettext("%(name)s: %(vp)s VP · supply %(supply)s · %(cards)s cards in its deck"),
        { name: ctx.seatName(1), vp: obs.bot.vp, supply: obs.bot.supply, cards: obs.bot.deck_size }, true)));
  }
}

function chip(text, tip = "") {
  const el = h("span", { class: "chip" }, text);
  if (tip) el.title = tip;
  return el;
}

function drawPlayers(panel, obs, ctx) {
  clear(panel);
  // The card offer again as text: readable on a phone without panning the board.
  const offer = (obs.offer || []).map((c, i) => chip(`${i + 1}. ${named(ctx, c) || c}`, c));
  panel.append(h("section", { class: "vp-display", "data-display": "", "aria-label": gettext("Card offer") },
    h("div", { class: "row" }, h("strong", {}, gettext("Offer:") + " "), offer.length ? offer : h("span", { class: "muted" }, gettext("empty")))));
  for (const p of obs.player_states || []) {
    const box = h("section", { class: "vp" + (obs.current_player === p.seat ? " to-move" : ""), "data-seat": p.seat,
      "aria-label": ctx.seatName(p.seat) });
    box.style.setProperty("--seat", ctx.colour(p.seat));
    box.append(h("h3", {}, h("span", {}, ctx.seatName(p.seat) + (ctx.view === p.seat ? " — " + gettext("this view") : "")),
      h("span", { "data-score": "" }, interpolate(gettext("%(vp)s VP"), { vp: p.vp }, true))));
    box.append(h("div", { class: "row" }, interpolate(gettext("coins %(coins)s · weapons %(weapons)s · income %(income)s"), p, true)));
    const goods = GOODS.map((k) => `${GOOD_NAMES[k]} ${(p.temp_goods || {})[k] || 0}/${(p.perm_goods || {})[k] || 0}`);
    box.append(h("div", { class: "row small" }, gettext("Goods (temporary/permanent):") + " " + list(goods)));
    const hidden = (p.hand_unknown_i || 0) + (p.hand_unknown_ii || 0);
    const hand = (p.hand || []).map((c) => chip(`${named(ctx, c) || c}`, c));
    if (hidden) hand.push(h("span", { class: "hidden" }, interpolate(ngettext("%(n)s hidden card", "%(n)s hidden cards", hidden), { n: hidden }, true)));
    box.append(h("div", { class: "row" }, h("strong", {}, interpolate(gettext("Hand (%(n)s):"), { n: p.hand_count }, true) + " "), hand.length ? hand : h("span", { class: "muted" }, gettext("empty"))));
    const palace = (p.palace || []).map((c) => (c.card ? chip(named(ctx, c.card) || c.card, `${c.card}: ${c.trait}`) : h("span", { class: "hidden chip", title: c.trait }, interpolate(gettext("hidden %(era)s"), { era: c.era }, true))));
    box.append(h("div", { class: "row" }, h("strong", {}, gettext("Palace:") + " "), palace.length ? palace : h("span", { class: "muted" }, gettext("empty"))));
    if ((p.play_area || []).length) box.append(h("div", { class: "row" }, h("strong", {}, gettext("Played:") + " "), p.play_area.map((c) => (typeof c === "string" ? chip(named(ctx, c) || c, c) : chip(JSON.stringify(c))))));
    const tracks = Object.entries(p.tracks || {}).map(([k, v]) => `${k} ${v}`).join(", ");
    const ships = Object.entries(p.ships || {}).map(([k, v]) => `${k} ${v}`).join(", ");
    box.append(h("div", { class: "row small" }, interpolate(gettext("Tracks: %(tracks)s · ships: %(ships)s"), { tracks, ships }, true)));
    panel.append(box);
  }
}
