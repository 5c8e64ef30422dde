"""A version's package as one immutable object in storage, and each worker's bounded local cache of them.

- **Stored once, by content hash** (`store_package`, at the end of a successful validation): the version's folder
  as validated, build outputs included, is packed as a `.tar.gz` of regular files and folders (sorted, no owners,
  no timestamps: the same files make the same bytes) and put in storage as `packages/<sha256>.tar.gz`;
  `BotVersion.package_hash` is that SHA-256. Web and workers share no disk: a worker gets a package only from
  there.
- **Fetched into a bounded local cache** (`PackageCache`, `ARENA_PACKAGE_CACHE_DIR`, default
  `<ARENA_LOCAL_DIR>/package-cache`, at most `ARENA_PACKAGE_CACHE_MB`): the object is downloaded to a temporary
  file while hashing; a hash that differs from the version's refuses the package (`PackageRefused`: the bots are
  not launched); the verified file is unpacked with the uploads' own safe unpacker (`arena.botarchive`, bounded
  in files, bytes and time: nothing in the object is trusted beyond its hash) and renamed into place as
  `<sha256>/`. Several worker processes share one cache: an entry appears by one atomic rename under the cache's
  lock (two processes fetching the same package at once keep the first), each match holds a shared lock on
  every entry it launches bots from, and eviction (least recently used first, after each use, down to the cap)
  skips entries someone holds and removes an entry by renaming it away first, so nobody sees half of one.
- **Built-in bots and older versions**: a built-in bot's folder ships with Arena on every machine (absolute
  `package_dir`); a version validated before packages were stored has no `package_hash` and plays from its
  folder under the storage folder, as before (single-machine installs only).
"""

from __future__ import annotations

import fcntl
import gzip
import hashlib
import io
import logging
import os
import re
import shutil
import stat
import tarfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

from django.conf import settings

from arena_site import objects
from botregistry.models import BotVersion

log = logging.getLogger("arena.platform")

HASH = re.compile(r"[0-9a-f]{64}")
#: Unpacking a package from the cache: as much as an upload may hold plus what a build may add to it.
UNPACK_SECONDS = 60.0


class PackageRefused(RuntimeError):
    """The package object can't be used: missing, or its bytes are not the ones validated, or a worker's unpacker
    refuses what they hold (the message says which, without a path of this server). `unrunnable`: the package's
    own content is at fault (no worker will ever run it), not storage."""

    def __init__(self, message: str, *, unrunnable: bool = False) -> None:
        super().__init__(message)
        self.unrunnable = unrunnable


def object_name(sha: str) -> str:
    return f"packages/{sha}.tar.gz"


def pack(folder: Path) -> bytes:
    """The folder as a reproducible .tar.gz: regular files (mode 0755 if executable, else 0644) and folders in
    sorted order, owner 0, time 0. A symbolic link or any other kind of file raises ValueError (a validated
    package holds none: uploads refuse them and builds copy only regular files back)."""
    buf = io.BytesIO()
    with gzip.GzipFile(fileobj=buf, mode="wb", mtime=0, compresslevel=6) as gz, \
            tarfile.open(fileobj=gz, mode="w", format=tarfile.PAX_FORMAT) as tar:
        pending = [Path()]
        while pending:
            rel_dir = pending.pop(0)
            for name in sorted(os.listdir(folder / rel_dir)):
                rel = rel_dir / name
                st = (folder / rel).lstat()
                info = tarfile.TarInfo(rel.as_posix())
                info.mtime, info.uid, info.gid, info.uname, info.gname = 0, 0, 0, "", ""
                if stat.S_ISDIR(st.st_mode):
                    info.type, info.mode = tarfile.DIRTYPE, 0o755
                    tar.addfile(info)
                    pending.append(rel)
                elif stat.S_ISREG(st.st_mode):
                    info.size, info.mode = st.st_size, 0o755 if st.st_mode & 0o111 else 0o644
                    with open(folder / rel, "rb") as f:
                        tar.addfile(info, f)
                else:
                    raise ValueError(f"{rel.as_posix()} is not a regular file or folder")
    return buf.getvalue()


def store_package(folder: Path) -> str:
    """Put the package at `folder` in storage; returns its SHA-256. Put again even when an object of that hash is
    there (the same bytes): its last-modified time then says a version has just started to use it, which the
    storage's garbage collection respects (`matches.storage_gc`: it never deletes an object modified within its
    grace period)."""
    data = pack(folder)
    sha = hashlib.sha256(data).hexdigest()
    objects.put_bytes(object_name(sha), data)
    return sha


#: PostgreSQL advisory lock namespace of "package <hash> is being stored or collected" (any constant int4).
_HOLD_NAMESPACE = 0x41524E50


