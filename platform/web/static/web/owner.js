// Owner pages: create a bot, upload a version with a progress bar, request a challenge — through the REST API
// with the session's cookie and CSRF token.

import { gettext, interpolate, pgettext } from "./i18n.js";

// a version's status (the API's `status`) in the page's language
const STATUS = {
  pending: pgettext("version status", "pending"), validating: pgettext("version status", "validating"),
  ready: pgettext("version status", "ready"), failed: pgettext("version status", "failed"),
  suspended: pgettext("version status", "suspended"),
};
const statusWord = (status) => STATUS[status] || status;

function csrf() {
  const m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return m ? decodeURIComponent(m[1]) : "";
}

function explain(body) {
  if (!body || typeof body !== "object") return String(body || "");
  if (body.detail) return body.detail;
  return Object.entries(body).map(([k, v]) => `${k}: ${[].concat(v).join(" ")}`).join(pgettext("list", "; "));
}

// Validation runs on a worker: until the version is ready or failed, re-read its status every few seconds and
// redraw the bot's card (its status line and versions) from the owner page, so nobody has to reload.
const WAITING = new Set(["pending", "validating"]);

async function redrawCard(card) {
  const resp = await fetch(location.pathname, { credentials: "same-origin", headers: { Accept: "text/html" } });
  if (!resp.ok) return;
  const fresh = new DOMParser().parseFromString(await resp.text(), "text/html").getElementById(card.id);
  if (!fresh) return;
  for (const part of ["[data-card-status]", "[data-card-versions]"]) {
    const now = card.querySelector(part);
    const next = fresh.querySelector(part);
    if (now && next) now.replaceWith(next);
  }
}

function followValidation(card, version, out) {
  let delay = 2000;
  const step = async () => {
    const resp = await fetch(`/api/versions/${version.id}/`, { credentials: "same-origin", headers: { Accept: "application/json" } });
    const body = resp.ok ? await resp.json().catch(() => null) : null;
    if (card) await redrawCard(card);
    if (!body) { out.textContent = interpolate(gettext("Version %(number)s: its status could not be read (%(code)s); reload later."), { number: version.number, code: resp.status }, true); return; }
    if (WAITING.has(body.status)) {
      out.textContent = interpolate(gettext("Version %(number)s is %(status)s…"), { number: version.number, status: statusWord(body.status) }, true);
      delay = Math.min(delay * 1.5, 15000);
      setTimeout(step, delay);
    } else {
      // the API tells the reason in the page's language (its Accept-Language, the cookie, the account)
      out.textContent = body.status_reason
        ? interpolate(gettext("Version %(number)s is %(status)s: %(reason)s"), { number: version.number, status: statusWord(body.status), reason: body.status_reason }, true)
        : interpolate(gettext("Version %(number)s is %(status)s."), { number: version.number, status: statusWord(body.status) }, true);
    }
  };
  setTimeout(step, delay);
}

for (const form of document.querySelectorAll("form[data-upload]")) {
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const bar = form.querySelector("progress");
    const out = form.querySelector("output");
    const xhr = new XMLHttpRequest();
    xhr.open("POST", form.dataset.upload);
    xhr.setRequestHeader("X-CSRFToken", csrf());
    xhr.upload.addEventListener("progress", (e) => {
      if (e.lengthComputable) { bar.hidden = false; bar.value = Math.round((100 * e.loaded) / e.total); }
    });
    xhr.addEventListener("load", () => {
      let body = null;
      try { body = JSON.parse(xhr.responseText); } catch { body = xhr.responseText; }
      if (xhr.status === 201) {
        out.textContent = interpolate(gettext("Uploaded as version %(number)s: %(status)s. Validating…"), { number: body.number, status: statusWord(body.status) }, true);
        followValidation(form.closest("article"), body, out);
      } else {
        out.textContent = interpolate(gettext("Upload refused (%(code)s): %(why)s"), { code: xhr.status, why: explain(body) }, true);
      }
    });
    xhr.addEventListener("error", () => { out.textContent = gettext("The upload failed: network error."); });
    out.textContent = gettext("Uploading…");
    xhr.send(new FormData(form));
  });
}

for (const form of document.querySelectorAll("form[data-json-post]")) {
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const out = form.querySelector("output");
    const data = {};
    for (const el of form.elements) {
      if (!el.name) continue;
      if (el.multiple) data[el.name] = [...el.selectedOptions].map((o) => Number(o.value));
      else data[el.name] = el.name === "bot" ? Number(el.value) : el.value;
    }
    const resp = await fetch(form.dataset.jsonPost, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf(), Accept: "application/json" },
      body: JSON.stringify(data),
    });
    const body = await resp.json().catch(() => null);
    if (resp.ok && body && body.id && form.dataset.jsonPost.includes("challenges")) {
      out.innerHTML = "";
      const a = document.createElement("a");
      a.href = `/matches/${body.id}/`;
      a.textContent = interpolate(gettext("Match #%(id)s is queued."), { id: body.id }, true);
      out.append(a);
    } else if (resp.ok) {
      location.reload();
    } else {
      out.textContent = interpolate(gettext("Refused (%(code)s): %(why)s"), { code: resp.status, why: explain(body) }, true);
    }
  });
}

// A switch of the owner's bot (e.g. public annotations): PATCH {name: checked} to the bot's API URL.
for (const box of document.querySelectorAll("input[type=checkbox][data-json-patch]")) {
  box.addEventListener("change", async () => {
    const out = box.closest("form").querySelector("output");
    const resp = await fetch(box.dataset.jsonPatch, {
      method: "PATCH", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf(), Accept: "application/json" },
      body: JSON.stringify({ [box.name]: box.checked }),
    });
    const body = await resp.json().catch(() => null);
    if (resp.ok) out.textContent = gettext("Saved.");
    else { box.checked = !box.checked; out.textContent = interpolate(gettext("Refused (%(code)s): %(why)s"), { code: resp.status, why: explain(body) }, true); }
  });
}

// The challenge form follows the chosen ladder: only bots of the ladder's game are offered (yours with a version
// that plays, opponents ready), the opponents' count is the ladder's seats less one, and a solo ladder asks for
// none (the engine plays Rhadamanthus). Options of another game are hidden and unselected, never sent.
for (const form of document.querySelectorAll("form[data-challenge]")) {
  const ladder = form.querySelector("select[name=ladder]");
  const bot = form.querySelector("select[name=bot]");
  const opponents = form.querySelector("select[name=opponents]");
  const follow = () => {
    const chosen = ladder.selectedOptions[0];
    if (!chosen) return;
    const game = chosen.dataset.game;
    const seats = Number(chosen.dataset.players);
    for (const select of [bot, opponents]) {
      for (const o of select.options) {
        o.hidden = o.disabled = o.dataset.game !== game;
        if (o.hidden) o.selected = false;
      }
    }
    if (!bot.selectedOptions.length || bot.selectedOptions[0].hidden) {
      const first = [...bot.options].find((o) => !o.hidden);
      bot.value = first ? first.value : "";
    }
    const mine = bot.value;
    for (const o of opponents.options) if (o.value === mine) { o.hidden = o.disabled = true; o.selected = false; }
    form.querySelector("#ch-opp-p").hidden = seats < 2;
    form.querySelector("#ch-solo").hidden = seats >= 2;
    form.querySelector("#ch-opp-count").textContent = seats === 2 ? "choose 1" : `choose ${seats - 1}`;
  };
  ladder.addEventListener("change", follow);
  bot.addEventListener("change", follow);
  follow();
}
