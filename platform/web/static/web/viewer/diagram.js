// The rules pages' pictures: figures [data-diagram] drawn by the replay viewer's own renderer of the game
// (thebes.js, minos.js) from the example game of web.frames.example_gz, at its start (data-at="start": the first
// frame of play, after the setup) or half way (data-at="middle", captioned with that turn's story). The same
// zoom as the viewer's board on narrow screens (zoom.js).

import { gettext, interpolate } from "../i18n.js";
import { rowColour } from "./svg.js";
import { boardZoom } from "./zoom.js";

const RENDERERS = { thebes: () => import("./thebes.js"), minos: () => import("./minos.js") };
const payloads = new Map(); // example URL -> promise of its payload (one fetch for the page's figures)

function example(url) {
  if (!payloads.has(url)) {
    payloads.set(url, fetch(url, { headers: { Accept: "application/json" } }).then((r) => {
      if (!r.ok) throw new Error(`example ${r.status}`);
      return r.json();
    }));
  }
  return payloads.get(url);
}

// The first frame after the setup (Minos' chapters read "setup" while the players place their pieces).
function startIndex(payload) {
  const chapters = (payload.story && payload.story.chapters) || [];
  const k = chapters.findIndex((c) => c !== "setup");
  return k > 0 ? k - 1 : 0;
}

async function draw(fig) {
  const load = RENDERERS[fig.dataset.game];
  if (!load) { fig.hidden = true; return; }
  const [mod, payload] = await Promise.all([load(), example(`${fig.dataset.exampleUrl}?lang=${encodeURIComponent(document.documentElement.lang || "en")}`)]);
  const frames = payload.frames;
  const index = fig.dataset.at === "middle" ? Math.floor(frames.length / 2) : startIndex(payload);
  const seats = payload.seats || [];
  const names = (payload.story && payload.story.series) || seats.map((s) => s.name);
  const ctx = {
    header: payload.header, seats, view: null, result: payload.result, index, last: frames.length - 1,
    glossary: (payload.story && payload.story.glossary) || {},
    seatName: (seat) => (seats[seat] ? `${seats[seat].name} (seat ${seat + 1})` : names[seat] || `seat ${seat + 1}`),
    colour: (seat) => rowColour(seat, seats.length),
    legend: fig.querySelector("[data-board-legend]"),
  };
  const board = fig.querySelector("[data-board]");
  const label = board.getAttribute("aria-label");
  mod.render(board, document.createElement("div"), frames[index], ctx);
  board.setAttribute("aria-label", `${label}. ${board.getAttribute("aria-label") || ""}`.trim());
  if (ctx.legend && ctx.legend.childNodes.length) ctx.legend.hidden = false;
  const turn = payload.story && payload.story.turns[index];
  const caption = fig.querySelector("[data-caption]");
  if (caption && turn && index > 0) {
    const line = document.createElement("span");
    line.className = "diagram-turn";
    line.dataset.turnText = "";
    line.textContent = ` ${interpolate(gettext("Turn %(turn)s:"), { turn: index }, true)} ${turn.text}`;
    caption.append(line);
  }
  // named by the picture's own label (the renderer's board summary is the same for every picture)
  boardZoom(fig.querySelector("[data-board-wrap]"), fig.querySelector("[data-act=zoom]"), board, label);
  fig.dataset.ready = "1";
}

for (const fig of document.querySelectorAll("[data-diagram]")) {
  draw(fig).catch((err) => { fig.dataset.error = String(err); fig.hidden = true; });
}
