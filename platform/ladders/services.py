"""The ratings layer's writes: making ladders, enrolling bots on them, widening a bot's ratings when its version
changes, and applying a finished match's result to its players' ratings.

Nothing here knows a match: `apply_ratings` is given the match's ladder and seats by `matches.services`
(recording a result), and the periodic refit of the leaderboard ratings reads the results in `matches.ratings`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.db.models import F, OuterRef, Subquery
from django.db.models.functions import Coalesce, Greatest, Power, Sqrt
from django.utils import timezone

from botregistry.models import Bot
from ladders.models import Ladder, Rating, VersionRating
from ladders.rating import Skill, elo_changes, initial_skill, openskill_update, ranks_for_rating
from ladders.rating_fit import VERSION_SD, Z95


def ladder_name(game: str, players: int) -> str:
    """A default ladder's name: "Thebes 3p", "Minos solo" (one seat against the engine's own opponent)."""
    return f"{game.capitalize()} solo" if players == 1 else f"{game.capitalize()} {players}p"


def ensure_ladders() -> list[Ladder]:
    """Create a ladder for every player count of every installed game: those of `settings.ARENA_LADDERS` playing,
    the others paused until staff start them (admin: "active"), so that every count can be challenged on without
    the admin. Existing ladders are left as they are (an admin may have changed them)."""
    from arena.games import game_class, names

    playing = {(game, players) for game, players in settings.ARENA_LADDERS}
    made = []
    for game in names():
        try:
            cls = game_class(game)
        except ImportError:  # registered but not written yet
            continue
        for players in range(cls.min_players, cls.max_players + 1):
            ladder, _ = Ladder.objects.get_or_create(
                slug=f"{game}-{players}p", defaults={"name": ladder_name(game, players), "game": game,
                                                     "players": players, "active": (game, players) in playing})
            made.append(ladder)
    return made


def enroll(bot: Bot) -> None:
    """Give the bot a rating on every public ladder of its game, paused ones too, so that a ladder staff start
    finds its bots already there (idempotent). A competition's ladder (`Ladder.listed` off) enrols its entries
    only."""
    for ladder in Ladder.objects.filter(game=bot.game, listed=True):
        Rating.objects.get_or_create(ladder=ladder, bot=bot)


def widen_for_new_version(bot_id: int) -> int:
    """A bot's active version changed: on every ladder its rating becomes the new version's before it has
    played, the fit's prior (ladders.rating_fit): the old version's rating with the interval widened by one
    version step, √(interval² + (1.96 · VERSION_SD)²), until the next refit rates it from its own games (a
    version that played on the ladder before gets its own last fitted rating back). μ and
    Elo stay, σ rises to at least `new_version_sigma` × the initial σ, and the rating is provisional for
    `new_version_provisional_games` more games. Returns the number of ratings changed.

    One UPDATE, so it is atomic per row against `apply_ratings` (which holds the same row locks)."""
    rules = settings.ARENA_RATING
    floor = rules["new_version_sigma"] * initial_skill().sigma
    step = (Z95 * VERSION_SD) ** 2
    # a version that played here before (a switch back) has a rating of its own already
    own = VersionRating.objects.filter(ladder_id=OuterRef("ladder_id"), version__bot__active_version=F("version"),
                                       version__bot_id=bot_id)
    return Rating.objects.filter(bot_id=bot_id).update(
        sigma=Greatest(F("sigma"), floor), provisional_until=F("games") + rules["new_version_provisional_games"],
        rating=Coalesce(Subquery(own.values("rating")[:1]), F("rating")),
        rating_interval=Coalesce(Subquery(own.values("rating_interval")[:1]),
                                 Sqrt(Power(F("rating_interval"), 2) + step)))


def apply_ratings(match: Any, participants: Sequence[Any]) -> None:
    """Update the ladder ratings of a finished match's bots and note before/after on each participant.

    `match` and `participants` are `matches.models.Match` and its `Participant`s (matches sits below ladders, so
    they are not named here). Call inside the transaction that records the match: the rating rows are locked (in id order, so two
    matches finishing at once can't deadlock) and change together with the match becoming finished."""
    bot_ids = [p.bot_id for p in participants]
    for bot_id in bot_ids:
        Rating.objects.get_or_create(ladder_id=match.ladder_id, bot_id=bot_id)
    ratings = {r.bot_id: r for r in Rating.objects.select_for_update().filter(
        ladder_id=match.ladder_id, bot_id__in=bot_ids).order_by("pk")}
    ranks = ranks_for_rating([p.rank for p in participants])
    current = [ratings[p.bot_id] for p in participants]
    deltas = elo_changes([r.elo for r in current], ranks, k=settings.ARENA_RATING["k"])
    skills = openskill_update([Skill(r.mu, r.sigma) for r in current], ranks)
    now = timezone.now()
    best = min(ranks)
    for p, rating, delta, skill, rank in zip(participants, current, deltas, skills, ranks):
        p.elo_before, p.mu_before, p.sigma_before = rating.elo, rating.mu, rating.sigma
        rating.elo += delta
        rating.mu, rating.sigma = skill.mu, skill.sigma
        rating.games += 1
        rating.wins += int(rank == best and ranks.count(best) == 1)
        rating.last_played_at = now
        p.elo_after, p.mu_after, p.sigma_after = rating.elo, rating.mu, rating.sigma
    Rating.objects.bulk_update(current, ["elo", "mu", "sigma", "games", "wins", "last_played_at"])
