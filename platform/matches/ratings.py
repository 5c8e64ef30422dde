"""The leaderboard's fitted ratings from the recorded results: read every rated, finished game of a ladder and
refit (`ladders.rating_fit`, the ratings layer's maths), periodically (beat, `matches.tasks.refit_ratings`).

It lives with the matches because it reads them; the ratings layer below never does. (Each match's incremental
Elo and μ/σ are applied as it is recorded: `matches.services.record_result` → `ladders.services.apply_ratings`.)
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from ladders.models import Ladder, Rating
from ladders.rating import ranks_for_rating
from ladders.rating_fit import Results, fit
from matches.models import Match, Participant

log = logging.getLogger("arena.platform")


def ladder_results(ladder: Ladder) -> Results:
    """Every rated, finished game of the ladder as `rating_fit.Results` (a seat without a rank, e.g. a bot
    disqualified before the end, counts as last, as in `apply_ratings`)."""
    results = Results()
    rows = (Participant.objects.filter(match__ladder=ladder, match__rated=True, match__status=Match.Status.FINISHED)
            .order_by("match_id", "seat").values_list("match_id", "bot_id", "rank"))
    current: int | None = None
    bots: list[int] = []
    ranks: list[int | None] = []

    def flush() -> None:
        if len(bots) >= 2:
            try:
                results.add(bots, ranks_for_rating(ranks))
            except ValueError:  # a bot seated twice (matchmaking never does it): leave the game out, not the fit
                log.warning("match %s left out of the rating fit of %s: a bot sits twice", current, ladder.slug)

    for match_id, bot_id, rank in rows.iterator(chunk_size=10_000):
        if match_id != current:
            flush()
            current, bots, ranks = match_id, [], []
        bots.append(bot_id)
        ranks.append(rank)
    flush()
    return results


def refit_ratings(ladder_id: int | None = None, force: bool = False) -> list[int]:
    """Refit the leaderboard ratings (ladders.rating_fit) of every ladder, or of one, whose number of rated
    finished games changed since its last fit (or always, with `force`). Returns the ids of the ladders refitted.

    The fit reads all of a ladder's results (a second or two at 100k matches) outside any transaction, starting
    from the stored ratings; the write locks the ladder's rating rows in id order, the order `apply_ratings`
    locks them in, and touches only `rating`/`rating_interval`, which `apply_ratings` never writes."""
    ladders = Ladder.objects.all() if ladder_id is None else Ladder.objects.filter(pk=ladder_id)
    done = []
    for ladder in ladders:
        finished = Match.objects.filter(ladder=ladder, rated=True, status=Match.Status.FINISHED).count()
        if finished == ladder.fitted_games and not force:
            continue
        start = dict(Rating.objects.filter(ladder=ladder).values_list("bot_id", "rating"))
        result = fit(ladder_results(ladder), start.keys(), centre=settings.ARENA_RATING["initial_elo"], start=start)
        with transaction.atomic():
            rows = list(Rating.objects.select_for_update().filter(ladder=ladder).order_by("pk"))
            for r in rows:
                if r.bot_id in result.rating:
                    r.rating, r.rating_interval = result.rating[r.bot_id], result.interval[r.bot_id]
            Rating.objects.bulk_update(rows, ["rating", "rating_interval"], batch_size=1000)
            Ladder.objects.filter(pk=ladder.pk).update(fitted_games=finished, fitted_at=timezone.now(),
                                                       dispersion=result.dispersion)
        done.append(ladder.pk)
    if done:
        log.info("ratings refitted on ladders %s", done)
    return done
