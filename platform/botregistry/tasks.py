"""Validation of an uploaded bot version: a smoke match against built-in bots in the sandbox, at a ladder's table
(`_ladder_table`: as far as the bot can tell, a ladder match)."""

from __future__ import annotations

import logging
import secrets
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from celery import shared_task
from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from accounts.language import language_of
from arena.games.speech import speaking
from arena.match.types import BotSpec, TimeControl
from arena.reasons import Reason
from arena_site import uid_blocks
from arena_site.heartbeat import Heartbeat
from arena_site.sandbox_mode import worker_refusal
from arena_site.workers import worker_id
from botregistry import package_cache, services
from botregistry.models import BotVersion
from botregistry.services import HOST_TROUBLE, build_cache_dir, manifest_dict, public_paths_removed, validation_lapsed
from botregistry.signals import validation_table

log = logging.getLogger("arena.platform")

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


def _ladder_table(version: BotVersion) -> tuple[dict[str, Any], TimeControl, list[BotVersion] | None]:
    """The smoke match as a ladder match of the bot's game (issue 22: a bot that recognised its validation could
    pass it and then fault on purpose on the ladder): a ladder's options and time control (asked through
    `signals.validation_table`; the game's fewest players and the default time control without a ladder), and
    for the other seats built-in bots that play on the ladders, drawn at random (None when there are none:
    arena.botcheck's random bots then)."""
    from arena import games

    game = version.bot.game
    answers = [answer for _, answer in validation_table.send(sender=BotVersion, game=game) if answer]
    table: dict[str, Any] = answers[0] if answers else {}  # type: ignore[assignment]  # ladders.receivers answers a dict
    params = dict(table.get("params") or {"players": games.game_class(game).min_players})
    time_control = TimeControl(**table["time_control"]) if "time_control" in table else TimeControl()
    house = list(BotVersion.objects.filter(bot__builtin=True, bot__game=game, bot__retired_at__isnull=True,
                                           bot__active_version=F("pk"), status=BotVersion.Status.READY)
                 .select_related("bot"))
    if not house:
        return params, time_control, None
    seats, draw = int(params["players"]) - 1, secrets.SystemRandom()
    # a ladder never seats a bot twice; a site with fewer built-in bots than seats repeats one (names too)
    return params, time_control, draw.sample(house, seats) if len(house) >= seats else draw.choices(house, k=seats)


def fault_summary(report: Any) -> str:
    """One line for the server's log on a failed smoke match (an `arena.botcheck.CheckReport`): its seed and the
    bot's seat (to play it again) and the first line of each problem, at most 300 characters of them."""
    problems = "; ".join(p.strip().splitlines()[0] for p in report.problems if p.strip()) or "no detail"
    return f"seed {report.seed}, seat {report.seat}: {problems[:300]}"


def _validate(version: BotVersion, claim: str) -> str:
    """The validation itself, by the run holding `claim`: only its outcome is recorded."""
    from arena.botcheck import check_bot
    from arena.sandbox.limits import SandboxLimits

    def mark_validated(version: BotVersion, ok: bool, reason: str | list[Reason], log_text: str) -> None:
        try:
            if ok and not package_cache.keep_validated(version, claim):  # stored before it may play: workers fetch it
                ok, reason, log_text = False, HOST_TROUBLE, ""
        except package_cache.PackageRefused as exc:  # a package no worker would unpack: the bot's, not the host's
            ok, reason, log_text = False, [Reason("validation.package_refused", {"detail": str(exc)[:400]})], str(exc)
        services.mark_validated(version, ok, reason, log_text, claim=claim)

    package = version.package_path
    assert package is not None, "validate() points it at this run's copy"
    if not _manifest_unchanged(version, package):
        mark_validated(version, False, [Reason("validation.manifest_changed")],
                       "bot.toml no longer says what the uploaded one said; upload the bot again")
        return "failed"
    refusal = worker_refusal()
    if refusal:  # uploaded code never runs unconfined: the version fails with this worker's reason
        mark_validated(version, False, refusal[:500], "")
        return "failed"
    try:
        uid_blocks.ensure_block()  # this worker's own uids (arena_site.uid_blocks)
        params, time_control, opponents = _ladder_table(version)
        with ExitStack() as held:  # the opponents' packages stay in this worker's cache until the match ends
            specs = [BotSpec(str(held.enter_context(package_cache.local_package(v))), name=v.seat_name)
                     for v in opponents] if opponents is not None else None
            # the explanations in the validation log in the owner's language (arena.games.speech)
            held.enter_context(speaking(language_of(version.bot.owner)))
            report = check_bot(package, sandbox=True, game=version.bot.game,
                               limits=SandboxLimits(**settings.ARENA_LIMITS),
                               build_cache=build_cache_dir(version.bot), params=params, time_control=time_control,
                               name=version.seat_name, opponents=specs)
    except Exception:  # check_bot explains bot problems itself: this is the host's, told to the server's log only
        log.exception("validation of %s crashed", version)
        mark_validated(version, False, HOST_TROUBLE, "")
        return "error"
    finally:
        services.bound_build_caches(version.bot)  # what this build kept counts against its owner's share
    if report.ok and not _manifest_unchanged(version, package):
        report.ok, report.reasons = False, [Reason("check.build_changed_manifest")]
    if not report.ok:  # the server's log says why too: an operator sees a failing worker without the owner's log
        log.warning("validation of %s failed: %s (%s)", version, report.reason, fault_summary(report))
    # the reasons are fixed phrases with identifiers for parameters (arena.reasons): no path of this server
    mark_validated(version, bool(report.ok), report.outcome, public_paths_removed(report.log or "", package))
    return "ready" if report.ok else "failed"
