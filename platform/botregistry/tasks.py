"""Validation of an uploaded bot version: a smoke match against built-in bots in the sandbox."""

from __future__ import annotations

import logging
from pathlib import Path

from celery import shared_task
from django.db import transaction

from arena_site.sandbox_mode import worker_refusal
from botregistry.models import BotVersion
from botregistry.services import build_cache_dir, manifest_dict, mark_validated, public_paths_removed

log = logging.getLogger("arena.platform")

HOST_TROUBLE = "validation could not run on this server; use \"validate again\" on the bot's page later"
#: the reason's words before "validate again" existed: versions that failed with it may still be validated again
HOST_TROUBLE_BEFORE = "validation could not run on this server; please upload again later"


def _manifest_unchanged(version: BotVersion) -> bool:
    """Whether the package's bot.toml still says what the upload's did (validation runs on what was checked)."""
    from arena.botpkg import ManifestError, load_manifest

    try:
        return manifest_dict(load_manifest(version.package_path)) == version.manifest
    except ManifestError:
        return False


@shared_task(name="botregistry.tasks.validate_version", acks_late=True, reject_on_worker_lost=True,
             ignore_result=True)
def validate_version(version_id: int) -> str:
    """pending → validating → ready | failed. A failed version's `status_reason` is one line of words anyone may
    read; the details (compiler output, the bot's own output) go to `validation_log`, which only its owner sees,
    and neither names a path of this server. The smoke match has a fresh seed and seat (arena.botcheck). A
    version that is already ready, failed or suspended is left alone, so a re-delivered task changes nothing."""
    from django.conf import settings

    from arena.botcheck import check_bot
    from arena.sandbox.limits import SandboxLimits

    with transaction.atomic():
        version = BotVersion.objects.select_for_update().select_related("bot").filter(pk=version_id).first()
        if version is None or version.status not in (BotVersion.Status.PENDING, BotVersion.Status.VALIDATING):
            return "nothing to do"
        version.status = BotVersion.Status.VALIDATING
        version.save(update_fields=["status"])
    package = Path(version.package_path)
    if not _manifest_unchanged(version):
        mark_validated(version, False, "bot.toml changed after the upload",
                       "bot.toml no longer says what the uploaded one said; upload the bot again")
        return "failed"
    refusal = worker_refusal()
    if refusal:  # uploaded code never runs unconfined: the version fails with this worker's reason
        mark_validated(version, False, refusal[:500], "")
        return "failed"
    try:
        report = check_bot(package, sandbox=True, game=version.bot.game,
                           limits=SandboxLimits(**settings.ARENA_LIMITS),
                           build_cache=build_cache_dir(version.bot))
    except Exception:  # check_bot explains bot problems itself: this is the host's, told to the server's log only
        log.exception("validation of %s crashed", version)
        mark_validated(version, False, HOST_TROUBLE, "")
        return "error"
    if report.ok and not _manifest_unchanged(version):
        report.ok, report.reasons = False, ["the build changed bot.toml"]
    reason = public_paths_removed(report.reason, package).splitlines()[0][:500] if not report.ok else ""
    mark_validated(version, bool(report.ok), reason, public_paths_removed(report.log or "", package))
    return "ready" if report.ok else "failed"
