// A table's page (web/table.html): re-read the table's state every 2 s, redraw who sits where, and once its match
// has started take everyone at the table to it. "Copy" puts the invitation link on the clipboard.
import { gettext } from "./i18n.js";

const root = document.querySelector("[data-table]");

function cell(text, tag) {
  const td = document.createElement("td");
  td.textContent = text;
  if (tag) {
    const span = document.createElement("span");
    span.className = "tag";
    span.textContent = tag;
    td.append(" ", span);
  }
  return td;
}

function draw(state) {
  const body = root.querySelector("[data-table-seats]");
  const rows = state.seats.map((s) => {
    const tr = document.createElement("tr");
    const number = document.createElement("td");
    number.textContent = String(s.seat + 1);
    let who;
    if (s.kind === "free") {
      who = document.createElement("td");
      const span = document.createElement("span");
      span.className = "muted";
      span.textContent = gettext("free: for a person you invite");
      who.append(span);
    } else {
      who = cell(s.name, s.kind === "bot" ? gettext("bot") : s.you ? gettext("you") : "");
    }
    tr.append(number, who);
    return tr;
  });
  body.replaceChildren(...rows);
  root.dataset.status = state.status;
  root.dataset.taken = String(state.seats.filter((s) => s.kind !== "free").length);
  const status = root.querySelector("[data-table-status]");
  if (state.status === "cancelled") status.textContent = gettext("This table was cancelled.");
  if (state.status === "expired") status.textContent = gettext("This table has expired: nobody took the free seats in time.");
  if (state.status === "cancelled" || state.status === "expired") status.className = "bad";
}

async function poll() {
  try {
    const resp = await fetch(root.dataset.stateUrl, { credentials: "same-origin", headers: { Accept: "application/json" } });
    if (resp.ok) {
      const state = await resp.json();
      draw(state);
      if (state.match_url) {
        root.querySelector("[data-table-status]").textContent = gettext("The match has started.");
        location.assign(state.match_url);
        return;
      }
      if (state.status !== "open") return;
    }
  } catch (err) {
    // a flaky network: try again at the next tick
  }
  setTimeout(poll, 2000);
}

// The invitation's key comes in this address's fragment (#invite=<key>, from /play/): never sent to the server.
function showInvitation() {
  const box = document.querySelector("[data-invite-box]");
  const key = new URLSearchParams(location.hash.slice(1)).get("invite") || "";
  if (!box || !/^[A-Za-z0-9_-]{43}$/.test(key)) return;
  box.querySelector("[data-invite]").value = new URL(box.dataset.joinUrl.replace("/-/", `/${key}/`), location.origin).href;
  box.hidden = false;
  const missing = document.querySelector("[data-invite-missing]");
  if (missing) missing.hidden = true;
}

if (root) {
  showInvitation();
  const copy = document.querySelector("[data-copy]");
  const link = document.querySelector("[data-invite]");
  if (copy && link) {
    copy.addEventListener("click", async () => {
      link.select();
      try {
        await navigator.clipboard.writeText(link.value);
        copy.textContent = gettext("Copied");
      } catch (err) {
        document.execCommand("copy");
      }
    });
  }
  setTimeout(poll, 2000);
}
