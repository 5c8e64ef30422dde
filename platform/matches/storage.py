"""Storage under faults: a played match never loses its result to a full or failing disk or object store.

- **Replays put before the result is recorded** (`stage_replay`, called by `services.record_result` before it
  locks the match row: no row lock is ever held across storage I/O), under a name of the run's own bytes
  (`staged_name`), so a run that loses its claim meanwhile overwrites nothing; its objects are removed
  (`StagedReplay.discard`) or left to the garbage collection.
- **Replays kept in the database**: when the replay cannot
  be put in storage (the referee could not write it, `MatchResult.unwritten_replay`, or storage refuses it or
  does not answer in time), the result is recorded all the same and the replay file's exact bytes are kept on the match
  (`Match.unwritten_replay`; the match reads as `replay_missing`). Beat writes them out once storage takes
  them again (`write_unwritten_replays`) and clears the field. Keeping the document the referee built is exact,
  byte for byte: re-simulating from seed + actions would rebuild the game's events but not what only the run
  knew (each decision's time, the faults' messages, the bots' hashes), so it is not chosen. The bots' own logs of
  the run are kept beside it (`Match.unwritten_logs`) and written out with it.
- **Low storage pauses matchmaking** (`storage_low`): below `ARENA_STORAGE_MIN_FREE_MB` free in the working
  folder, or with `ARENA_UNWRITTEN_REPLAYS_PAUSE` replays waiting in the database (an S3 endpoint refusing
  uploads has no free space to read: its errors are the signal), ladder matchmaking queues nothing and says why (a log line, `manage.py up`'s status line); matches already queued
  still play (their replays fit in the margin, or are kept in the database).
- **Each machine sweeps its own working folder** (`sweep_local`): every Celery worker when it is ready and then after
  a task at most every ARENA_LOCAL_SWEEP_MINUTES (a stat of a marker file decides), the web server at start
  (`sweep_at_web_start`: its upload staging). Only what is older than a grace period goes, so processes sharing a
  folder never remove what another is still writing.
- **Temporary files swept** (`sweep_temp_files`): a run's replay and logs are written under `replays/tmp/`
  (`{match}.{attempt}.…`, `.part` while being written; the writers remove a `.part` on error). Files of a run
  that no longer holds its match (ended, or taken over) are removed after a grace period, whatever left them.
"""

from __future__ import annotations

import hashlib
import logging
import os
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path

from celery.signals import task_postrun, worker_ready
from django.conf import settings

from arena import replay as replays
from arena.match.types import MatchResult
from arena_site import disk_reports, objects
from matches.models import Match

log = logging.getLogger("arena.platform")

#: A temporary file younger than this is left alone: its run may be about to record it.
TEMP_GRACE_SECONDS = 600.0


def storage_dir() -> Path:
    """This machine's working folder (`arena_site.objects.local_dir`): the storage folder itself on embedded
    defaults, a worker's own disk beside object storage."""
    return objects.local_dir()


def temp_dir() -> Path:
    """Where runs write their replays and logs before `record_result` puts them in storage."""
    return storage_dir() / "replays" / "tmp"


def free_megabytes() -> float | None:
    """Free space of this process's working folder's file system (None if it cannot be read)."""
    return disk_reports.free_megabytes(storage_dir())


def storage_low() -> str | None:
    """Why matchmaking should pause, or None when storage is fine: the free space a worker reported for its
    working folder (`arena_site.disk_reports`: the disks matches are written on, not this process's) below
    ARENA_STORAGE_MIN_FREE_MB — this process's own folder only when no worker reported lately (one machine
    before its first worker is ready) — or ARENA_UNWRITTEN_REPLAYS_PAUSE replays waiting in the database because
    storage refused them (how a failing object store shows: it has no free space to read)."""
    floor = settings.ARENA_STORAGE_MIN_FREE_MB
    reports = disk_reports.recent()
    if reports:
        machine, folder, free = reports[0]  # the lowest
        if free < floor:
            return (f"storage low: {free:.0f} MB free in {folder} on worker {machine}, below "
                    f"ARENA_STORAGE_MIN_FREE_MB={floor}")
    else:
        own = free_megabytes()
        if own is not None and own < floor:
            return f"storage low: {own:.0f} MB free in {storage_dir()}, below ARENA_STORAGE_MIN_FREE_MB={floor}"
    waiting = Match.objects.filter(unwritten_replay__isnull=False).count()
    if waiting >= settings.ARENA_UNWRITTEN_REPLAYS_PAUSE:
        return (f"storage failing: {waiting} replays wait in the database for storage to take them "
                f"(ARENA_UNWRITTEN_REPLAYS_PAUSE={settings.ARENA_UNWRITTEN_REPLAYS_PAUSE})")
    return None


