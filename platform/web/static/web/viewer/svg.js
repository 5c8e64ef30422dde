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

export function clear(el) { while (el.firstChild) el.firstChild.remove(); }
