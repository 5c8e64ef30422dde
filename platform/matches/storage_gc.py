"""The storage's garbage collection: a deleted account's bot code leaves storage (beat, daily; `manage.py storage_gc
[--dry-run]` by hand).

What goes, from the storage (`arena_site.objects`: the folder or the S3 bucket):
- **Uploaded archives** `bots/<bot>/uploads/<random>/archive.*` (`BotVersion.archive_path`; before,
  `bots/<bot>/<n>/archive.*` and, on an install older than stored packages, the folder of version n beside it,
  `bots/<bot>/<n>/package/`): each belongs to one version, so it goes when that version is gone (its row deleted,
  or never committed: an upload stores its archive before it locks the bot's row, `botregistry.services`) or its
  bot's code is dead (below).
- **Packages** `packages/<sha256>.tar.gz`: one object serves every version whose validated package has those exact
  bytes — identical uploads by several people share it — so it goes only when no live version references the
  hash. The references are counted from the database at collection time, never kept as a counter that could
  drift.

A version is **live** unless its bot's code is dead — the bot was retired by its owner's account deletion (the
person's own bot, `Bot.retired_at` set, owner a deleted account: `accounts.deletion.is_deleted`) — and no match
still to be played (queued or running: a tournament game already drawn, a version test's pair) seats it. A bot
a team owns that was retired because its team lost its last member keeps its code: staff may move it and clear
`retired_at`. Replays and bots' logs are not collected: a match belongs to every bot that played it, and a
replay is reproducible without the bots anyway (engine version, seed and action log). Only a run's replay put
under its own name (`matches.storage.staged_name`) that its match did not record goes: the run lost its claim
while uploading, or a put that overran its deadline finished late.

**Racing an upload.** An upload stores its archive before its version row commits, and a validation stores a
package (again, if an identical one is there: `package_cache.store_package`) before it records the version's
`package_hash`. So an object is collected only if (1) it was last modified more than `GRACE_SECONDS` (an
hour) before the collection read the references, and (2) for a package, a recount of its references finds none
under `package_cache.package_hold` — the PostgreSQL advisory lock of its hash, which the validation also holds
from its put to its commit of `package_hash` (taken for `HOLD_BATCH` packages at a time). (1) alone covers an
upload whose put and commit are less than an hour apart (SQLite, a single machine, has no advisory locks); (2)
makes it exact on PostgreSQL: either the validation committed its reference first (the recount sees it: kept) or
the collection deleted first (the validation then puts the object again under the same lock).

Each worker's local package cache is not touched: its entries of collected packages are never used again and
leave by its LRU eviction (`package_cache.PackageCache.evict`); a worker's build cache of a dead bot goes with the
worker's own sweep (`matches.storage.sweep_local`).
"""

from __future__ import annotations

import logging
import re
import time
from dataclasses import dataclass, field

from django.db.models import Q

from accounts.deletion import DELETED_PREFIX
from arena_site import objects
from botregistry.models import Bot, BotVersion
from botregistry.package_cache import object_name, package_hold
from matches.models import Match

log = logging.getLogger("arena.platform")

#: An object modified less than this long before the collection read the references is left for the next one.
GRACE_SECONDS = 3600.0

#: Packages recounted and deleted under one hold (one transaction): a validation of one of them waits that long.
HOLD_BATCH = 200

_VERSION_OBJECT = re.compile(r"bots/(\d+)/(\d+)/.+")
_STAGED_REPLAY = re.compile(r"replays/\d+/(\d+)\.[0-9a-f]{16}\.(replay|logs)\.json\.gz")
_PACKAGE_OBJECT = re.compile(r"packages/([0-9a-f]{64})\.tar\.gz")


def dead_bots():
    """Bots whose code is dead: the person's own bots retired by deleting their account."""
    return Bot.objects.filter(retired_at__isnull=False, team__isnull=True, owner__is_active=False,
                              owner__username__startswith=DELETED_PREFIX)