@dataclass
class StagedReplay:
    """A run's replay and bots' logs as `stage_replay` left them, before the match row is locked: in storage under
    `path` (a name of this run's bytes), or their bytes to keep in the database because storage refused them."""

    path: str = ""
    unwritten_replay: bytes | None = None
    unwritten_logs: bytes | None = None
    stored: list[str] = field(default_factory=list)  # names put in storage (removed again if the run is discarded)

    def apply(self, match: Match) -> None:
        """Record it on `match` (the caller saves it, under the row lock)."""
        if self.path:
            match.replay_path = self.path
        else:
            match.unwritten_replay, match.unwritten_logs = self.unwritten_replay, self.unwritten_logs

    def discard(self, match_id: int) -> None:
        """The run's result was not recorded (the match ended meanwhile, or was taken over): remove what was put
        (best effort: what stays is an object no match references, for the garbage collection), unless the match
        recorded the very same name (another run's identical bytes)."""
        from arena.botlogs import logs_path

        recorded = Match.objects.filter(pk=match_id).values_list("replay_path", flat=True).first() or ""
        keep = {recorded, logs_path(recorded).as_posix()} if recorded else set()
        for name in self.stored:
            if name in keep:
                continue
            try:
                objects.delete(name)
            except Exception as exc:  # OSError, botocore's errors, StorageTimeout
                log.warning("could not remove %s, stored by a run whose result was discarded (%s)", name, exc)


def staged_name(match_id: int, replay: bytes, logs: bytes | None) -> Path:
    """The name a run's replay is stored under before the match records it: beside `replay_relative`, with a
    digest of the run's own bytes, so a run that loses its claim while uploading never overwrites what another
    run recorded (its object is an orphan instead, removed by `discard` or the garbage collection)."""
    digest = hashlib.sha256(replay)
    digest.update(logs or b"")
    base = replay_relative(match_id)
    return base.with_name(f"{match_id}.{digest.hexdigest()[:16]}.replay.json.gz")


def stage_replay(match_id: int, result: MatchResult, replay_tmp: Path | None) -> StagedReplay:
    """Put the run's replay (and the bots' logs beside it) in storage, before the result is recorded and with no
    database lock held (storage is network I/O: a hanging endpoint must stall nothing but this run), and remove
    the local files. When storage refuses or does not answer within its bounds (`arena_site.objects.bounded`),
    the replay's bytes are kept for the database instead. Never raises for a storage error: the result matters
    more than its file."""
    from arena.botlogs import logs_path

    staged = StagedReplay()
    if replay_tmp is not None and replay_tmp.exists():
        logs_tmp = logs_path(replay_tmp)
        try:
            replay = replay_tmp.read_bytes()
            logs = logs_tmp.read_bytes() if logs_tmp.exists() else None
        except OSError:
            log.exception("match %s: the run's replay file cannot be read: it is lost", match_id)
            for leftover in (replay_tmp, logs_tmp):
                leftover.unlink(missing_ok=True)
            return staged
        name = staged_name(match_id, replay, logs)
        try:
            if logs is not None:  # stored first: the replay's presence says the match's files are in place
                staged.stored.append(logs_path(name).as_posix())
                objects.put_bytes(logs_path(name).as_posix(), logs)
            staged.stored.append(name.as_posix())
            objects.put_bytes(name.as_posix(), replay)
            staged.path = name.as_posix()
        except Exception as exc:  # OSError from a folder, botocore's errors from S3, StorageTimeout
            log.warning("match %s: the replay could not be put in storage (%s); kept in the database", match_id, exc)
            staged.unwritten_replay, staged.unwritten_logs = replay, logs
        for leftover in (replay_tmp, logs_tmp):
            leftover.unlink(missing_ok=True)
        return staged
    if result.unwritten_replay is not None:  # the referee could not write it at all
        log.warning("match %s: the referee could not write the replay; kept in the database", match_id)
        staged.unwritten_replay = replays.to_bytes(result.unwritten_replay)
    return staged


def replay_relative(match_id: int) -> Path:
    """Where a match's replay is kept, relative to the storage folder (a thousand matches to a folder)."""
    return Path("replays") / f"{match_id // 1000:04d}" / f"{match_id}.replay.json.gz"


