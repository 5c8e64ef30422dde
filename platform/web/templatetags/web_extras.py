"""Template filters of the web pages: machine-readable times and a small, safe Markdown subset (for RULES.md)."""

from __future__ import annotations

import datetime as dt
import re
from html import escape
from typing import Any

from django import template
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

register = template.Library()


@register.filter
def isotime(value: dt.datetime | None) -> str:
    """A valid HTML `<time datetime>` value: UTC, whole seconds, `Z` (`2026-12-01T15:32:06Z`). Django's `|date:'c'`
    gives microseconds, which the HTML date-time syntax does not allow (1–3 fraction digits only)."""
    if not value:
        return ""
    if isinstance(value, dt.datetime):
        if value.tzinfo is not None:
            value = value.astimezone(dt.UTC)
        return value.strftime("%Y-%m-%dT%H:%M:%SZ")
    return value.isoformat()


def _num(x: float | int | None) -> str:
    """A score as `floatformat:"-1"` shows it: 12 or 12.5."""
    if x is None:
        return ""
    return str(int(x)) if float(x).is_integer() else f"{x:.1f}"


class EngineOpponent:
    """An opponent the game engine played itself (Minos solo: Rhadamanthus), as a list shows a seat: a name, a
    score and a rank from the match's recorded result (`MatchResult.engine_opponents`), and no bot to link to."""

    bot_id = None

    def __init__(self, data: dict):
        self.name = str(data.get("name", ""))
        self.score = data.get("score")
        self.rank = data.get("rank")


class PersonSeat:
    """A seat a person played (`Match.people`), as a list shows a seat: the name, score and rank of the match's
    recorded result (the person's user name then), no bot to link to; "a person" while the match runs."""

    bot_id = None
    person = True

    def __init__(self, seat: int, data: dict | None):
        data = data or {}
        self.seat = seat
        self.name = str(data.get("name") or gettext("a person"))
        self.score = data.get("score")
        self.rank = data.get("rank")
        self.disqualified = bool(data.get("disqualified"))
        # a person who resigned is out as a disqualified seat is (arena.match.person); said as what it was
        self.resigned = any(isinstance(f, dict) and f.get("kind") == "resigned" for f in data.get("faults") or [])


@register.filter
def in_result_order(m) -> list:
    """A match's seats (participants, people's seats) and engine opponents in the order a reader wants them: by
    rank once ranks are known (ties and unranked seats by seat number), else by seat."""
    result = m.result if isinstance(m.result, dict) else {}
    rows: list[tuple[tuple[int, int], Any]] = [((p.rank or 99, p.seat), p) for p in m.participants.all()]
    by_seat = {s.get("seat"): s for s in result.get("seats") or [] if isinstance(s, dict)}
    for seat in sorted(int(s) for s in (m.people or {})):
        person = PersonSeat(seat, by_seat.get(seat))
        rows.append(((person.rank or 99, seat), person))
    rows += [((o.rank or 99, 99), o) for o in map(EngineOpponent, result.get("engine_opponents") or [])]
    return [item for _, item in sorted(rows, key=lambda r: r[0])]


@register.filter
def match_row(m) -> SafeString:
    """One row of a match list (web/_match_row.html), rendered in Python: a list page renders 50 of them, and the
    template engine's per-value lookups and number localisation cost more than the rest of the page."""
    from django.utils.timesince import timesince

    seats = []
    for p in in_result_order(m):
        rank = f"{p.rank}. " if p.rank else ""
        score = f" ({_num(p.score)})" if p.score is not None else ""
        # a disqualified seat's moves were the referee's from then on: the result says less about its bot
        out = f' <span class="bad">{escape(gettext("resigned" if getattr(p, "resigned", False) else "disqualified"))}</span>' \
            if getattr(p, "disqualified", False) else ""
        if p.bot_id:
            name = f'<a href="/bots/{int(p.bot_id)}/">{escape(p.bot.name)}</a>'
        elif getattr(p, "person", False):
            name = f'<span class="person-seat" title="{escape(gettext("played by a person"))}">{escape(p.name)}</span>'
        else:
            name = f'<span class="engine-opponent" title="{escape(gettext("played by the game engine"))}">{escape(p.name)}</span>'

        seats.append(f'<span class="seat-chip{" winner" if p.rank == 1 else ""}">{rank}{name}{score}{out}</span> ')
    kind = f' <span class="tag">{escape(str(m.get_kind_display()).lower())}</span>' if m.kind != "ladder" else ""
    players = (m.params or {}).get("players", "") if isinstance(m.params, dict) else ""
    when = (f'<time datetime="{isotime(m.finished_at)}">'
            f'{escape(gettext("%(time)s ago") % {"time": timesince(m.finished_at)})}</time>' if m.finished_at else "")
    status = escape(m.status)
    shown = escape(str(m.get_status_display()).lower())  # the words in the page's language, the class the value
    return mark_safe(
        f'<tr>\n  <td><a href="/matches/{int(m.pk)}/">#{int(m.pk)}</a></td>\n'
        f'  <td>{escape(m.game)} {escape(str(players))}p{kind}</td>\n  <td>{"".join(seats)}</td>\n'
        f'  <td><span class="status status-{status}">{shown}</span></td>\n  <td>{when}</td>\n</tr>')


_INLINE = [
    (re.compile(r"`([^`]+)`"), r"<code>\1</code>"),
    (re.compile(r"\*\*([^*]+)\*\*"), r"<strong>\1</strong>"),
    (re.compile(r"(?<![\w*])\*([^*\s][^*]*)\*(?!\w)"), r"<em>\1</em>"),
]