@contextmanager
def package_hold(*shas: str) -> Iterator[None]:
    """A transaction holding packages `shas` against the storage's garbage collection: storing a package and
    recording a version's `package_hash` happen under it, and the collection recounts packages' references and
    deletes their objects under it (`matches.storage_gc`), so one never interleaves with the other. PostgreSQL
    advisory locks, taken in one order (no deadlock between two holders of several) and released at the end of
    the transaction; on other databases (SQLite: one machine) only the transaction, and the collection's grace
    period on the object's age protects a package just stored."""
    from django.db import connection, transaction

    keys = sorted({int(sha[:8], 16) - 2**31 for sha in shas})
    with transaction.atomic():
        if connection.vendor == "postgresql" and keys:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_xact_lock(%s, k) FROM unnest(%s::int[]) AS k ORDER BY k",
                               [_HOLD_NAMESPACE, keys])
        yield


def cache_dir() -> Path:
    return Path(settings.ARENA_PACKAGE_CACHE_DIR or objects.local_dir() / "package-cache")


def unpack_limits() -> dict[str, float]:
    from arena import botbuild

    return {"max_bytes": settings.ARENA_UNPACKED_MAX_BYTES + botbuild.OUTPUT_MAX_BYTES,
            "max_files": settings.ARENA_UNPACKED_MAX_FILES + botbuild.OUTPUT_MAX_FILES,
            "max_seconds": UNPACK_SECONDS}


def unpack_as_worker(data: BinaryIO, folder: Path, sha: str) -> None:
    """Unpack the package object `data` (hash `sha`) into the new `folder` with the workers' limits; raises
    PackageRefused(unrunnable=True) when the unpacker refuses it. The one check both a worker's fetch and a
    validation make: a version becomes ready only if this accepts its package (`keep_validated`)."""
    from arena.botarchive import ArchiveError, unpack

    try:
        unpack(data, folder, **unpack_limits())  # type: ignore[arg-type]
    except ArchiveError as exc:
        raise PackageRefused(f"package {sha[:12]} could not be unpacked: {exc}", unrunnable=True) from None


