"""Small server-side SVG charts (no JavaScript needed to see them)."""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from datetime import datetime
from html import escape

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext


@dataclass(frozen=True)
class RatingPoint:
    """A version's fitted rating at one refit: when, the value, its 95% half-interval and the version's games
    by then."""
    at: datetime
    value: float
    interval: float
    games: int


#: series colours, cycled (site.css .chart .s0 … .s5)
SERIES = 6


def rating_history(series: dict[int, list[RatingPoint]], *, label: str, width: int = 640, height: int = 220
                   ) -> SafeString:
    """The fitted rating of each version (`series`: version number → its points in time order) against the
    date (x: time, y: Elo), one line with its 95% band per version, each labelled `v2`, ... at its last point,
    each point titled with its value, interval and games; the first and last dates and the value range
    labelled; an <svg> whose title and description say what it shows."""
    runs = [(v, pts) for v, pts in sorted(series.items()) if pts]
    if not runs:
        unfitted = _("%(chart)s: not fitted yet.") % {"chart": label}
        return mark_safe(f'<p class="muted">{escape(unfitted)}</p>')
    every = [p for _, pts in runs for p in pts]
    pad_l, pad_r, pad_t, pad_b = 52, 30, 14, 30
    lo = min(p.value - p.interval for p in every)
    hi = max(p.value + p.interval for p in every)
    if hi - lo < 20:
        mid = (hi + lo) / 2
        lo, hi = mid - 10, mid + 10
    first, last = min(p.at for p in every), max(p.at for p in every)
    t0, t1 = first.timestamp(), last.timestamp()

    def x(at: datetime) -> float:
        frac = (at.timestamp() - t0) / (t1 - t0) if t1 > t0 else 0.5
        return pad_l + (width - pad_l - pad_r) * frac

    def y(v: float) -> float:
        return pad_t + (height - pad_t - pad_b) * (1 - (v - lo) / (hi - lo))

    parts: list[str] = []
    band = _("v%(version)s: 95%% interval")
    for frac in (0.0, 0.5, 1.0):
        v = lo + (hi - lo) * frac
        parts.append(f'<line x1="{pad_l}" x2="{width - pad_r}" y1="{y(v):.1f}" y2="{y(v):.1f}" class="grid"/>'
                     f'<text x="{pad_l - 6}" y="{y(v) + 4:.1f}" text-anchor="end" class="axis">{v:.0f}</text>')
    for k, (version, pts) in enumerate(runs):
        parts.append(f'<g class="series s{k % SERIES}" data-version="{version}">')
        upper = " ".join(f"{x(p.at):.1f},{y(p.value + p.interval):.1f}" for p in pts)
        lower = " ".join(f"{x(p.at):.1f},{y(p.value - p.interval):.1f}" for p in reversed(pts))
        if len(pts) > 1:
            parts.append(f'<polygon points="{upper} {lower}" class="band"><title>{escape(band % {"version": version})}</title>'
                         f'</polygon>')
        else:  # one refit so far: its interval as a bar
            p = pts[0]
            parts.append(f'<line x1="{x(p.at):.1f}" x2="{x(p.at):.1f}" y1="{y(p.value + p.interval):.1f}" '
                         f'y2="{y(p.value - p.interval):.1f}" class="bar"><title>{escape(band % {"version": version})}</title>'
                         f'</line>')
        line = " ".join(f"{x(p.at):.1f},{y(p.value):.1f}" for p in pts)
        parts.append(f'<polyline points="{line}" class="line" fill="none"/>')
        for p in pts:
            tip = ngettext("v%(version)s, %(at)s UTC: %(value)s ± %(interval)s after %(games)s game",
                           "v%(version)s, %(at)s UTC: %(value)s ± %(interval)s after %(games)s games", p.games) % {
                "version": version, "at": f"{p.at:%Y-%m-%d %H:%M}", "value": f"{p.value:.0f}",
                "interval": f"{p.interval:.0f}", "games": p.games}
            parts.append(f'<circle cx="{x(p.at):.1f}" cy="{y(p.value):.1f}" r="2.5" class="dot">'
                         f'<title>{escape(tip)}</title></circle>')
        end = pts[-1]
        parts.append(f'<text x="{x(end.at) + 4:.1f}" y="{y(end.value) + 4:.1f}" class="axis name">v{version}</text>'
                     "</g>")
    parts.append(f'<text x="{pad_l}" y="{height - 8}" class="axis">{first:%Y-%m-%d}</text>'
                 f'<text x="{width - pad_r}" y="{height - 8}" text-anchor="end" class="axis">{last:%Y-%m-%d}</text>')
    now = pgettext("list", ", ").join(
        ngettext("v%(version)s %(value)s ± %(interval)s after %(games)s game",
                 "v%(version)s %(value)s ± %(interval)s after %(games)s games", pts[-1].games)
        % {"version": v, "value": f"{pts[-1].value:.0f}", "interval": f"{pts[-1].interval:.0f}", "games": pts[-1].games}
        for v, pts in runs)
    desc = ngettext("%(count)s version rated from %(first)s to %(last)s; last fit: %(now)s.",
                    "%(count)s versions rated from %(first)s to %(last)s; last fit: %(now)s.", len(runs)) % {
        "count": len(runs), "first": f"{first:%Y-%m-%d}", "last": f"{last:%Y-%m-%d}", "now": now}
    svg = (f'<svg class="chart" viewBox="0 0 {width} {height}" aria-labelledby="{_id(label)}-t {_id(label)}-d" '
           f'preserveAspectRatio="xMidYMid meet"><title id="{_id(label)}-t">{escape(label)}</title>'
           f'<desc id="{_id(label)}-d">{escape(desc)}</desc>' + "".join(parts) + "</svg>")
    return mark_safe(svg)


def _id(label: str) -> str:
    return f"c{zlib.crc32(label.encode()):08x}"
