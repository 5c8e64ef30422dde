"""The suspension rule: a ready version that crashed, timed out, failed to start or was disqualified in more than
`fault_share` of its last `window` finished matches (at least `min_matches` of them) is suspended, with a reason
in words naming the faults and where to see them (`settings.ARENA_SUSPENSION`).

Only the bots' own faults count. What the host did is never among them: the referee charges a bot only the CPU
time the host gave it (arena.match.botclock), and a match the host could not play fairly is void and queued
again, never finished (`matches.services._set_aside`). One rule for the house's built-in bots and the authors'.
An owner who finds the faults were the host's after all resumes the version (`resume`) without uploading it
again: the rule then counts only the matches finished since.

It reads the seats of finished matches, so it lives with the matches and runs when a result is recorded
(`matches.services.record_result`, step 5 of a match's life); the bot registry only holds the version's status.
"""

from __future__ import annotations

import logging
from collections import Counter

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from arena.match.types import FaultKind
from arena.reasons import Reason
from botregistry.models import BotVersion
from botregistry.signals import version_suspended
from matches.models import Match, Participant

log = logging.getLogger("arena.platform")

# a FaultKind is a str: the stored kinds ("crash", ...) are found in this set as they are
FAULTS_THAT_SUSPEND = frozenset({FaultKind.CRASH, FaultKind.TIMEOUT, FaultKind.STARTUP, FaultKind.DISQUALIFIED})


class ResumeRefused(Exception):
    """Only a suspended version can be resumed (the message says why this one cannot)."""


def check_suspension(version: BotVersion) -> bool:
    """Suspend a ready version when it faulted in most of its recent matches (since its owner last resumed it).
    Returns whether it was suspended now (False for a version already suspended, failed, or doing well enough)."""
    rule = settings.ARENA_SUSPENSION
    finished = Participant.objects.filter(version=version, match__status=Match.Status.FINISHED)
    if version.resumed_at is not None:
        finished = finished.filter(match__finished_at__gt=version.resumed_at)
    recent = list(finished.order_by("-match__finished_at", "-match_id")[:rule["window"]])
    if len(recent) < rule["min_matches"]:
        return False
    bad = [p for p in recent if any(f.get("kind") in FAULTS_THAT_SUSPEND for f in p.faults)]
    if len(bad) <= rule["fault_share"] * len(recent):
        return False
    # each bad match counted once per kind of fault it had (a disqualification follows the faults that caused it)
    kinds = Counter(k for p in bad for k in {f.get("kind") for f in p.faults if f.get("kind") in FAULTS_THAT_SUSPEND})
    what = [Reason(f"suspension.{k}", {"matches": n}).to_json()
            for k, n in sorted(kinds.items(), key=lambda kv: -kv[1])]
    # words only: a fault's message can carry the bot's own output, which the match page shows its readers
    return suspend(version, Reason("suspension.faulted", {"bad": len(bad), "recent": len(recent), "kinds": what,
                                                          "match": bad[0].match_id}))


def suspend(version: BotVersion, reason: Reason) -> bool:
    """Suspend `version` if it is ready (one rule for built-in and uploaded bots), with `reason` (arena.reasons:
    stored in English words and as its code, told in each reader's language);
    `version_suspended` is sent once the change commits. Also for a version whose package no worker can unpack
    (`matches.tasks.play`): it would fail every match it is seated in. Returns whether it was suspended now."""
    with transaction.atomic():
        updated = BotVersion.objects.filter(pk=version.pk, status=BotVersion.Status.READY).update(
            status=BotVersion.Status.SUSPENDED, status_reason=reason.english()[:500],
            status_reasons=[reason.to_json()], suspended_at=timezone.now())
        if updated:
            log.warning("%s suspended: %s", version, reason.english())
            version_id = version.pk
            transaction.on_commit(lambda: version_suspended.send_robust(sender=BotVersion, version_id=version_id))
    return bool(updated)


def resume(version: BotVersion) -> BotVersion:
    """The owner's "resume": a suspended version is ready again, as it is, and the rule counts only the matches
    it finishes from now on. Raises ResumeRefused for a version that is not suspended."""
    with transaction.atomic():
        version = BotVersion.objects.select_for_update().select_related("bot").get(pk=version.pk)
        if version.status != BotVersion.Status.SUSPENDED:
            raise ResumeRefused(gettext("version %(number)s is %(status)s, not suspended: there is nothing to "
                                        "resume") % {"number": version.number,
                                                     "status": version.get_status_display().lower()})
        version.status = BotVersion.Status.READY
        version.status_reason, version.status_reasons = "", []
        version.resumed_at = timezone.now()
        version.save(update_fields=["status", "status_reason", "status_reasons", "resumed_at"])
    log.warning("%s resumed by its owner after a suspension", version)
    return version