class PackageCache:
    """The bounded cache of unpacked packages at `root` (see the module docstring). `use(sha)` is a context
    manager giving the package's folder, held while the bots run."""

    def __init__(self, root: Path | None = None, max_bytes: int | None = None):
        self.root = Path(root or cache_dir())
        self.max_bytes = settings.ARENA_PACKAGE_CACHE_MB * 1024 * 1024 if max_bytes is None else max_bytes
        for sub in (self.root, self.root / ".tmp", self.root / ".locks", self.root / ".sizes"):
            sub.mkdir(parents=True, exist_ok=True)
        # the sandboxed bots' own uids read their package: folders must be traversable by anyone
        os.chmod(self.root, 0o755)

    @contextmanager
    def _locked(self) -> Iterator[None]:
        with open(self.root / ".lock", "a") as f:
            fcntl.flock(f, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(f, fcntl.LOCK_UN)

    @contextmanager
    def use(self, sha: str) -> Iterator[Path]:
        """The folder of package `sha`, fetched and verified if not cached; not evicted until the block ends.
        Raises PackageRefused (missing object, wrong hash, refused by the unpacker)."""
        if not HASH.fullmatch(sha):
            raise PackageRefused(f"{sha!r} is not a package hash")
        with open(self.root / ".locks" / sha, "a") as hold:
            fcntl.flock(hold, fcntl.LOCK_SH)  # eviction takes this exclusively: it skips an entry in use
            try:
                entry = self.root / sha
                if not entry.is_dir():
                    self._fetch(sha)
                os.utime(entry)  # most recently used
                yield entry
            finally:
                fcntl.flock(hold, fcntl.LOCK_UN)
        self.evict()

    def _fetch(self, sha: str) -> None:
        tmp = self.root / ".tmp" / uuid.uuid4().hex
        archive, folder = tmp.with_suffix(".tar.gz"), tmp.with_suffix(".d")
        started = time.monotonic()
        try:
            try:
                got = objects.download(object_name(sha), archive)
            except FileNotFoundError:
                raise PackageRefused(f"package {sha[:12]} is missing from storage") from None
            if got != sha:
                log.error("package %s: the stored object's SHA-256 is %s; refused", sha, got)
                raise PackageRefused(f"package {sha[:12]} in storage is not the validated one (its hash differs)")
            with open(archive, "rb") as f:
                unpack_as_worker(f, folder, sha)
            size = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())
            with self._locked():
                if (self.root / sha).is_dir():
                    return  # another process fetched it meanwhile: theirs is the same bytes
                (self.root / ".sizes" / sha).write_text(str(size))
                folder.rename(self.root / sha)
            log.info("package %s fetched into the cache in %.2f s (%d bytes)", sha[:12],
                     time.monotonic() - started, size)
        finally:
            archive.unlink(missing_ok=True)
            shutil.rmtree(folder, ignore_errors=True)

    def entries(self) -> list[tuple[float, str, int]]:
        """(last use, hash, bytes) of every cached package, least recently used first."""
        out = []
        for path in self.root.iterdir():
            if HASH.fullmatch(path.name) and path.is_dir():
                try:
                    size = int((self.root / ".sizes" / path.name).read_text())
                except (OSError, ValueError):
                    size = 0
                out.append((path.stat().st_mtime, path.name, size))
        return sorted(out)

    def evict(self) -> list[str]:
        """Remove least recently used packages nobody holds until the cache fits its cap; returns their hashes."""
        removed = []
        with self._locked():
            entries = self.entries()
            total = sum(size for _, _, size in entries)
            for _, sha, size in entries:
                if total <= self.max_bytes:
                    break
                with open(self.root / ".locks" / sha, "a") as hold:
                    try:
                        fcntl.flock(hold, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    except BlockingIOError:
                        continue  # a match runs bots from it
                    trash = self.root / ".tmp" / f"evicted-{sha}-{uuid.uuid4().hex[:8]}"
                    (self.root / sha).rename(trash)
                    (self.root / ".sizes" / sha).unlink(missing_ok=True)
                    fcntl.flock(hold, fcntl.LOCK_UN)
                shutil.rmtree(trash, ignore_errors=True)
                total -= size
                removed.append(sha)
        if removed:
            log.info("package cache: evicted %s", ", ".join(s[:12] for s in removed))
        return removed


@contextmanager
def local_package(version: BotVersion, cache: PackageCache | None = None) -> Iterator[Path]:
    """The folder to launch `version`'s bot from, for the duration of the block: from the package cache when the
    version has a stored package, else its own folder (built-in bots; versions validated before packages were
    stored). Raises PackageRefused."""
    if version.package_hash:
        with (cache or PackageCache()).use(version.package_hash) as path:
            yield path
        return
    folder = version.package_path
    if folder is None or not folder.is_dir():
        raise PackageRefused(f"{version} has no stored package")
    yield folder


@contextmanager
def working_copy(version: BotVersion) -> Iterator[Path]:
    """A folder on this machine holding `version`'s upload, for its validation (which builds in it): the uploaded
    archive fetched from storage, checked against the hash taken at upload (`archive_sha256`) and unpacked as the
    upload was, whose content must hash to the version's `sha256`; removed after the block. A version that has a
    folder of its own (uploaded before packages were stored) is validated in it, as before. Raises
    PackageRefused when the stored archive is missing or not the one uploaded."""
    own = version.package_path
    if own is not None and own.is_dir():
        yield own
        return
    from arena.botarchive import ArchiveError, unpack
    from arena.botpkg import package_sha256

    work = objects.local_dir() / "validation" / uuid.uuid4().hex
    work.mkdir(parents=True)
    try:
        os.chmod(work, 0o755)  # the smoke match's sandboxed bot reads its folder under its own uid
        archive = work / "archive"
        try:
            got = objects.download(version.archive_path, archive)
        except FileNotFoundError:
            raise PackageRefused("the uploaded archive is missing from storage; upload the bot again") from None
        if version.archive_sha256 and got != version.archive_sha256:
            log.error("%s: the stored archive's SHA-256 is %s, not %s; refused", version, got, version.archive_sha256)
            raise PackageRefused("the uploaded archive in storage is not the one uploaded (its hash differs)")
        try:
            with open(archive, "rb") as f:
                unpack(f, work / "package", max_bytes=settings.ARENA_UNPACKED_MAX_BYTES,
                       max_files=settings.ARENA_UNPACKED_MAX_FILES)
        except ArchiveError as exc:
            raise PackageRefused(str(exc)) from None
        if package_sha256(work / "package") != version.sha256:
            raise PackageRefused("the uploaded archive in storage does not hold the package uploaded")
        yield work / "package"
    finally:
        shutil.rmtree(work, ignore_errors=True)


def keep_validated(version: BotVersion, claim: str | None = None) -> bool:
    """Store the validated package of `version` (its folder as the validation left it, `version.package_path`)
    and record its hash, before the version is marked ready; with `claim`, only while that validation run holds
    the version. The package is first unpacked as a worker will unpack it (`unpack_as_worker`): one that a worker
    would refuse raises PackageRefused(unrunnable=True), and the version fails with its reason instead of
    becoming a ready version no match can start. False (logged) when storage refused it or the claim is lost:
    the version must not become ready."""
    folder = version.package_path
    try:
        assert folder is not None
        data = pack(folder)
    except Exception:
        log.exception("the validated package of %s could not be packed", version)
        return False
    sha = hashlib.sha256(data).hexdigest()
    trial = objects.local_dir() / "validation" / f"unpack-{uuid.uuid4().hex}"
    try:
        unpack_as_worker(io.BytesIO(data), trial, sha)
    finally:
        shutil.rmtree(trial, ignore_errors=True)
    rows = BotVersion.objects.filter(pk=version.pk)
    if claim is not None:
        rows = rows.filter(validation_claim=claim)
    with package_hold(sha):  # the garbage collection can't delete the object between the put and the reference
        try:
            objects.put_bytes(object_name(sha), data)  # again if there: see store_package
        except Exception:
            log.exception("the validated package of %s could not be stored", version)
            return False
        if not rows.update(package_hash=sha):
            return False
    version.package_hash = sha
    return True
