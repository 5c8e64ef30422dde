"""Challenges: an owner's bot against opponents they name, on a ladder's game, players and time control.
Unrated, seats drawn as on the ladder, at most `ARENA_CHALLENGES_PER_DAY` in any 24 hours per user. Who may
challenge whom (the bot is the user's, every bot plays the ladder's game and has a ready version) is checked
by the API's serializer before this is called."""

from __future__ import annotations

import random
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from botregistry.models import Bot
from ladders.models import Ladder
from matches.models import Match
from matches.services import create_match


class ChallengeQuotaReached(Exception):
    """The user has made `ARENA_CHALLENGES_PER_DAY` challenges in the last 24 hours (the message says so)."""


def create_challenge(user: User, ladder: Ladder, bot: Bot, opponents: list[Bot], rng: random.Random | None = None
                     ) -> Match:
    """A queued, unrated challenge match, its seats drawn at random. Raises `ChallengeQuotaReached`."""
    quota = settings.ARENA_CHALLENGES_PER_DAY
    with transaction.atomic():
        # Lock the user's row so two simultaneous requests can't both squeeze under the quota.
        get_user_model().objects.select_for_update().get(pk=user.pk)
        used = Match.objects.filter(kind=Match.Kind.CHALLENGE, requested_by=user,
                                    created_at__gte=timezone.now() - timedelta(days=1)).count()
        if used >= quota:
            raise ChallengeQuotaReached(f"challenge quota reached: {quota} a day; try again later")
        table = [bot, *opponents]
        (rng or random.Random()).shuffle(table)  # seats are drawn, as on the ladder
        versions = [b.playing_version for b in table]
        if None in versions:  # the serializer refuses such a bot first
            raise ValueError("every bot of a challenge needs a ready version")
        return create_match(game=ladder.game, params=ladder.game_params, time_control=ladder.time_control.to_dict(),
                            versions=[v.pk for v in versions if v is not None], ladder=ladder,
                            kind=Match.Kind.CHALLENGE, rated=False, requested_by=user)