def write_unwritten_replays(limit: int = 50) -> list[int]:
    """Write the replays kept in the database to storage (beat), unless storage is low. Returns the match ids
    whose replay is now in storage."""
    from arena.botlogs import logs_path

    if storage_low():
        return []
    written = []
    for match_id in (Match.objects.filter(unwritten_replay__isnull=False).order_by("pk")
                     .values_list("pk", flat=True)[:limit]):
        kept = Match.objects.filter(pk=match_id).values_list("unwritten_replay", "unwritten_logs").first()
        if kept is None or kept[0] is None:
            continue
        data, logs = kept
        relative = replay_relative(match_id)
        try:
            if logs is not None:  # first, as place_replay does: the replay's presence says the logs are in place
                objects.put_bytes(logs_path(relative).as_posix(), bytes(logs))  # type: ignore[arg-type]  # not None: checked above
            objects.put_bytes(relative.as_posix(), bytes(data))  # type: ignore[arg-type]  # checked above; atomic: no half-written replay is ever seen
        except Exception as exc:  # OSError from a folder, botocore's errors from S3
            log.warning("match %s: the kept replay still cannot be written (%s)", match_id, exc)
            break  # storage is failing: try again on the next tick
        Match.objects.filter(pk=match_id).update(replay_path=relative.as_posix(), unwritten_replay=None,
                                                 unwritten_logs=None)
        written.append(match_id)
    if written:
        log.info("wrote the replays of matches %s, kept in the database while storage failed", written)
    return written


def sweep_temp_files(grace_seconds: float = TEMP_GRACE_SECONDS) -> list[Path]:
    """Remove the temporary replay and log files of runs that no longer hold their match (the match ended, or
    another run took it over), and anything else in the temporary folder, once older than `grace_seconds`.
    Returns the files removed."""
    folder = temp_dir()
    if not folder.is_dir():
        return []
    cutoff = time.time() - grace_seconds
    old: dict[Path, tuple[int, int] | None] = {}
    with os.scandir(folder) as entries:
        for entry in entries:
            try:
                if not entry.is_file(follow_symlinks=False) or entry.stat(follow_symlinks=False).st_mtime > cutoff:
                    continue
            except OSError:
                continue
            match_id, _, rest = entry.name.partition(".")
            attempt = rest.partition(".")[0]
            old[Path(entry.path)] = ((int(match_id), int(attempt)) if match_id.isdigit() and attempt.isdigit()
                                     else None)
    live = set(Match.objects.filter(pk__in={k[0] for k in old.values() if k}, status=Match.Status.RUNNING)
               .values_list("pk", "attempts"))
    removed = []
    for path, key in old.items():
        if key is not None and key in live:
            continue  # its run still holds the match (a long match)
        path.unlink(missing_ok=True)
        removed.append(path)
    if removed:
        log.info("swept %d temporary replay files: %s", len(removed), ", ".join(p.name for p in removed[:10]))
    return removed


#: A validation's working copy or an upload's staging folder younger than this is left alone (a build and a smoke
#: match take minutes at most).
WORK_GRACE_SECONDS = 3600.0


def sweep_work_folders(grace_seconds: float = WORK_GRACE_SECONDS) -> list[Path]:
    """Remove what a killed process left in this machine's working folder: validations' working copies and
    uploads' staging folders (each removed by its own run when it ends) and the package cache's unfinished
    downloads, once older than `grace_seconds`. Returns what was removed."""
    from botregistry.package_cache import cache_dir

    cutoff = time.time() - grace_seconds
    removed = []
    for folder in (storage_dir() / "validation", storage_dir() / "staging", upload_temp_dir(),
                   cache_dir() / ".tmp"):
        if not folder.is_dir():
            continue
        for entry in folder.iterdir():
            try:
                if entry.lstat().st_mtime > cutoff:
                    continue
            except FileNotFoundError:
                continue
            if entry.is_dir() and not entry.is_symlink():
                shutil.rmtree(entry, ignore_errors=True)
            else:
                entry.unlink(missing_ok=True)
            removed.append(entry)
    if objects.is_local():  # a killed upload's half-written archive (`LocalStorage` writes `<name>.<hex>.part`)
        for part in (Path(settings.STORAGE_DIR) / "bots").glob("*/*/*.part"):
            try:
                if part.lstat().st_mtime <= cutoff:
                    part.unlink(missing_ok=True)
                    removed.append(part)
            except FileNotFoundError:
                continue
    if removed:
        log.info("swept %d left-over working folders: %s", len(removed), ", ".join(p.name for p in removed[:10]))
    return removed


