"""The bot registry's part in deleting an account (`accounts.signals.account_deleting`): retire the person's bots.

A retired bot keeps its row, versions, matches and ratings (others' ratings and replays depend on them) but plays
no more: `Bot.playing_version` is None, so matchmaking, challenges and tournaments' future games pass it by
(`matchmaking.services.ready_candidates`, `tournaments.services`), and leaderboards leave it out. Bots a team owns
are the team's, not the person's, and play on.
"""

from __future__ import annotations

from django.dispatch import receiver
from django.utils import timezone

from accounts.signals import account_deleting
from botregistry.models import Bot


def owned_bots(user_id: int):
    """The bots that are the person's own (a bot a team owns is the team's, whoever made it)."""
    return Bot.objects.filter(owner_id=user_id, team__isnull=True)


@receiver(account_deleting, dispatch_uid="botregistry.retire_bots")
def retire_bots(sender, user, **kwargs) -> None:
    owned_bots(user.pk).filter(retired_at__isnull=True).update(retired_at=timezone.now())
