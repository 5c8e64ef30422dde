"""The suspension rule: a ready version that crashed, timed out, failed to start or was disqualified in more than
`fault_share` of its last `window` finished matches (at least `min_matches` of them) is suspended, with a reason
in words (`settings.ARENA_SUSPENSION`).

It reads the seats of finished matches, so it lives with the matches and runs when a result is recorded
(`matches.services.record_result`, step 5 of a match's life); the bot registry only holds the version's status.
Built-in bots are trusted and never suspended by it.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from arena.match.types import FaultKind
from botregistry.models import BotVersion
from botregistry.signals import version_suspended
from matches.models import Match, Participant

log = logging.getLogger("arena.platform")

# a FaultKind is a str: the stored kinds ("crash", ...) are found in this set as they are
FAULTS_THAT_SUSPEND = frozenset({FaultKind.CRASH, FaultKind.TIMEOUT, FaultKind.STARTUP, FaultKind.DISQUALIFIED})


def check_suspension(version: BotVersion) -> bool:
    """Suspend a ready version when it crashed or timed out in most of its recent matches. Returns whether it
    was suspended now (False for a version already suspended, failed, or doing well enough)."""
    rule = settings.ARENA_SUSPENSION
    recent = list(Participant.objects.filter(version=version, match__status=Match.Status.FINISHED)
                  .order_by("-match__finished_at", "-match_id")[:rule["window"]])
    if len(recent) < rule["min_matches"]:
        return False
    bad = [p for p in recent if any(f.get("kind") in FAULTS_THAT_SUSPEND for f in p.faults)]
    if len(bad) <= rule["fault_share"] * len(recent):
        return False
    last = next(f for f in bad[0].faults if f.get("kind") in FAULTS_THAT_SUSPEND)
    # words only: a fault's message can carry the bot's own output, which the match page shows its readers
    reason = (f"suspended: crashed or timed out in {len(bad)} of its last {len(recent)} matches; "
              f"most recent: {last.get('kind')} in match {bad[0].match_id}. "
              f"Upload a fixed version to play again.")
    return suspend(version, reason)


def suspend(version: BotVersion, reason: str) -> bool:
    """Suspend `version` if it is ready (never a built-in bot's), with `reason` in words; `version_suspended` is
    sent once the change commits. Also for a version whose package no worker can unpack (`matches.tasks.play`):
    it would fail every match it is seated in. Returns whether it was suspended now."""
    with transaction.atomic():
        updated = BotVersion.objects.filter(pk=version.pk, status=BotVersion.Status.READY,
                                            bot__builtin=False).update(
            status=BotVersion.Status.SUSPENDED, status_reason=reason[:500], suspended_at=timezone.now())
        if updated:
            log.warning("%s %s", version, reason)
            version_id = version.pk
            transaction.on_commit(lambda: version_suspended.send_robust(sender=BotVersion, version_id=version_id))
    return bool(updated)
