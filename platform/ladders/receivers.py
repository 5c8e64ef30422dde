"""The ratings layer listening to the bot registry (`botregistry.signals`), which never calls up into it.

Connected in `LaddersConfig.ready`. Both receivers run inside the registry's transaction, so the rating rows
change together with the version's status or the bot's active version, or not at all.
"""

from __future__ import annotations

import logging
import secrets

from django.dispatch import receiver

from botregistry.models import BotVersion
from botregistry.signals import active_version_changed, validation_table, version_ready
from ladders.models import Ladder
from ladders.services import enroll, widen_for_new_version

log = logging.getLogger("arena.platform")


@receiver(version_ready, dispatch_uid="ladders.enroll_ready_version")
def enroll_ready_version(sender, version: BotVersion, **_) -> None:
    """A ready version: its bot gets a rating on every active ladder of its game (idempotent)."""
    enroll(version.bot)


@receiver(active_version_changed, dispatch_uid="ladders.widen_for_new_version")
def widen_for_changed_version(sender, bot_id: int, previous_version_id: int | None, **_) -> None:
    """Another version plays now: the rating becomes the new version's prior (the old rating, a wider
    interval), μ and Elo stay, σ widens, provisional again for a few games
    (`ladders.services.widen_for_new_version`). A bot's first version has nothing to widen."""
    if previous_version_id is not None:
        widened = widen_for_new_version(bot_id)
        log.info("bot %s changed version: %s ratings widened", bot_id, widened)


@receiver(validation_table, dispatch_uid="ladders.validation_table")
def ladder_table(sender, game: str, **_) -> dict | None:
    """The table of one of the active ladders of `game`, drawn at random (the ladders a ready version is enrolled
    on): its options and time control, for the validation's smoke match. None when the game has no ladder."""
    ladders = list(Ladder.objects.filter(game=game, active=True, listed=True))
    if not ladders:
        return None
    ladder = secrets.choice(ladders)
    return {"params": ladder.game_params, "time_control": ladder.time_control.to_dict()}
