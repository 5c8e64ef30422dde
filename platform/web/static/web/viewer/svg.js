// Tiny helpers to build SVG and HTML without a framework.
const SVG_NS = "http://www.w3.org/2000/svg";

export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v != null) el.setAttribute(k, String(v));
  for (const c of children.flat()) if (c != null) el.append(typeof c === "string" ? document.createTextNode(c) : c);
  return el;
}

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v == null) continue;
    if (k === "class") el.className = v; else el.setAttribute(k, String(v));
  }
  for (const c of children.flat()) if (c != null) el.append(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
  return el;
}

export function title(text) { return s("title", {}, text); }

// One colour per seat, readable on white and distinguishable for common colour blindness (Okabe–Ito).
export const SEAT_COLOURS = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9"];
// The game's own opponent (Minos solo: Rhadamanthus) in a colour no seat has.
export const OPPONENT_COLOUR = "#262626";

// The colour of score row / piece owner `k` in a match of `seats` seats: a seat's, or the opponent's beyond them.
export function rowColour(k, seats) { return k < seats ? (SEAT_COLOURS[k] || "#555555") : OPPONENT_COLOUR; }

export function clear(el) { while (el.firstChild) el.firstChild.remove(); }

// The text colour (black or white) with the higher contrast on a seat's colour (WCAG relative luminance):
// white on the blue seat, black on the others, each ≥ 4.5:1.
export function seatText(seat) { return textOn(SEAT_COLOURS[seat] || "#555555"); }

export function textOn(hex) {
  const lin = (i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const L = 0.2126 * lin(1) + 0.7152 * lin(3) + 0.0722 * lin(5);
  return (1.05 / (L + 0.05)) >= ((L + 0.05) / 0.05) ? "#fff" : "#000";
}
