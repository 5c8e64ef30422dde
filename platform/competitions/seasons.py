"""Seasons of the public ladders: staff close a season, its final table is kept (`Season.table`, shown on the
ladder's seasons and on each bot's page), and the ratings start again **from scratch**.

Why from scratch rather than with the old rating as a prior: a season's table is a result of that season's
games. With a prior, last season's leaders would keep their places on the strength of games that belong to the
closed table (already kept and shown), and a bot that improved between seasons would have to play its way out of
its old rating first; from scratch everyone begins equal, as in a new competition. The cost is a noisy table at
the start of a season, which the leaderboard already shows honestly: every rating has its 95% interval and stays
provisional for its first games. Matchmaking reads the same ratings, so for the first games of a season it pairs
more widely (the information-weighted draw of `matchmaking.rules` makes every opponent equally informative at
equal ratings), which is what a fresh start needs.

What closing does, in one transaction: the table (the current leaderboard: fitted rating, its interval, games
and wins of each bot not retired) is written as the season's; the ladder's `season_started_at` is set, so the
refit reads only the new season's games (`matches.ratings.season_matches`); every rating row goes back to the
initial values (rating, Elo, μ/σ, games, wins); the per-version fits of the ladder (`VersionRating`) are
cleared, since they are fits of the closed season's games. The history of each version's rating
(`RatingHistory`) stays: the bot page splits it by season.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import transaction

from accounts.deletion import display_name
from ladders.models import Ladder, Rating, VersionRating
from ladders.rating import initial_skill

from .models import Season


def close_season(ladder: Ladder, by: Any, now: datetime) -> Season:
    """Close the ladder's current season (staff): keep its table, start the ratings again."""
    with transaction.atomic():
        ladder = Ladder.objects.select_for_update().get(pk=ladder.pk)
        number = (Season.objects.filter(ladder=ladder).order_by("-number").values_list("number", flat=True)
                  .first() or 0) + 1
        rows = list(Rating.objects.filter(ladder=ladder, bot__retired_at__isnull=True)
                    .select_related("bot__owner", "bot__team").order_by("-rating", "id"))
        table = []
        for position, r in enumerate(rows, 1):
            table.append({"rank": position, "bot_id": r.bot_id, "bot": r.bot.name,
                          "owner": r.bot.team.name if r.bot.team else display_name(r.bot.owner),
                          "rating": round(r.rating, 1),
                          "rating_interval": round(r.rating_interval, 1) if r.rating_interval is not None else None,
                          "games": r.games, "wins": r.wins})
        season = Season.objects.create(ladder=ladder, number=number, started_at=ladder.season_started_at,
                                       closed_at=now, closed_by=by if getattr(by, "is_authenticated", False)
                                       else None, table=table)
        initial = settings.ARENA_RATING["initial_elo"]
        skill = initial_skill()
        Rating.objects.filter(ladder=ladder).update(rating=initial, rating_interval=None, elo=initial, mu=skill.mu,
                                                    sigma=skill.sigma, games=0, wins=0, provisional_until=0)
        VersionRating.objects.filter(ladder=ladder).delete()
        ladder.season_started_at = now
        ladder.fitted_games = 0
        ladder.save(update_fields=["season_started_at", "fitted_games"])
    return season


def bot_seasons(bot_id: int) -> list[dict[str, Any]]:
    """A bot's closed seasons, newest first: ladder, season number, dates, and its row of that season's table."""
    out = []
    for s in (Season.objects.filter(ladder__ratings__bot_id=bot_id)  # its ratings stay (reset) after a close
              .select_related("ladder").order_by("-closed_at")):
        row = next((r for r in s.table if r.get("bot_id") == bot_id), None)
        if row is not None:
            out.append({"ladder": s.ladder, "number": s.number, "started_at": s.started_at,
                        "closed_at": s.closed_at, "row": row, "of": len(s.table)})
    return out