def upload_temp_dir() -> Path:
    """Where Django spools uploaded files (`FILE_UPLOAD_TEMP_DIR`): in the working folder, so that what a killed
    web process left there is swept like its staging folders (the system's /tmp is nobody's to sweep)."""
    return storage_dir() / "upload-tmp"


def sweep_dead_build_caches(grace_seconds: float = WORK_GRACE_SECONDS) -> list[Path]:
    """Remove this machine's build caches (`botregistry.services.build_cache_dir`) of bots that are gone or whose
    code is dead (`matches.storage_gc.dead_bots`: retired by their owner's account deletion), once untouched for
    `grace_seconds`."""
    from botregistry.models import Bot
    from matches.storage_gc import dead_bots

    folder = storage_dir() / "build-cache"
    if not folder.is_dir():
        return []
    cutoff = time.time() - grace_seconds
    found = {int(p.name): p for p in folder.iterdir() if p.name.isdigit()}
    if not found:
        return []
    keep = set(Bot.objects.filter(pk__in=found).exclude(pk__in=dead_bots()).values_list("pk", flat=True))
    removed = []
    for bot_id, path in found.items():
        try:
            if bot_id in keep or path.lstat().st_mtime > cutoff:
                continue
        except FileNotFoundError:
            continue
        shutil.rmtree(path, ignore_errors=True)
        path.with_name(path.name + ".size").unlink(missing_ok=True)  # its size record (arena.botbuild)
        removed.append(path)
    if removed:
        log.info("swept the build caches of %d deleted bots", len(removed))
    return removed


def _marker() -> Path:
    return storage_dir() / ".last-sweep"


def sweep_local() -> list[Path]:
    """Sweep this machine's own working folder (`ARENA_LOCAL_DIR`): temporary replay files, validations' working
    copies, uploads' staging, the package cache's unfinished downloads, deleted bots' build caches — each only
    once older than its grace period. Records the time in the folder's marker file."""
    marker = _marker()
    marker.parent.mkdir(parents=True, exist_ok=True)
    marker.touch()
    return sweep_work_folders() + sweep_temp_files() + sweep_dead_build_caches()


def sweep_local_if_due() -> list[Path]:
    """`sweep_local` unless some process swept this folder less than ARENA_LOCAL_SWEEP_MINUTES ago (one stat)."""
    try:
        last = _marker().stat().st_mtime
    except FileNotFoundError:
        last = 0.0
    if time.time() - last < settings.ARENA_LOCAL_SWEEP_MINUTES * 60:
        return []
    return sweep_local()


def sweep_at_web_start() -> None:
    """The web server's start (arena_site.wsgi): its upload staging folders left by a killed process go, and
    again after a request at most every ARENA_LOCAL_SWEEP_MINUTES (a web server that runs for weeks has workers
    killed under it: gunicorn's timeout). No database needed; never in the way of starting."""
    from django.core.signals import request_finished

    upload_temp_dir().mkdir(parents=True, exist_ok=True)
    try:
        sweep_work_folders()
    except Exception:
        log.exception("sweeping the working folder at start failed")
    request_finished.connect(_sweep_after_request, dispatch_uid="matches.storage.sweep_after_request")


def _sweep_after_request(**_: object) -> None:
    marker = storage_dir() / ".last-web-sweep"  # its own: on one machine, the workers' full sweep still runs
    try:
        last = marker.stat().st_mtime
    except FileNotFoundError:
        last = 0.0
    if time.time() - last < settings.ARENA_LOCAL_SWEEP_MINUTES * 60:
        return
    try:
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.touch()
        sweep_work_folders()
    except Exception:
        log.exception("sweeping the web server's working folder failed")


@worker_ready.connect
def _sweep_when_worker_ready(**_: object) -> None:
    """A worker sweeps its machine's folder as it starts (the pool's processes share it) and reports its free
    space (`arena_site.disk_reports`)."""
    try:
        sweep_local()
    except Exception:
        log.exception("sweeping the working folder at start failed")
    disk_reports.report(force=True)


@task_postrun.connect
def _sweep_after_task(**_: object) -> None:
    try:
        sweep_local_if_due()
    except Exception:
        log.exception("sweeping the working folder failed")
    disk_reports.report()
