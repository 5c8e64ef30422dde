// Minos renderer: the action board with its dice, the ten regions (warriors, cities, towers, farms, sea),
// the card offer, vases and supplies, and one panel per player. Draws `frame.observation`
// (arena.games.minos observation) into the viewer's <svg> and panel; hidden cards show as hidden.

import { clear, h, s, SEAT_COLOURS, title } from "./svg.js";
import { seatName } from "./viewer.js";

const DIE_FILL = { red: "#c8372d", blue: "#2a62b8", yellow: "#e8b400", grey: "#8a8f98", white: "#f4f4f4" };
const GOODS = ["wood", "stone", "clay", "wool", "oil", "wine"];

export function render(board, panel, frame, ctx) {
  const obs = frame.observation;
  clear(board);
  board.setAttribute("viewBox", "0 0 1000 640");
  board.append(s("rect", { x: 0, y: 0, width: 1000, height: 640, fill: "#eef3f6" }));
  board.append(s("text", { x: 16, y: 26, "font-size": 16, "font-weight": 700, fill: "#1d2330" },
    `Round ${obs.round} · era ${obs.era} · ${obs.phase}${obs.decision ? " / " + obs.decision : ""}` +
    (obs.current_player >= 0 ? ` · ${seatName(ctx, obs.current_player)} to act` : "")));
  drawActionBoard(board, obs);
  drawRegions(board, obs, ctx);
  drawSupplies(board, obs);
  board.setAttribute("aria-label", `Minos board at turn ${frame.index}: round ${obs.round}, era ${obs.era}, phase ${obs.phase}.`);
  drawPlayers(panel, obs, ctx);
}

function drawActionBoard(svg, obs) {
  const rows = [];
  for (const d of obs.dice || []) if (d.row && !rows.includes(d.row)) rows.push(d.row);
  for (const r of ["develop", "build", "expand", "prepare", "wild"]) if (!rows.includes(r)) rows.push(r);
  const g = s("g", { class: "action-board" });
  g.append(s("text", { x: 16, y: 56, "font-size": 14, "font-weight": 700 }, "Actions"));
  rows.forEach((row, i) => {
    const y = 66 + i * 40;
    g.append(s("rect", { x: 16, y, width: 300, height: 34, rx: 5, fill: "#fff", stroke: "#b8c2cc" }));
    g.append(s("text", { x: 24, y: y + 22, "font-size": 13 }, row));
    const dice = (obs.dice || []).filter((d) => d.row === row).sort((a, b) => a.slot - b.slot);
    dice.forEach((d, j) => g.append(die(110 + j * 36, y + 3, d)));
  });
  const pool = (obs.dice || []).filter((d) => !d.row);
  const py = 66 + rows.length * 40 + 8;
  g.append(s("text", { x: 16, y: py + 18, "font-size": 13 }, "Unplaced"));
  pool.forEach((d, j) => g.append(die(90 + j * 36, py, d)));
  svg.append(g);
}

function die(x, y, d) {
  const g = s("g", { class: "die", "data-die": d.id });
  const owner = d.owner >= 0 ? SEAT_COLOURS[d.owner] : "#555";
  g.append(s("rect", { x, y, width: 28, height: 28, rx: 5, fill: DIE_FILL[d.colour] || "#ccc", stroke: owner,
    "stroke-width": d.owner >= 0 ? 3 : 1, opacity: d.retrieved ? 0.45 : 1 }));
  g.append(s("text", { x: x + 14, y: y + 19, "text-anchor": "middle", "font-size": 14, "font-weight": 700,
    fill: d.colour === "yellow" || d.colour === "white" ? "#222" : "#fff" }, String(d.value)));
  g.append(title(`${d.colour} die ${d.value}${d.owner >= 0 ? `, seat ${d.owner + 1}` : ""}${d.retrieved ? " (retrieved)" : ""}`));
  return g;
}

function drawRegions(svg, obs, ctx) {
  const g = s("g", { class: "regions" });
  g.append(s("text", { x: 340, y: 56, "font-size": 14, "font-weight": 700 }, "Regions"));
  (obs.regions || []).forEach((r, i) => {
    const col = i % 5;
    const row = Math.floor(i / 5);
    const x = 340 + col * 128;
    const y = 66 + row * 150;
    const rg = s("g", { class: "region", "data-region": r.id });
    rg.append(s("rect", { x, y, width: 120, height: 140, rx: 8, fill: "#fdfbf5", stroke: "#a8a28f" }));
    rg.append(s("text", { x: x + 8, y: y + 18, "font-size": 13, "font-weight": 700 }, `Region ${r.id}`));
    rg.append(s("text", { x: x + 8, y: y + 34, "font-size": 10, fill: "#555" }, (r.icons || []).join(", ")));
    (r.warriors || []).forEach((n, seat) => {
      if (!n) return;
      rg.append(s("rect", { x: x + 8 + seat * 26, y: y + 42, width: 22, height: 16, rx: 3, fill: SEAT_COLOURS[seat] }));
      rg.append(s("text", { x: x + 19 + seat * 26, y: y + 54, "text-anchor": "middle", "font-size": 10, fill: "#fff" }, `⚔${n}`));
    });
    if (r.city >= 0) {
      rg.append(s("path", { d: `M${x + 10} ${y + 84} l12 -12 l12 12 v12 h-24 z`, fill: SEAT_COLOURS[r.city], stroke: "#333" }));
      rg.append(title(`City of ${seatName(ctx, r.city)}${r.tower ? " with a tower" : ""}`));
    }
    if (r.tower) rg.append(s("rect", { x: x + 40, y: y + 68, width: 10, height: 28, fill: "#555" }));
    (r.farms || []).forEach((f, k) => {
      rg.append(s("rect", { x: x + 60 + k * 22, y: y + 78, width: 18, height: 18, rx: 2,
        fill: f >= 0 ? SEAT_COLOURS[f] : "none", stroke: "#8a8", "stroke-dasharray": f >= 0 ? "" : "2 2" }));
    });
    if (r.foundation) rg.append(s("text", { x: x + 8, y: y + 114, "font-size": 10 }, `foundation ${r.foundation}`));
    if ((r.sea || []).length) {
      rg.append(s("text", { x: x + 8, y: y + 130, "font-size": 10, fill: "#245" },
        "sea: " + r.sea.map((t) => (t === "hidden" ? "?" : t)).join(" ")));
    }
    g.append(rg);
  });
  svg.append(g);
}

