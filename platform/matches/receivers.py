"""The matches' part in deleting an account (`accounts.signals.account_deleting`): the person's bots are retired
(`botregistry.receivers`), so their queued ladder matches and challenges are cancelled rather than played.

Running matches play on, and finished ones stay as they are (others' ratings and replays depend on them).
Queued tournament and version-test matches are left to their apps: a tournament game's seats are fixed by its
schedule (the retired bot forfeits the games not yet made, `tournaments.services`), and a version test's pair is
one deal played twice (the person's own tests are stopped by `versiontests.receivers`, which cancels theirs).
"""

from __future__ import annotations

from django.dispatch import receiver

from accounts.signals import account_deleting
from botregistry.receivers import owned_bots
from matches.models import Match
from matches.services import cancel

CANCELLED_KINDS = [Match.Kind.LADDER, Match.Kind.CHALLENGE]


@receiver(account_deleting, dispatch_uid="matches.cancel_queued")
def cancel_queued(sender, user, **kwargs) -> None:
    queued = (Match.objects.filter(status=Match.Status.QUEUED, kind__in=CANCELLED_KINDS,
                                   participants__bot__in=owned_bots(user.pk))
              .values_list("pk", flat=True).distinct())
    cancel(list(queued), "cancelled: a bot's owner deleted their account")
