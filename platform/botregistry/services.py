"""Creating bot versions: from an uploaded archive (validated later by a Celery task) or from a built-in bot
folder (trusted, ready at once); choosing the version that plays.

The registry calls nothing above it: what the ratings layer does when a version becomes ready (enrol the bot on
its game's ladders) or when the version a bot plays changes (widen its ratings) is a receiver of
`botregistry.signals`. Suspending a version that keeps faulting is the matches' rule (`matches.suspension`)."""

from __future__ import annotations

import hashlib
import logging
import shutil
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any, BinaryIO

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.translation import gettext

from arena.reasons import Reason, parse, render_all
from arena_site import objects
from arena_site.objects import local_dir
from arena_site.sandbox_mode import sandbox_enabled, untrusted_refusal, uploads_accepted
from botregistry.archive import ArchiveError, unpack
from botregistry.models import Bot, BotVersion
from botregistry.signals import active_version_changed, version_failed, version_ready

log = logging.getLogger("arena.platform")

HOUSE_USERNAME = "arena"


class UploadRejected(ValueError):
    """An upload that can't become a version; `status` is the HTTP status to answer with."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


def manifest_dict(manifest: Any) -> dict[str, Any]:
    """The manifest's fields as JSON (the folder it was read from left out)."""
    out: dict[str, Any] = {}
    for key in ("name", "games", "runtime", "command", "build"):
        value = getattr(manifest, key, None)
        out[key] = list(value) if isinstance(value, (tuple, list)) else value
    return out


def public_paths_removed(text: str, package: Path) -> str:
    """`text` without this server's paths: the package folder becomes "your folder", the storage folder and
    Arena's own checkout are left out (messages about a bot are read by its author, who knows none of them)."""
    import arena

    text = text.replace(f"{package}/", "").replace(str(package), "your folder")
    roots = ((local_dir(), "<storage>"), (Path(settings.STORAGE_DIR), "<storage>"),
             (Path(arena.__file__).resolve().parents[1], "<arena>"))
    for root, word in roots:
        text = text.replace(str(root), word)
    return text


def _check_manifest(package: Path, game: str) -> tuple[Any, str]:
    """The package's manifest and content hash, or UploadRejected saying what is wrong with it."""
    from arena.botpkg import ManifestError, load_manifest, package_sha256

    if not (package / "bot.toml").is_file():
        raise UploadRejected("the archive has no bot.toml at its top level (see bots/README.md)")
    try:
        manifest = load_manifest(package)
    except ManifestError as exc:
        # The message names the file by its path on this server; the author knows it as bot.toml.
        message = public_paths_removed(str(exc).replace(str(package), "the archive"), package)
        raise UploadRejected(f"bot.toml is invalid: {message}") from None
    runtime = str(manifest.runtime)
    if runtime not in settings.ARENA_RUNTIMES:
        raise UploadRejected(f"bot.toml asks for runtime {runtime!r}, which Arena does not run; "
                             f"runtimes: {', '.join(settings.ARENA_RUNTIMES)}")
    if game not in list(manifest.games):
        raise UploadRejected(f"this bot is registered for {game}, but bot.toml lists games "
                             f"{', '.join(manifest.games) or 'none'}")
    return manifest, package_sha256(package)


def _save_archive(upload: BinaryIO, dest: Path) -> tuple[str, int]:
    digest, size = hashlib.sha256(), 0
    upload.seek(0)
    with open(dest, "wb") as out:
        while chunk := upload.read(1024 * 1024):
            digest.update(chunk)
            size += len(chunk)
            out.write(chunk)
    return digest.hexdigest(), size


