// Live regions (templates/web/_live.html): every data-live-seconds, while the tab is visible and not paused,
// re-fetch this page's URL (same sort and page) with ?fragment=1 and swap the region's content when it changed.
// A polite status line says what changed; the region is left alone while keyboard focus is inside it (a swap
// would drop the focus), and the open/closed state of its <details> is kept. A fragment answered with
// `X-Live: 0` (a tournament that has finished) stops the updates for good.

import { gettext, interpolate } from './i18n.js';

const region = document.querySelector('[data-live-region][data-live-seconds]');
const bar = document.querySelector('[data-live-bar]');

function start() {
  const seconds = Math.max(1, Number(region.dataset.liveSeconds) || 15);
  const state = bar.querySelector('[data-live-state]');
  const toggle = bar.querySelector('[data-live-toggle]');
  const status = bar.querySelector('[data-live-status]');
  let paused = false;
  let stopped = false;
  let timer = null;
  // the last content as the browser serialises it, so that a fetched fragment compares equal when unchanged
  let last = region.innerHTML.trim();
  let inflight = false;

  function fragmentUrl() {
    const url = new URL(window.location.href);
    url.searchParams.set('fragment', '1');
    url.hash = '';
    return url.toString();
  }

  function schedule() {
    clearTimeout(timer);
    timer = null;
    if (!stopped && !paused && document.visibilityState === 'visible') {
      timer = setTimeout(refresh, seconds * 1000);
    }
  }

  function show() {
    bar.dataset.liveMode = stopped ? 'stopped' : paused ? 'paused' : 'live';
    state.textContent = stopped ? gettext('Finished') : paused ? gettext('Paused') : gettext('Live');
    toggle.hidden = stopped;
    toggle.textContent = paused ? gettext('Resume updates') : gettext('Pause updates');
    toggle.setAttribute('aria-pressed', paused ? 'true' : 'false');
  }

  function swap(html) {
    const open = new Map();
    region.querySelectorAll('details').forEach((d) => {
      open.set(d.querySelector('summary')?.textContent.trim(), d.open);
    });
    region.innerHTML = html;
    region.querySelectorAll('details').forEach((d) => {
      const key = d.querySelector('summary')?.textContent.trim();
      if (open.has(key)) d.open = open.get(key);
    });
    region.dataset.liveUpdates = String(Number(region.dataset.liveUpdates || 0) + 1);
    const time = new Date().toLocaleTimeString();
    status.textContent = interpolate(gettext('Updated at %(time)s.'), { time }, true);
  }

  async function refresh() {
    if (inflight || stopped || paused) return;
    if (region.contains(document.activeElement)) { schedule(); return; }
    inflight = true;
    try {
      const resp = await fetch(fragmentUrl(), {headers: {'Accept': 'text/html'}, credentials: 'same-origin',
                                               cache: 'no-store'});
      if (resp.ok) {
        const parsed = document.createElement('template');
        parsed.innerHTML = await resp.text();
        if (parsed.innerHTML.trim() !== last && !region.contains(document.activeElement)) {
          last = parsed.innerHTML.trim();
          swap(last);
        }
        if (resp.headers.get('X-Live') === '0') {
          stopped = true;
          status.textContent = gettext('Finished: updates stopped.');
        }
        delete bar.dataset.liveError;
      } else {
        bar.dataset.liveError = String(resp.status);
      }
    } catch (err) {
      bar.dataset.liveError = 'network';  // offline for a moment: try again at the next tick
    } finally {
      inflight = false;
      show();
      schedule();
    }
  }

  toggle.addEventListener('click', () => {
    paused = !paused;
    status.textContent = paused ? gettext('Updates paused.') : gettext('Updates resumed.');
    show();
    if (paused) schedule(); else refresh();
  });
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') refresh(); else schedule();
  });
  show();
  schedule();
}

if (region && bar) start();
