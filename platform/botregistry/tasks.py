"""Validation of an uploaded bot version: a smoke match against built-in bots in the sandbox."""

from __future__ import annotations

import logging
import secrets
from pathlib import Path

from celery import shared_task
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from arena_site import uid_blocks
from arena_site.heartbeat import Heartbeat
from arena_site.sandbox_mode import worker_refusal
from arena_site.workers import worker_id
from botregistry import package_cache, services
from botregistry.models import BotVersion
from botregistry.services import build_cache_dir, manifest_dict, public_paths_removed, validation_lapsed

log = logging.getLogger("arena.platform")

HOST_TROUBLE = "validation could not run on this server; use \"validate again\" on the bot's page later"
#: the reason's words before "validate again" existed: versions that failed with it may still be validated again
HOST_TROUBLE_BEFORE = "validation could not run on this server; please upload again later"


class _ValidationHeartbeat(Heartbeat):
    """The validating run's heartbeat (a long build is only slow; a gone worker's heartbeat goes stale)."""

    def __init__(self, version_id: int, claim: str):
        super().__init__(f"the validation of version {version_id}")
        self.version_id, self.claim = version_id, claim

    def beat(self) -> bool:
        # nothing updated: decided, or taken over by another run (whose outcome stands, not this one's)
        return bool(BotVersion.objects.filter(pk=self.version_id, validation_claim=self.claim,
                                              status=BotVersion.Status.VALIDATING).update(
                                                  validation_heartbeat_at=timezone.now()))


def _manifest_unchanged(version: BotVersion, package: Path) -> bool:
    """Whether the package's bot.toml still says what the upload's did (validation runs on what was checked)."""
    from arena.botpkg import ManifestError, load_manifest

    try:
        return manifest_dict(load_manifest(package)) == version.manifest
    except ManifestError:
        return False


@shared_task(name="botregistry.tasks.validate_version", acks_late=True, reject_on_worker_lost=True,
             ignore_result=True)
def validate_version(version_id: int) -> str:
    """pending → validating → ready | failed. A failed version's `status_reason` is one line of words anyone may
    read; the details (compiler output, the bot's own output) go to `validation_log`, which only its owner sees,
    and neither names a path of this server. The smoke match has a fresh seed and seat (arena.botcheck). A
    version that is already ready, failed or suspended is left alone, so a re-delivered task changes nothing; one
    being validated by a live run (heartbeat within ARENA_STALE_AFTER_SECONDS) too, so a re-sent message never
    validates a version twice at once, and a run that lost its claim records nothing."""
    claim = f"{worker_id()}#{secrets.token_hex(4)}"
    with transaction.atomic():
        version = BotVersion.objects.select_for_update().select_related("bot").filter(pk=version_id).first()
        if version is None or version.status not in (BotVersion.Status.PENDING, BotVersion.Status.VALIDATING):
            return "nothing to do"
        if version.status == BotVersion.Status.VALIDATING and not validation_lapsed(version):
            return "nothing to do (another run is validating it)"  # a duplicate message: never validated twice
        version.status = BotVersion.Status.VALIDATING
        version.validation_claim = claim
        version.validation_heartbeat_at = timezone.now()
        version.save(update_fields=["status", "validation_claim", "validation_heartbeat_at"])
    beat = _ValidationHeartbeat(version.pk, claim)
    beat.start()
    try:
        # a copy of the upload on this machine, from storage (botregistry.package_cache): never shared with the web
        with package_cache.working_copy(version) as folder:
            version.package_dir = str(folder)  # this run's copy (never saved)
            return _validate(version, claim)
    except package_cache.PackageRefused as exc:
        services.mark_validated(version, False, str(exc)[:500], "", claim=claim)
        return "failed"
    except Exception:  # storage unreachable: the host's trouble, "validate again" later
        log.exception("validation of %s could not get its archive", version)
        services.mark_validated(version, False, HOST_TROUBLE, "", claim=claim)
        return "error"
    finally:
        beat.stop()


def _validate(version: BotVersion, claim: str) -> str:
    """The validation itself, by the run holding `claim`: only its outcome is recorded."""
    from arena.botcheck import check_bot
    from arena.sandbox.limits import SandboxLimits

    def mark_validated(version: BotVersion, ok: bool, reason: str, log_text: str) -> None:
        if ok and not package_cache.keep_validated(version, claim):  # stored before it may play: workers fetch it
            ok, reason, log_text = False, HOST_TROUBLE, ""
        services.mark_validated(version, ok, reason, log_text, claim=claim)

    package = version.package_path
    assert package is not None, "validate() points it at this run's copy"
    if not _manifest_unchanged(version, package):
        mark_validated(version, False, "bot.toml changed after the upload",
                       "bot.toml no longer says what the uploaded one said; upload the bot again")
        return "failed"
    refusal = worker_refusal()
    if refusal:  # uploaded code never runs unconfined: the version fails with this worker's reason
        mark_validated(version, False, refusal[:500], "")
        return "failed"
    try:
        uid_blocks.ensure_block()  # this worker's own uids (arena_site.uid_blocks)
        report = check_bot(package, sandbox=True, game=version.bot.game,
                           limits=SandboxLimits(**settings.ARENA_LIMITS),
                           build_cache=build_cache_dir(version.bot))
    except Exception:  # check_bot explains bot problems itself: this is the host's, told to the server's log only
        log.exception("validation of %s crashed", version)
        mark_validated(version, False, HOST_TROUBLE, "")
        return "error"
    if report.ok and not _manifest_unchanged(version, package):
        report.ok, report.reasons = False, ["the build changed bot.toml"]
    reason = public_paths_removed(report.reason, package).splitlines()[0][:500] if not report.ok else ""
    mark_validated(version, bool(report.ok), reason, public_paths_removed(report.log or "", package))
    return "ready" if report.ok else "failed"
