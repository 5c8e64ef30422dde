"""Small server-side SVG charts (no JavaScript needed to see them)."""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from datetime import datetime
from html import escape

from django.utils.safestring import SafeString, mark_safe


@dataclass(frozen=True)
class RatingPoint:
    """The rating after one rated game: when, the value, its 95% half-interval (0: unknown), the match and
    the bot version that played it."""
    at: datetime
    value: float
    interval: float = 0.0
    match_id: int | None = None
    version: int | None = None


def rating_history(points: list[RatingPoint] | list[tuple[datetime, float]], *, label: str, width: int = 640,
                   height: int = 220) -> SafeString:
    """The rating after each rated game against its date (x: time, y: Elo) with its 95% band, a dashed line where
    a new bot version started playing (labelled `v2`, ...), each point a link to its match, and the first and
    last dates and the value range labelled; an <svg> whose title and description say what it shows."""
    pts = [p if isinstance(p, RatingPoint) else RatingPoint(p[0], p[1]) for p in points]
    if not pts:
        return mark_safe(f'<p class="muted">{escape(label)}: no rated games yet.</p>')
    pad_l, pad_r, pad_t, pad_b = 48, 14, 14, 30
    lo = min(p.value - p.interval for p in pts)
    hi = max(p.value + p.interval for p in pts)
    if hi - lo < 20:
        mid = (hi + lo) / 2
        lo, hi = mid - 10, mid + 10
    t0, t1 = pts[0].at.timestamp(), pts[-1].at.timestamp()
    n = len(pts)

    def x(i: int) -> float:
        span = t1 - t0
        frac = (pts[i].at.timestamp() - t0) / span if span > 0 else (i / (n - 1) if n > 1 else 0.5)
        return pad_l + (width - pad_l - pad_r) * frac

    def y(v: float) -> float:
        return pad_t + (height - pad_t - pad_b) * (1 - (v - lo) / (hi - lo))

    parts: list[str] = []
    for frac in (0.0, 0.5, 1.0):
        v = lo + (hi - lo) * frac
        parts.append(f'<line x1="{pad_l}" x2="{width - pad_r}" y1="{y(v):.1f}" y2="{y(v):.1f}" class="grid"/>'
                     f'<text x="{pad_l - 6}" y="{y(v) + 4:.1f}" text-anchor="end" class="axis">{v:.0f}</text>')
    if any(p.interval for p in pts):
        upper = " ".join(f"{x(i):.1f},{y(p.value + p.interval):.1f}" for i, p in enumerate(pts))
        lower = " ".join(f"{x(i):.1f},{y(p.value - p.interval):.1f}" for i, p in reversed(list(enumerate(pts))))
        parts.append(f'<polygon points="{upper} {lower}" class="band"><title>95% interval</title></polygon>')
    prev_version = pts[0].version
    for i, p in enumerate(pts):
        if p.version is not None and prev_version is not None and p.version != prev_version:
            parts.append(f'<g class="version-mark" data-version="{p.version}"><line x1="{x(i):.1f}" x2="{x(i):.1f}" '
                         f'y1="{pad_t}" y2="{height - pad_b}"/><text x="{x(i) + 3:.1f}" y="{pad_t + 11}" '
                         f'class="axis">v{p.version}</text></g>')
        prev_version = p.version if p.version is not None else prev_version
    line = " ".join(f"{x(i):.1f},{y(p.value):.1f}" for i, p in enumerate(pts))
    parts.append(f'<polyline points="{line}" class="line" fill="none"/>')
    for i, p in enumerate(pts):
        tip = (f"{p.at:%Y-%m-%d %H:%M} UTC: {p.value:.0f}" + (f" ± {p.interval:.0f}" if p.interval else "")
               + (f", v{p.version}" if p.version is not None else ""))
        dot = (f'<circle cx="{x(i):.1f}" cy="{y(p.value):.1f}" r="{3.5 if i == n - 1 else 2.5}" class="dot">'
               f'<title>{escape(tip)}</title></circle>')
        if p.match_id is not None:
            dot = f'<a href="/matches/{p.match_id}/" aria-label="{escape(tip)}">{dot}</a>'
        parts.append(dot)
    parts.append(f'<text x="{pad_l}" y="{height - 8}" class="axis">{pts[0].at:%Y-%m-%d}</text>'
                 f'<text x="{width - pad_r}" y="{height - 8}" text-anchor="end" class="axis">{pts[-1].at:%Y-%m-%d}</text>')
    values = [p.value for p in pts]
    desc = (f"{n} rated games from {pts[0].at:%Y-%m-%d} to {pts[-1].at:%Y-%m-%d}; "
            f"lowest {min(values):.0f}, highest {max(values):.0f}, now {values[-1]:.0f}"
            + (f" ± {pts[-1].interval:.0f}" if pts[-1].interval else "") + ".")
    svg = (f'<svg class="chart" viewBox="0 0 {width} {height}" aria-labelledby="{_id(label)}-t {_id(label)}-d" '
           f'preserveAspectRatio="xMidYMid meet"><title id="{_id(label)}-t">{escape(label)}</title>'
           f'<desc id="{_id(label)}-d">{escape(desc)}</desc>' + "".join(parts) + "</svg>")
    return mark_safe(svg)


def _id(label: str) -> str:
    return f"c{zlib.crc32(label.encode()):08x}"
