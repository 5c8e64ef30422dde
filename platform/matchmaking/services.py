"""Ladder matchmaking in the database: who can play now, and topping every active ladder up to its number of
pending matches (the rules, on plain values, are `matchmaking.rules`)."""

from __future__ import annotations

import logging
import random

from django.conf import settings
from django.db import transaction
from django.db.models import Count, Max

from botregistry.models import BotVersion
from ladders.models import Ladder, Rating, VersionRating
from matches.models import Match, Participant
from matches.services import create_match
from matches.storage import storage_low
from matchmaking.rules import Candidate, pick_table
from teams.models import Membership

log = logging.getLogger("arena.platform")

PENDING = (Match.Status.QUEUED, Match.Status.RUNNING)


def busy_bot_ids(ladder: Ladder) -> set[int]:
    """Bots already seated in a queued or running match of the ladder."""
    return set(Participant.objects.filter(match__ladder=ladder, match__status__in=PENDING)
               .values_list("bot_id", flat=True))


def ready_candidates(ladder: Ladder) -> list[Candidate]:
    """Every bot enrolled on the ladder whose active version is ready (and that is not retired), with its
    leaderboard rating (its active version's), its version's failed ladder matches (`matchmaking.rules.need_key`)
    and whether that version is still playing its first games there (`ARENA_RATING["new_version_first_games"]`,
    games counted at the last refit, failed matches counted too)."""
    rows = list(Rating.objects.filter(ladder=ladder, bot__active_version__status=BotVersion.Status.READY,
                                      bot__retired_at__isnull=True)
                .values_list("bot_id", "bot__owner_id", "bot__builtin", "bot__active_version_id",
                             "bot__active_version__created_at", "rating", "games", "last_played_at", "bot__team_id"))
    failures = {v: (n, last) for v, n, last in Participant.objects.filter(
        match__ladder=ladder, match__status=Match.Status.FAILED, version_id__in=[r[3] for r in rows])
        .values("version_id").annotate(n=Count("id"), last=Max("match__finished_at"))
        .values_list("version_id", "n", "last")}
    played = dict(VersionRating.objects.filter(ladder=ladder, version_id__in=[r[3] for r in rows])
                  .values_list("version_id", "games"))
    first = settings.ARENA_RATING["new_version_first_games"]
    members: dict[int, list[int]] = {}
    for team_id, user_id in Membership.objects.filter(team_id__in={t for *_, t in rows if t is not None}
                                                      ).values_list("team_id", "user_id"):
        members.setdefault(team_id, []).append(user_id)
    return [Candidate(bot_id=b, owner_id=o, house=h, version_id=v, version_created_at=vc, rating=r, games=g,
                      last_played_at=lp, team_id=t, member_ids=tuple(members.get(t, ())) if t is not None else (),
                      failed=failures.get(v, (0, None))[0], last_failed_at=failures.get(v, (0, None))[1],
                      new=played.get(v, 0) + failures.get(v, (0, None))[0] < first)
            for b, o, h, v, vc, r, g, lp, t in rows]


def candidates(ladder: Ladder) -> list[Candidate]:
    """Bots enrolled on the ladder with a ready active version that are not already in a pending match."""
    busy = busy_bot_ids(ladder)
    return [c for c in ready_candidates(ladder) if c.bot_id not in busy]


def matchmake(rng: random.Random | None = None) -> list[int]:
    """Top up every active ladder to its number of pending matches (none while storage is low,
    `matches.storage.storage_low`). Returns the new match ids."""
    low = storage_low()
    if low:  # replays would have nowhere to go: play what is queued, queue nothing new
        log.warning("matchmaking paused: %s", low)
        return []
    rng = rng or random.Random()
    rules = settings.ARENA_MATCHMAKING
    created: list[int] = []
    for ladder_id in Ladder.objects.filter(active=True).values_list("pk", flat=True):
        with transaction.atomic():
            # One matchmaker per ladder at a time, even with several workers.
            ladder = Ladder.objects.select_for_update().get(pk=ladder_id)
            pending = ladder.matches.filter(status__in=PENDING).count()
            pool = candidates(ladder)
            while pending < rules["max_pending_per_ladder"]:
                # opponents drawn by information (matchmaking.rules); ARENA_MATCHMAKING["window"] is only
                # the version tests' rule now
                table = pick_table(pool, ladder.players, rng)
                if table is None:
                    break
                match = create_match(
                    game=ladder.game, params=ladder.game_params, time_control=ladder.time_control.to_dict(),
                    versions=[c.version_id for c in table], ladder=ladder, kind=Match.Kind.LADDER,
                    rated=ladder.players > 1)  # a solo table has no rated opponent (the engine's is unrated)
                created.append(match.pk)
                pending += 1
                seated = {c.bot_id for c in table}
                pool = [c for c in pool if c.bot_id not in seated]
    if created:
        log.info("matchmaking queued matches %s", created)
    return created