def create_version(bot: Bot, upload: BinaryIO, *, size: int, filename: str = "", uploaded_by=None) -> BotVersion:
    """Store an uploaded archive as the bot's next version (pending) and queue its validation. `uploaded_by`:
    the person uploading (recorded on the version; a team bot's members see who uploaded what).

    Raises UploadRejected (nothing stored) for a refused archive or manifest, or when this host can't sandbox
    (unless `ARENA_SANDBOX=worker` leaves that to the workers: arena_site.sandbox_mode)."""
    if not uploads_accepted():
        raise UploadRejected(untrusted_refusal(), status=503)
    limit = settings.ARENA_UPLOAD_MAX_BYTES
    if size > limit:
        raise UploadRejected(f"the archive is {size / 1e6:.1f} MB; uploads are limited to "
                             f"{limit // (1024 * 1024)} MB")
    # unpacked here only to check it (the web's own disk): the archive itself goes to storage, where the
    # validating worker fetches it (botregistry.package_cache.working_copy)
    staging = local_dir() / "staging" / uuid.uuid4().hex
    stored: str | None = None
    try:
        try:
            unpack(upload, staging / "package", max_bytes=settings.ARENA_UNPACKED_MAX_BYTES,
                   max_files=settings.ARENA_UNPACKED_MAX_FILES)
        except ArchiveError as exc:
            raise UploadRejected(str(exc)) from None
        manifest, sha = _check_manifest(staging / "package", bot.game)
        suffix = ".zip" if filename.lower().endswith(".zip") else ".tar.gz"
        archive_sha, archive_size = _save_archive(upload, staging / f"archive{suffix}")
        _refuse_duplicate(bot, sha)  # before storing anything; again under the bot's lock below
        # Stored before the bot's row is locked (storage is network I/O: a hanging endpoint must not hold the row
        # that every other upload and page of the bot waits on), under a name of this upload's own; a row that
        # rolls back deletes it below, and the storage's garbage collection removes what a killed process left.
        name = f"bots/{bot.pk}/uploads/{uuid.uuid4().hex}/archive{suffix}"
        stored = name
        try:
            objects.put_file(name, staging / f"archive{suffix}")
        except Exception:
            stored = None  # nothing to delete from a storage that just failed (the collection removes a late put)
            log.exception("upload for %s: storage refused the archive", bot)
            raise UploadRejected("storage is unavailable just now; please upload again later",
                                 status=503) from None
        with transaction.atomic():
            bot = Bot.objects.select_for_update().get(pk=bot.pk)  # serialises version numbers per bot
            _refuse_duplicate(bot, sha)
            number = (bot.versions.aggregate(n=Max("number"))["n"] or 0) + 1
            version = BotVersion.objects.create(
                bot=bot, number=number, sha256=sha, archive_sha256=archive_sha, archive_size=archive_size,
                archive_path=name, package_dir="", manifest=manifest_dict(manifest), runtime=str(manifest.runtime),
                uploaded_by=uploaded_by, validation_queued_at=timezone.now())
            transaction.on_commit(lambda: _queue_validation(version.pk))
        stored = None
        return version
    finally:
        shutil.rmtree(staging, ignore_errors=True)
        if stored is not None:  # the version row rolled back: its archive goes too
            try:
                objects.delete(stored)
            except Exception:
                log.exception("upload for %s: could not remove %s after a rollback", bot, stored)


def _refuse_duplicate(bot: Bot, sha: str) -> None:
    same = bot.versions.filter(sha256=sha).first()
    if same is not None:
        raise UploadRejected(f"this package is identical to version {same.number} of {bot.name}")


def _queue_validation(version_id: int) -> None:
    from arena_site.celery import app

    app.send_task("botregistry.tasks.validate_version", args=[version_id])  # by name: the task module imports this one


def validation_lapsed(version: BotVersion) -> bool:
    """Whether the run validating `version` is lost: no heartbeat within ARENA_STALE_AFTER_SECONDS, or its
    worker process is known dead (`arena_site.workers.known_dead`). A version validated before claims existed
    (no claim) counts as lost too."""
    from datetime import timedelta

    from arena_site.workers import known_dead

    stale = timezone.now() - timedelta(seconds=settings.ARENA_STALE_AFTER_SECONDS)
    return (not version.validation_claim or version.validation_heartbeat_at is None
            or version.validation_heartbeat_at < stale or known_dead(version.validation_claim))


