"""The archive's downloads: a competition's result as CSV and JSON (the same rows as the standings table), and
its final's cross-table (who finished ahead of whom, game by game)."""

from __future__ import annotations

import csv
import io
from typing import Any

from matches.models import Match
from tournaments.models import Game

from .models import Competition

CSV_COLUMNS = ["rank", "bot", "entrant", "team", "version", "version_sha256", "points", "buchholz", "wins",
               "units", "score_total", "final_rank", "disqualified_reason", "note"]


def as_json(c: Competition) -> dict[str, Any]:
    """The result document: the competition, its tie-break rule, and the rows of `Competition.result`."""
    return {"competition": c.slug, "title": c.title, "game": c.game, "players": c.players,
            "deadline": c.deadline.isoformat(), "final": c.final_id,
            "published_at": c.results_published_at.isoformat() if c.results_published_at else None,
            "tie_break": TIE_BREAK, "standings": c.result or []}


TIE_BREAK = ("points, then Buchholz (the points of the opponents met), then outright wins, then total game score; "
             "then the earlier locked version (uploaded first); disqualified entries last, unranked")


def as_csv(c: Competition) -> str:
    out = io.StringIO()
    w = csv.DictWriter(out, fieldnames=CSV_COLUMNS, extrasaction="ignore", lineterminator="\n")
    w.writeheader()
    for row in c.result or []:
        w.writerow({k: _cell(row.get(k)) for k in CSV_COLUMNS})
    return out.getvalue()


def _cell(value: Any) -> Any:
    """A cell a spreadsheet cannot take for a formula: text that starts with = + - @ gets a leading quote."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return "" if value is None else value


def cross_table(c: Competition) -> tuple[list[str], list[list[str]], list[dict[str, Any]]]:
    """(bot names in result order, rows of "wins-losses" of the row's bot against the column's, the final's
    games with their match ids). Empty before the final."""
    if c.final_id is None:
        return [], [], []
    order = [r["bot_id"] for r in (c.result or []) if r.get("points") is not None]
    games = list(Game.objects.filter(round__tournament_id=c.final_id).select_related("round", "match")
                 .prefetch_related("match__participants").order_by("round__number", "table"))
    entry_bot = dict(c.final.entries.values_list("id", "bot_id")) if c.final else {}
    for bot in entry_bot.values():
        if bot not in order:
            order.append(bot)
    ahead: dict[tuple[int, int], int] = {}
    listed: list[dict[str, Any]] = []
    for g in games:
        bots = [entry_bot.get(e) for e in g.seats]
        ranks: list[int | None] = [None] * len(bots)
        if g.match is not None and g.match.status == Match.Status.FINISHED:
            for p in g.match.participants.all():
                ranks[p.seat] = p.rank
        for i, a in enumerate(bots):
            for j, b in enumerate(bots):
                ra, rb = ranks[i], ranks[j]
                if a is not None and b is not None and i != j and ra is not None and rb is not None and ra < rb:
                    ahead[(a, b)] = ahead.get((a, b), 0) + 1
        listed.append({"round": g.round.number, "table": g.table, "match": g.match_id, "bots": bots,
                       "ranks": ranks, "forfeit": g.forfeit})
    names = dict(c.entries.values_list("bot_id", "bot__name"))
    header = [names.get(b, str(b)) for b in order]
    rows = [[("—" if a == b else f"{ahead.get((a, b), 0)}–{ahead.get((b, a), 0)}") for b in order] for a in order]
    for item in listed:
        item["names"] = [names.get(b, "?") for b in item["bots"]]
    return header, rows, listed
