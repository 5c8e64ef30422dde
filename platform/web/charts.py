"""Small server-side SVG charts (no JavaScript needed to see them)."""

from __future__ import annotations

from datetime import datetime
from html import escape

from django.utils.safestring import SafeString, mark_safe


def rating_history(points: list[tuple[datetime, float]], *, label: str, width: int = 640,
                   height: int = 200) -> SafeString:
    """A line of rating after each rated game (x: game number, y: Elo), with the min/max/last values labelled;
    an accessible <svg role="img"> whose title and description say what it shows."""
    if not points:
        return mark_safe(f'<p class="muted">{escape(label)}: no rated games yet.</p>')
    pad_l, pad_r, pad_t, pad_b = 48, 12, 12, 24
    values = [v for _, v in points]
    lo, hi = min(values), max(values)
    if hi - lo < 20:
        mid = (hi + lo) / 2
        lo, hi = mid - 10, mid + 10
    n = len(values)

    def x(i: int) -> float:
        return pad_l + (width - pad_l - pad_r) * (i / (n - 1) if n > 1 else 0.5)

    def y(v: float) -> float:
        return pad_t + (height - pad_t - pad_b) * (1 - (v - lo) / (hi - lo))

    line = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values))
    grid = []
    for frac in (0.0, 0.5, 1.0):
        v = lo + (hi - lo) * frac
        grid.append(f'<line x1="{pad_l}" x2="{width - pad_r}" y1="{y(v):.1f}" y2="{y(v):.1f}" class="grid"/>'
                    f'<text x="{pad_l - 6}" y="{y(v) + 4:.1f}" text-anchor="end" class="axis">{v:.0f}</text>')
    desc = (f"{n} rated games from {points[0][0]:%Y-%m-%d} to {points[-1][0]:%Y-%m-%d}; "
            f"lowest {min(values):.0f}, highest {max(values):.0f}, now {values[-1]:.0f}.")
    svg = (f'<svg class="chart" viewBox="0 0 {width} {height}" role="img" aria-label="{escape(label)}" '
           f'preserveAspectRatio="xMidYMid meet"><title>{escape(label)}</title><desc>{escape(desc)}</desc>'
           + "".join(grid)
           + f'<polyline points="{line}" class="line" fill="none"/>'
           + f'<circle cx="{x(n - 1):.1f}" cy="{y(values[-1]):.1f}" r="3.5" class="dot"/>'
           + f'<text x="{width - pad_r}" y="{height - 6}" text-anchor="end" class="axis">game {n}</text>'
           + f'<text x="{pad_l}" y="{height - 6}" class="axis">game 1</text></svg>')
    return mark_safe(svg)