def resend_lost_validations(waiting: Callable[[], int | None] = lambda: None) -> list[int]:
    """Send again the validations whose task was lost, as `matches.services.recover_stale` does for matches: a
    version still pending ARENA_LOST_MESSAGE_SECONDS (15 s) after its task was sent while no message waits in
    the broker's queue (`waiting()` says 0: a worker takes a validation off the queue as soon as it can run it,
    and it turns `validating` at once), or ARENA_RESEND_QUEUED_AFTER_SECONDS (90 s) after whatever the queue
    holds; a version `validating` whose run is lost (`validation_lapsed`: killed worker, lost machine). Each is
    re-sent at most once per threshold (`validation_queued_at`). A duplicate is harmless: the task's claim lets
    one run validate a version, and only that run's outcome is recorded."""
    from datetime import timedelta

    now = timezone.now()
    unheard = now - timedelta(seconds=settings.ARENA_LOST_MESSAGE_SECONDS)
    long_queued = now - timedelta(seconds=settings.ARENA_RESEND_QUEUED_AFTER_SECONDS)
    stale = now - timedelta(seconds=settings.ARENA_STALE_AFTER_SECONDS)
    not_sent_since = Q(validation_queued_at__isnull=True)
    pending = BotVersion.objects.filter(status=BotVersion.Status.PENDING)
    ids = list(pending.filter(not_sent_since | Q(validation_queued_at__lt=unheard)).values_list("pk", flat=True))
    if ids and waiting() != 0:  # perhaps waiting behind others: only after the long delay
        ids = list(pending.filter(not_sent_since | Q(validation_queued_at__lt=long_queued))
                   .values_list("pk", flat=True))
    validating = BotVersion.objects.filter(status=BotVersion.Status.VALIDATING).filter(
        not_sent_since | Q(validation_queued_at__lt=stale))
    ids += [v.pk for v in validating.only("pk", "validation_claim", "validation_heartbeat_at")
            if validation_lapsed(v)]
    ids.sort()
    if ids:
        BotVersion.objects.filter(pk__in=ids).update(validation_queued_at=now)
        for version_id in ids:
            _queue_validation(version_id)
        log.warning("re-sent lost validations of versions %s", ids)
    return ids


def build_cache_dir(bot: Bot) -> Path:
    """The bot's build cache (arena.botbuild), kept between the builds of its versions: the worker's only."""
    return local_dir() / "build-cache" / str(bot.pk)


def bound_build_caches(bot: Bot) -> list[Path]:
    """Keep the build caches, on this worker, of the bots that share `bot`'s stake (its team's bots for a team
    bot, else its owner's personal bots) under ARENA_BUILD_CACHE_OWNER_MB together, least recently used out
    first, `bot`'s own kept (bounded by itself: arena.botbuild.CACHE_MAX_MB). Bots are free to create: without
    this, one account's many bots could fill the worker's share of every cache (arena.botbuild bounds the whole
    machine's). Returns the caches removed."""
    from arena.botbuild import evict_caches

    siblings = Bot.objects.filter(team_id=bot.team_id) if bot.team_id else Bot.objects.filter(
        owner_id=bot.owner_id, team__isnull=True)
    caches = [build_cache_dir(other) for other in siblings.only("pk")]
    return evict_caches(caches, settings.ARENA_BUILD_CACHE_OWNER_MB * 1024 * 1024, keep=build_cache_dir(bot))


class RevalidateRefused(ValueError):
    """A version that cannot be validated again: it did not fail, or failed for a reason of the bot itself."""


#: Why a validation failed when the server, not the bot, was at fault (`tasks.validate_version`).
HOST_TROUBLE = Reason("validation.host_trouble").english()
#: the reason's words before "validate again" existed: versions that failed with it may still be validated again
HOST_TROUBLE_BEFORE = Reason("validation.host_trouble_before").english()


