"""The leaderboard's fitted ratings from the recorded results: read every rated, finished game of a ladder and
refit (`ladders.rating_fit`, the ratings layer's maths), periodically (beat, `matches.tasks.refit_ratings`).

The players of the fit are bot versions (the version that sat in each seat), each chained to its bot's version
before; a bot's rating is its active version's (`ladders.models.Rating`), every version's is kept
(`VersionRating`) and its course over time (`RatingHistory`).

It lives with the matches because it reads them; the ratings layer below never does. (Each match's incremental
Elo and μ/σ are applied as it is recorded: `matches.services.record_result` → `ladders.services.apply_ratings`.)
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.db import transaction
from django.db.models import Max, QuerySet
from django.utils import timezone

from botregistry.models import BotVersion
from ladders.models import Ladder, Rating, RatingHistory, VersionRating
from ladders.rating import ranks_for_rating
from ladders.rating_fit import Results, fit
from matches.models import Match, Participant

log = logging.getLogger("arena.platform")


def ladder_results(ladder: Ladder) -> Results:
    """Every rated, finished game of the ladder as `rating_fit.Results` whose players are the bot versions that
    sat in the seats (a seat without a rank, e.g. a bot disqualified before the end, counts as last, as in
    `apply_ratings`)."""
    results = Results()
    rows = (Participant.objects.filter(match__in=season_matches(ladder))
            .order_by("match_id", "seat").values_list("match_id", "version_id", "rank"))
    current: int | None = None
    bots: list[int] = []
    ranks: list[int | None] = []

    def flush() -> None:
        if len(bots) >= 2:
            try:
                results.add(bots, ranks_for_rating(ranks))
            except ValueError:  # a version seated twice (matchmaking never does it): leave the game out, not the fit
                log.warning("match %s left out of the rating fit of %s: a version sits twice", current, ladder.slug)

    for match_id, version_id, rank in rows.iterator(chunk_size=10_000):
        if match_id != current:
            flush()
            current, bots, ranks = match_id, [], []
        bots.append(version_id)
        ranks.append(rank)
    flush()
    return results


def season_matches(ladder: Ladder) -> QuerySet[Match]:
    """The ladder's rated, finished matches of its current season (all of them before a first season closed)."""
    qs = Match.objects.filter(ladder=ladder, rated=True, status=Match.Status.FINISHED)
    if ladder.season_started_at is not None:
        qs = qs.filter(finished_at__gte=ladder.season_started_at)
    return qs


def version_chain(version_ids: set[int]) -> dict[int, int]:
    """`rating_fit.fit`'s `previous`: each of these versions → its bot's latest earlier version among them."""
    previous: dict[int, int] = {}
    last: dict[int, int] = {}
    for pk, bot_id in BotVersion.objects.filter(pk__in=version_ids).order_by("bot_id", "number").values_list(
            "pk", "bot_id"):
        if bot_id in last:
            previous[pk] = last[bot_id]
        last[bot_id] = pk
    return previous


def refit_ratings(ladder_id: int | None = None, force: bool = False) -> list[int]:
    """Refit the ratings (ladders.rating_fit) of every ladder, or of one, whose number of rated finished games
    changed since its last fit (or always, with `force`). Returns the ids of the ladders refitted.

    The players are the versions that played on the ladder and every enrolled bot's active version (a new one
    gets its predecessor's rating as a wider prior). The fit reads all of a ladder's results (a second or two at
    100k matches) outside any transaction, starting from the stored ratings; the write locks the ladder's rating
    rows in id order, the order `apply_ratings` locks them in, and touches only `rating`/`rating_interval`, which
    `apply_ratings` never writes."""
    ladders = Ladder.objects.all() if ladder_id is None else Ladder.objects.filter(pk=ladder_id)
    done = []
    every = settings.ARENA_RATING["history_every"]
    for ladder in ladders:
        finished = season_matches(ladder).count()
        if finished == ladder.fitted_games and not force:
            continue
        results = ladder_results(ladder)
        active = {v for v in Rating.objects.filter(ladder=ladder).values_list("bot__active_version_id", flat=True)
                  if v is not None}
        players = results.bots() | active
        known = {v.version_id: v for v in VersionRating.objects.filter(ladder=ladder)}
        result = fit(results, players, previous=version_chain(players), centred_on=active,
                     centre=settings.ARENA_RATING["initial_elo"],
                     start={v: r.rating for v, r in known.items()})
        games = results.games_of()
        now = timezone.now()
        last_point = dict(RatingHistory.objects.filter(ladder=ladder).values_list("version_id").annotate(
            at=Max("at")).values_list("version_id", "at"))
        with transaction.atomic():
            rows = list(Rating.objects.select_for_update().filter(ladder=ladder).select_related("bot")
                        .order_by("pk"))
            for r in rows:
                version = r.bot.active_version_id
                if version in result.rating:
                    r.rating, r.rating_interval = result.rating[version], result.interval[version]
            Rating.objects.bulk_update(rows, ["rating", "rating_interval"], batch_size=1000)
            VersionRating.objects.bulk_create(
                [VersionRating(ladder=ladder, version_id=v, rating=result.rating[v], rating_interval=result.interval[v],
                               games=games.get(v, 0), fitted_at=now) for v in players],
                update_conflicts=True, unique_fields=["ladder", "version"],
                update_fields=["rating", "rating_interval", "games", "fitted_at"], batch_size=1000)
            RatingHistory.objects.bulk_create(
                [RatingHistory(ladder=ladder, version_id=v, at=now, rating=result.rating[v],
                               rating_interval=result.interval[v], games=games.get(v, 0)) for v in players
                 if v not in known or (games.get(v, 0) != known[v].games
                                       and (v not in last_point or (now - last_point[v]).total_seconds() >= every))],
                batch_size=1000)
            Ladder.objects.filter(pk=ladder.pk).update(fitted_games=finished, fitted_at=now,
                                                       dispersion=result.dispersion)
        done.append(ladder.pk)
    if done:
        log.info("ratings refitted on ladders %s", done)
    return done
