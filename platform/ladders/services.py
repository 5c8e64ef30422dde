"""Ladders: making them, enrolling bots on them, and making the next ladder matches."""

from __future__ import annotations

import logging
import random

from django.conf import settings
from django.db import transaction
from django.db.models import Q

from botregistry.models import Bot, BotVersion
from ladders.matchmaking import Candidate, pick_table
from ladders.models import Ladder, Rating

log = logging.getLogger("arena.platform")


def ensure_ladders() -> list[Ladder]:
    """Create the ladders of `settings.ARENA_LADDERS` for every game that is installed and supports the
    player count. Existing ladders are left as they are (an admin may have changed them)."""
    from arena.games import game_class, names

    made = []
    for game, players in settings.ARENA_LADDERS:
        if game not in names():
            continue
        try:
            cls = game_class(game)
        except ImportError:  # registered but not written yet
            continue
        if not cls.min_players <= players <= cls.max_players:
            continue
        ladder, _ = Ladder.objects.get_or_create(
            slug=f"{game}-{players}p", defaults={"name": f"{game.capitalize()} {players}p", "game": game,
                                                 "players": players})
        made.append(ladder)
    return made


def enroll(bot: Bot) -> None:
    """Give the bot a rating on every active ladder of its game (idempotent)."""
    for ladder in Ladder.objects.filter(game=bot.game, active=True):
        Rating.objects.get_or_create(ladder=ladder, bot=bot)


def widen_for_new_version(bot_id: int) -> int:
    """A bot's active version changed: on every ladder keep its μ and Elo (the new version starts from the old
    one's standing), raise σ to at least `new_version_sigma` × the initial σ, and make the rating provisional
    for `new_version_provisional_games` more games. Returns the number of ratings changed.

    One UPDATE, so it is atomic per row against `apply_ratings` (which holds the same row locks)."""
    from django.db.models import F
    from django.db.models.functions import Greatest

    from ladders.rating import initial_skill

    rules = settings.ARENA_RATING
    floor = rules["new_version_sigma"] * initial_skill().sigma
    return Rating.objects.filter(bot_id=bot_id).update(
        sigma=Greatest(F("sigma"), floor), provisional_until=F("games") + rules["new_version_provisional_games"])


def busy_bot_ids(ladder: Ladder) -> set[int]:
    from matches.models import Match, Participant
    return set(Participant.objects.filter(match__ladder=ladder,
                                          match__status__in=[Match.Status.QUEUED, Match.Status.RUNNING])
               .values_list("bot_id", flat=True))


def candidates(ladder: Ladder) -> list[Candidate]:
    """Bots enrolled on the ladder with a ready active version that are not already in a pending match."""
    busy = busy_bot_ids(ladder)
    rows = (Rating.objects.filter(ladder=ladder, bot__active_version__status=BotVersion.Status.READY)
            .exclude(bot_id__in=busy)
            .values_list("bot_id", "bot__owner_id", "bot__builtin", "bot__active_version_id",
                         "bot__active_version__created_at", "elo", "games", "last_played_at"))
    return [Candidate(bot_id=b, owner_id=o, house=h, version_id=v, version_created_at=vc, elo=e, games=g,
                      last_played_at=lp) for b, o, h, v, vc, e, g, lp in rows]


def matchmake(rng: random.Random | None = None) -> list[int]:
    """Top up every active ladder to its number of pending matches. Returns the new match ids."""
    from matches.services import create_match

    rng = rng or random.Random()
    rules = settings.ARENA_MATCHMAKING
    created: list[int] = []
    for ladder_id in Ladder.objects.filter(active=True).values_list("pk", flat=True):
        with transaction.atomic():
            # One matchmaker per ladder at a time, even with several workers.
            ladder = Ladder.objects.select_for_update().get(pk=ladder_id)
            pending = ladder.matches.filter(Q(status="queued") | Q(status="running")).count()
            pool = candidates(ladder)
            while pending < rules["max_pending_per_ladder"]:
                table = pick_table(pool, ladder.players, rng, rules["window"])
                if table is None:
                    break
                match = create_match(
                    game=ladder.game, params=ladder.game_params, time_control=ladder.time_control.to_dict(),
                    versions=[c.version_id for c in table], ladder=ladder, kind="ladder", rated=True, rng=rng)
                created.append(match.pk)
                pending += 1
                seated = {c.bot_id for c in table}
                pool = [c for c in pool if c.bot_id not in seated]
    if created:
        log.info("matchmaking queued matches %s", created)
    return created


def apply_ratings(match, participants) -> None:
    """Update the ladder ratings of a finished match's bots and note before/after on each participant.

    Call inside the transaction that records the match: the rating rows are locked (in id order, so two
    matches finishing at once can't deadlock) and change together with the match becoming finished."""
    from django.utils import timezone

    from ladders.rating import Skill, elo_changes, openskill_update

    bot_ids = [p.bot_id for p in participants]
    for bot_id in bot_ids:
        Rating.objects.get_or_create(ladder_id=match.ladder_id, bot_id=bot_id)
    ratings = {r.bot_id: r for r in Rating.objects.select_for_update().filter(
        ladder_id=match.ladder_id, bot_id__in=bot_ids).order_by("pk")}
    ranks = [p.rank if p.rank is not None else len(participants) for p in participants]
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