def failed_transiently(version: BotVersion) -> bool:
    """Whether the version failed for a reason that may not hold next time (its build ran out of time, which a
    warmer build cache may not; the server could not validate), so validating the same bytes again makes sense."""
    from arena.botcheck import BUILD_TIMED_OUT

    return version.status == BotVersion.Status.FAILED and version.status_reason in (
        BUILD_TIMED_OUT, HOST_TROUBLE, HOST_TROUBLE_BEFORE)


def revalidate(version: BotVersion) -> BotVersion:
    """Validate a version again as it is (the owner's "validate again"): failed → pending, the validation queued.
    Raises RevalidateRefused unless `failed_transiently`: a bot's own failure fails the same way again."""
    with transaction.atomic():
        version = BotVersion.objects.select_for_update().select_related("bot").get(pk=version.pk)
        if not failed_transiently(version):
            from botregistry.reasons import shown

            # in the language of the request (the API's Accept-Language, the page's cookie or account)
            said = {"number": version.number, "status": version.get_status_display().lower(), "reason": shown(version)}
            raise RevalidateRefused((
                gettext("version %(number)s is %(status)s (%(reason)s); only a version that failed because its build "
                        "timed out or the server could not validate it can be validated again: fix the bot and "
                        "upload a new version") if said["reason"] else
                gettext("version %(number)s is %(status)s; only a version that failed because its build timed out or "
                        "the server could not validate it can be validated again: fix the bot and upload a new "
                        "version")) % said)
        version.status = BotVersion.Status.PENDING
        version.status_reason, version.status_reasons = "", []
        version.validation_queued_at = timezone.now()
        version.save(update_fields=["status", "status_reason", "status_reasons", "validation_queued_at"])
        transaction.on_commit(lambda: _queue_validation(version.pk))
    log.info("%s: validation queued again by its owner", version)
    return version


def mark_validated(version: BotVersion, ok: bool, reason: str | Reason | list[Reason], log_text: str,
                   claim: str | None = None) -> None:
    """Record a validation's outcome (`reason`: why it failed, as reasons of arena.reasons, or in words when it is
    no known phrase: stored in English and as codes, told in each reader's language by botregistry.reasons); a ready version becomes the bot's active one if it is the newest, and
    `version_ready` is sent (the ladders enrol the bot). Only a version still being validated takes it: a late
    duplicate of the task (a re-sent message whose first delivery also ran) never turns a version that has since
    been suspended, or decided by the other run, back into something else. With `claim` (the task's run), only
    the run still holding the version's claim records: a run that lost it (frozen past the stale threshold and
    taken over) is discarded and logged."""
    with transaction.atomic():
        version = BotVersion.objects.select_for_update().select_related("bot").get(pk=version.pk)
        if version.status not in (BotVersion.Status.PENDING, BotVersion.Status.VALIDATING):
            log.warning("validation result for %s ignored: it is %s already", version, version.status)
            return
        if claim is not None and version.validation_claim != claim:
            log.warning("discarded the validation result of superseded run %s of %s (now held by %s)", claim,
                        version, version.validation_claim or "nobody")
            return
        version.status = BotVersion.Status.READY if ok else BotVersion.Status.FAILED
        told = [reason] if isinstance(reason, Reason) else reason if isinstance(reason, list) else None
        english = render_all(told, "en") if told is not None else str(reason)
        version.status_reason = "" if ok else english[:500]
        version.status_reasons = [] if ok else [r.to_json() for r in told or parse(english) or []]
        version.validation_log = log_text
        version.validated_at = timezone.now()
        version.save()
        if ok:
            activate_newest(version.bot)
            version_ready.send(sender=BotVersion, version=version)
        else:
            version_id = version.pk
            transaction.on_commit(lambda: version_failed.send_robust(sender=BotVersion, version_id=version_id))


def activate_newest(bot: Bot) -> None:
    """Make the bot's newest ready version the one that plays (a suspended newer one stays suspended)."""
    newest = bot.versions.filter(status=BotVersion.Status.READY).order_by("-number").first()
    if newest is not None:
        set_active_version(bot, newest)


