// Fallback for games without a dedicated renderer: the observation as a readable tree.
import { clear, h } from "./svg.js";

export function render(board, panel, frame) {
  clear(board);
  clear(panel);
  panel.append(tree(frame.observation));
}
export const renderGeneric = render;

function tree(value) {
  if (value === null || typeof value !== "object") return h("span", { class: "v" }, JSON.stringify(value));
  const dl = h("dl", { class: "obs-tree" });
  for (const [k, v] of Object.entries(value)) dl.append(h("dt", {}, k), h("dd", {}, tree(v)));
  return dl;
}
