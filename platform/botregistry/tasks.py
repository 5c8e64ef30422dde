"""Validation of an uploaded bot version: a smoke match against built-in bots in the sandbox."""

from __future__ import annotations

import logging

from celery import shared_task
from django.db import transaction

from botregistry.models import BotVersion
from botregistry.services import mark_validated

log = logging.getLogger("arena.platform")


@shared_task(name="botregistry.tasks.validate_version", acks_late=True, reject_on_worker_lost=True,
             ignore_result=True)
def validate_version(version_id: int) -> str:
    """pending → validating → ready | failed (with a reason and the validation match's log). A version that
    is already ready, failed or suspended is left alone, so a re-delivered task changes nothing."""
    from arena.botcheck import check_bot
    from arena.sandbox.limits import SandboxLimits
    from django.conf import settings

    with transaction.atomic():
        version = BotVersion.objects.select_for_update().select_related("bot").filter(pk=version_id).first()
        if version is None or version.status not in (BotVersion.Status.PENDING, BotVersion.Status.VALIDATING):
            return "nothing to do"
        version.status = BotVersion.Status.VALIDATING
        version.save(update_fields=["status"])
    try:
        report = check_bot(version.package_path, sandbox=True, game=version.bot.game,
                           limits=SandboxLimits(**settings.ARENA_LIMITS))
    except Exception as exc:  # check_bot explains bot problems itself: this is the host's
        log.exception("validation of %s crashed", version)
        mark_validated(version, False, f"validation could not run on this server ({type(exc).__name__}: {exc}); "
                                       f"please upload again later", "")
        return "error"
    reason = "; ".join(report.problems) or ("" if report.ok else "the validation match failed")
    mark_validated(version, bool(report.ok), reason, report.log or "")
    return "ready" if report.ok else "failed"