def live_versions():
    """Versions whose code storage keeps (see the module docstring)."""
    unplayed = Q(participations__match__status__in=[Match.Status.QUEUED, Match.Status.RUNNING])
    return BotVersion.objects.filter(~Q(bot__in=dead_bots()) | unplayed)


@dataclass
class Collection:
    removed: list[str] = field(default_factory=list)   # names deleted (or, dry run, to delete)
    kept_young: int = 0                                  # unreferenced but modified within the grace period
    failed: list[str] = field(default_factory=list)    # the storage refused to delete them


def collect(dry_run: bool = False, now: float | None = None) -> Collection:
    """Delete archives and packages that no live version needs (the module docstring). `now`: the collection's
    clock (tests). Logs every name it removes. Never raises for one object the storage refuses to delete."""
    out = Collection()
    started = time.time() if now is None else now
    cutoff = started - GRACE_SECONDS
    live_keys = set(live_versions().values_list("bot_id", "number").distinct())
    live_archives = set(live_versions().exclude(archive_path="").values_list("archive_path", flat=True))
    live_hashes = set(live_versions().exclude(package_hash="").values_list("package_hash", flat=True).distinct())

    for name, modified in objects.listing("bots/"):
        m = _VERSION_OBJECT.fullmatch(name)
        if name in live_archives or (m is not None and (int(m[1]), int(m[2])) in live_keys):
            continue
        if modified > cutoff:  # an upload's archive is stored before its version row commits
            out.kept_young += 1
            continue
        _remove(name, dry_run, out)

    candidates = []
    for name, modified in objects.listing("packages/"):
        m = _PACKAGE_OBJECT.fullmatch(name)
        if m is None or m[1] in live_hashes:
            continue
        if modified > cutoff:  # stored by a validation that may not have recorded its hash yet
            out.kept_young += 1
            continue
        candidates.append(m[1])
    for start in range(0, len(candidates), HOLD_BATCH):
        batch = candidates[start:start + HOLD_BATCH]
        with package_hold(*batch):  # a validation storing one of these now waits, or has committed its reference
            referenced = set(live_versions().filter(package_hash__in=batch).values_list("package_hash", flat=True))
            for sha in batch:
                if sha not in referenced:
                    _remove(object_name(sha), dry_run, out)

    _collect_staged_replays(cutoff, dry_run, out)

    verb = "would remove" if dry_run else "removed"
    if out.removed:
        log.info("storage gc: %s %d objects no live bot version needs (%d failed, %d too young)", verb,
                 len(out.removed), len(out.failed), out.kept_young)
    else:
        log.info("storage gc: nothing to remove (%d unreferenced objects younger than %.0f s kept)",
                 out.kept_young, GRACE_SECONDS)
    return out


def _collect_staged_replays(cutoff: float, dry_run: bool, out: Collection) -> None:
    """Replays (and logs) put under a run's own name that their match does not reference (module docstring)."""
    from arena.botlogs import logs_path

    found: dict[int, list[str]] = {}
    for name, modified in objects.listing("replays/"):
        m = _STAGED_REPLAY.fullmatch(name)
        if m is None:
            continue
        if modified > cutoff:  # a run between its put and the commit of its result
            out.kept_young += 1
            continue
        found.setdefault(int(m[1]), []).append(name)
    ids = sorted(found)
    for start in range(0, len(ids), 5000):
        chunk = ids[start:start + 5000]
        recorded = dict(Match.objects.filter(pk__in=chunk).values_list("pk", "replay_path"))
        for match_id in chunk:
            path = recorded.get(match_id) or ""
            keep = {path, logs_path(path).as_posix()} if path else set()
            for name in found[match_id]:
                if name not in keep:
                    _remove(name, dry_run, out)


def _remove(name: str, dry_run: bool, out: Collection) -> None:
    if dry_run:
        out.removed.append(name)
        return
    try:
        objects.delete(name)
        objects.prune_empty_folders(name)
    except Exception as exc:  # OSError from a folder, botocore's errors from S3: the next run tries again
        log.warning("storage gc: could not remove %s (%s)", name, exc)
        out.failed.append(name)
        return
    log.info("storage gc: removed %s", name)
    out.removed.append(name)