function drawSupplies(svg, obs) {
  const g = s("g", { class: "supplies" });
  const y0 = 390;
  g.append(s("text", { x: 340, y: y0, "font-size": 14, "font-weight": 700 }, "Offer"));
  (obs.offer || []).forEach((c, i) => {
    const x = 340 + i * 92;
    g.append(s("rect", { x, y: y0 + 8, width: 84, height: 40, rx: 5, fill: "#fff", stroke: "#777" }));
    g.append(s("text", { x: x + 6, y: y0 + 32, "font-size": 12 }, c));
  });
  g.append(s("text", { x: 340, y: y0 + 74, "font-size": 12 },
    `Decks: I ${obs.deck_i}, II ${obs.deck_ii} · discards: I ${obs.discard_i}, II ${obs.discard_ii} · goods pile ${obs.goods_pile}`));
  const stacks = obs.goods_stacks || {};
  g.append(s("text", { x: 340, y: y0 + 92, "font-size": 12 },
    "Goods: " + GOODS.filter((k) => k in stacks).map((k) => `${k} ${stacks[k]}`).join(", ")));
  (obs.vases || []).forEach((v, i) => {
    const x = 340 + i * 150;
    const y = y0 + 108;
    g.append(s("rect", { x, y, width: 140, height: 44, rx: 6, fill: "#fff", stroke: DIE_FILL[v.colour] || "#777", "stroke-width": 2 }));
    g.append(s("text", { x: x + 6, y: y + 16, "font-size": 11, "font-weight": 700 }, `Vase ${v.id}`));
    g.append(s("text", { x: x + 6, y: y + 34, "font-size": 11 },
      (v.slots || []).map((sl) => `${sl.vp}vp${sl.seat >= 0 ? "→" + (sl.seat + 1) : ""}`).join("  ")));
  });
  svg.append(g);
}

function chip(text, tip = "") {
  const el = h("span", { class: "chip" }, text);
  if (tip) el.title = tip;
  return el;
}

function drawPlayers(panel, obs, ctx) {
  clear(panel);
  for (const p of obs.player_states || []) {
    const box = h("section", { class: "vp" + (obs.current_player === p.seat ? " to-move" : ""), "data-seat": p.seat,
      "aria-label": seatName(ctx, p.seat) });
    box.style.setProperty("--seat", SEAT_COLOURS[p.seat]);
    box.append(h("h3", {}, h("span", {}, seatName(ctx, p.seat) + (ctx.view === p.seat ? " — this view" : "")),
      h("span", { "data-score": "" }, `${p.vp} VP`)));
    box.append(h("div", { class: "row" }, `coins ${p.coins} · weapons ${p.weapons} · income ${p.income}`));
    const goods = GOODS.map((k) => `${k} ${(p.temp_goods || {})[k] || 0}/${(p.perm_goods || {})[k] || 0}`);
    box.append(h("div", { class: "row small" }, "Goods (temporary/permanent): " + goods.join(", ")));
    const hidden = (p.hand_unknown_i || 0) + (p.hand_unknown_ii || 0);
    const hand = (p.hand || []).map((c) => chip(c));
    if (hidden) hand.push(h("span", { class: "hidden" }, `${hidden} hidden card${hidden > 1 ? "s" : ""}`));
    box.append(h("div", { class: "row" }, h("strong", {}, `Hand (${p.hand_count}): `), hand.length ? hand : h("span", { class: "muted" }, "empty")));
    const palace = (p.palace || []).map((c) => (c.card ? chip(c.card, c.trait) : h("span", { class: "hidden chip", title: c.trait }, `hidden ${c.era}`)));
    box.append(h("div", { class: "row" }, h("strong", {}, "Palace: "), palace.length ? palace : h("span", { class: "muted" }, "empty")));
    if ((p.play_area || []).length) box.append(h("div", { class: "row" }, h("strong", {}, "Played: "), p.play_area.map((c) => chip(typeof c === "string" ? c : JSON.stringify(c)))));
    const tracks = Object.entries(p.tracks || {}).map(([k, v]) => `${k} ${v}`).join(", ");
    const ships = Object.entries(p.ships || {}).map(([k, v]) => `${k} ${v}`).join(", ");
    box.append(h("div", { class: "row small" }, `Tracks: ${tracks} · ships: ${ships}`));
    panel.append(box);
  }
}