def _inline(text: str) -> str:
    out = escape(text, quote=False)
    for pattern, repl in _INLINE:
        out = pattern.sub(repl, out)
    return out


def _table(rows: list[str]) -> str:
    """A pipe table as an HTML table: the first row is the header, a `|---|` separator row is dropped."""
    cells = [[c.strip() for c in r.strip().strip("|").split("|")] for r in rows]
    body = [r for r in cells[1:] if not all(re.fullmatch(r":?-+:?", c or "-") for c in r)]
    head = "".join(f'<th scope="col">{_inline(c)}</th>' for c in cells[0])
    rows_html = "".join("<tr>" + "".join(f"<td>{_inline(c)}</td>" for c in r) + "</tr>" for r in body)
    # a wide table scrolls sideways on a phone: the scrolling box takes keyboard focus, named after its columns
    label = escape("table: " + ", ".join(c.strip("`*") for c in cells[0][:3]))
    return (f'<div class="table-wrap" tabindex="0" role="region" aria-label="{label}"><table><thead><tr>{head}</tr>'
            f'</thead><tbody>{rows_html}</tbody></table></div>')


@register.filter
def markdown_lite(text: str, shift: int = 1) -> SafeString:
    """Headings (shifted down `shift` levels), paragraphs, bullet and numbered lists, pipe tables (the first row
    the header, the `|---|` row dropped), inline code and emphasis. Everything is escaped first, so a file can
    never inject markup."""
    html: list[str] = []
    para: list[str] = []
    items: list[str] = []
    table: list[str] = []
    ordered = [False]  # whether the list being collected is numbered

    def flush() -> None:
        if para:
            html.append(f"<p>{_inline(' '.join(para))}</p>")
            para.clear()
        if items:
            tag = "ol" if ordered[0] else "ul"
            html.append(f"<{tag}>" + "".join(f"<li>{_inline(i)}</li>" for i in items) + f"</{tag}>")
            items.clear()
        if table:
            html.append(_table(table))
            table.clear()

    for line in (text or "").splitlines():
        stripped = line.strip()
        heading = re.match(r"^(#{1,6})\s+(.*)$", stripped)
        if heading:
            flush()
            level = min(6, len(heading.group(1)) + int(shift))
            html.append(f"<h{level}>{_inline(heading.group(2))}</h{level}>")
        elif stripped.startswith("|"):
            if para or items:
                flush()
            table.append(stripped)
        elif stripped.startswith(("- ", "* ")) or re.match(r"^\d+\. ", stripped):
            numbered = stripped[0].isdigit()
            if para or table or (items and numbered != ordered[0]):
                flush()
            ordered[0] = numbered
            items.append(stripped.split(" ", 1)[1])
        elif not stripped:
            flush()
        elif items and line.startswith("  "):
            items[-1] += " " + stripped  # a bullet's continuation line
        else:
            if items or table:
                flush()
            para.append(stripped)
    flush()
    return mark_safe("\n".join(html))


@register.filter
def owner_name(user) -> str:
    """An owner's name as pages show it: "deleted account" once the account is deleted (`accounts.deletion`)."""
    from accounts.deletion import display_name

    return display_name(user)


@register.filter
def owner_link(user) -> SafeString:
    """An owner's name linked to their page; a deleted account is plain text, linking nowhere."""
    from django.urls import reverse

    from accounts.deletion import DELETED_NAME, is_deleted

    if user is None:
        return mark_safe("")
    if is_deleted(user):
        return mark_safe(escape(DELETED_NAME))
    return mark_safe(f'<a href="{escape(reverse("web:user", args=[user.username]))}">{escape(user.username)}</a>')


_MATCH_PATH = re.compile(r"\(/matches/(\d+)/\)")


@register.filter
def match_links(text: str) -> SafeString:
    """A status reason with the match pages it names (`(/matches/<id>/)`, as the suspension rule writes them) as
    links; everything else escaped."""
    from django.utils.translation import gettext

    escaped = str(escape(text or ""))
    label = escape(gettext("its page"))
    return mark_safe(_MATCH_PATH.sub(lambda m: f'(<a href="/matches/{m[1]}/">{label}</a>)', escaped))  # noqa: S308  # escaped above


@register.filter
def told_reason(version: Any) -> str:
    """A bot version's status reason in the page's language (botregistry.reasons)."""
    from botregistry.reasons import shown

    return shown(version)


@register.filter
def fault_kind(kind: str) -> str:
    """The name of a kind of fault (`timeout`, `illegal`...) in the page's language (arena.reasons)."""
    from django.utils.translation import get_language

    from arena.reasons import kind as kind_name

    return kind_name(kind or "", get_language() or "en")


@register.filter
def retold(message: str) -> str:
    """A reason stored in English words (a fault's message as the referee recorded it, a match's, a tournament
    entry's or a version test's reason) in the page's language when it is a known phrase (arena.reasons); the
    bot's own words in it, and any text that is no known phrase, stay as they are."""
    from django.utils.translation import get_language

    from arena.reasons import retell

    return retell(message or "", get_language() or "en")


@register.filter
def join_names(items: Any) -> str:
    """Names (of bots, people...) joined as the page's language lists things ("a, b" / "a、b")."""
    from django.utils.translation import pgettext

    return pgettext("list", ", ").join(str(getattr(item, "name", item)) for item in items)


@register.filter
def level_list(levels: Any) -> str:
    """The ladder's levels to beat in order, in words: "level 1, then level 2, then level 3"."""
    said = ""
    for r in levels:
        level = gettext("level %(level)s") % {"level": r.level}
        said = gettext("%(before)s, then %(next)s") % {"before": said, "next": level} if said else level
    return said