def set_active_version(bot: Bot, version: BotVersion) -> bool:
    """Make `version` (a ready version of this bot) the one that plays; every change of the active version goes
    through here. A change sends `active_version_changed` inside the transaction, under the bot's row lock (the
    ratings widen: μ and Elo stay, σ grows, provisional again for a few games; a bot's first version has nothing
    to widen). Returns whether the active version changed: setting the active version again changes (and sends)
    nothing."""
    if version.bot_id != bot.pk:
        raise ValueError(f"{version} is not a version of {bot}")
    with transaction.atomic():
        # the bot's row lock serialises two changes at once, so each is seen (and widens) once
        previous = (Bot.objects.select_for_update().filter(pk=bot.pk)
                    .values_list("active_version_id", flat=True).get())
        changed = previous != version.pk
        if changed:
            Bot.objects.filter(pk=bot.pk).update(active_version=version)
            active_version_changed.send(sender=Bot, bot_id=bot.pk, previous_version_id=previous,
                                        version_id=version.pk)
            log.info("%s now plays version %s", bot, version.number)
    bot.active_version = version
    return changed


def builtin_bot_names() -> list[str]:
    """The built-in bots' names, and what is left of each without its game and its runtime (`python-random-thebes`,
    `python-random`, `random-thebes`, `random`; see `register_builtin`): no other bot and no user may read as one or
    contain one (`accounts.names`)."""
    names = set()
    for name, game in Bot.objects.filter(builtin=True).values_list("name", "game").distinct():
        for form in (name, name.removesuffix(f"-{game}")):
            names.add(form)
            if "-" in form:
                names.add(form.split("-", 1)[1])
    return sorted(names)


def house_user():
    """The owner of the built-in bots (cannot log in)."""
    user, created = get_user_model().objects.get_or_create(username=HOUSE_USERNAME,
                                                           defaults={"first_name": "Arena"})
    if created:
        user.set_unusable_password()
        user.save()
    return user


def _build_builtin(folder: Path) -> None:
    """A built-in `binary` bot (bots/cpp/...) is built from source before it is hashed and registered, so that
    its version holds the program it runs (arena.botbuild; raises BuildError). Sandboxed when the host can;
    otherwise as a plain process: built-in bots are trusted code shipped with Arena."""
    from arena import botbuild

    # honours ARENA_SANDBOX like the matches do; the project's own build is never held to the uploads' limit
    botbuild.ensure_built(folder, sandbox=sandbox_enabled(), timeout=botbuild.trusted_build_timeout())


def register_builtin(folder: Path) -> list[BotVersion]:
    """Register a trusted built-in bot folder: one bot per game it lists, a new ready version when its
    content changed (`version_ready` is sent for each ready one: the ladders enrol it). Returns the versions
    now active."""
    from arena.botpkg import load_manifest, package_sha256

    folder = folder.resolve()
    manifest = load_manifest(folder)
    _build_builtin(folder)
    sha = package_sha256(folder)
    games = list(manifest.games)
    owner = house_user()
    versions = []
    for game in games:
        name = f"{folder.parent.name}-{folder.name}" + (f"-{game}" if len(games) > 1 else "")
        with transaction.atomic():
            bot, _ = Bot.objects.get_or_create(
                owner=owner, name=name,
                defaults={"game": game, "builtin": True,
                          "description": f"Built-in {manifest.runtime} bot from {folder.parent.name}/{folder.name}."})
            bot = Bot.objects.select_for_update().get(pk=bot.pk)
            version = bot.versions.filter(sha256=sha).first()
            if version is None:
                number = (bot.versions.aggregate(n=Max("number"))["n"] or 0) + 1
                version = BotVersion.objects.create(
                    bot=bot, number=number, sha256=sha, package_dir=str(folder), manifest=manifest_dict(manifest),
                    runtime=str(manifest.runtime), status=BotVersion.Status.READY, validated_at=timezone.now(),
                    uploaded_by=owner,
                    validation_log="built-in bot: trusted code shipped with Arena")
            if version.status == BotVersion.Status.READY:
                set_active_version(bot, version)
                version_ready.send(sender=BotVersion, version=version)
        versions.append(version)
    return versions

