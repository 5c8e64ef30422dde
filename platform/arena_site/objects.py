"""Arena's object storage: everything web and workers share besides the database and the broker.

One Django storage, named "arena" (`settings.STORAGES`), holds
- `bots/<bot>/<number>/archive.zip|.tar.gz` — an uploaded archive as it came (the web stores it, validation reads it);
- `packages/<sha256>.tar.gz` — a version's package after validation (its build outputs included), one immutable
  object named by the SHA-256 of its bytes (`botregistry.package_cache`);
- `replays/<nnnn>/<match>.replay.json.gz` and `…logs.json.gz` beside it — a match's replay and its bots' logs.

On embedded defaults and in tests the storage is the folder `ARENA_STORAGE_DIR` (`LocalStorage`); with
`ARENA_S3_BUCKET` set it is an S3-compatible bucket through django-storages' `S3Storage` (settings.py). Names are
deterministic, so a put overwrites (the same bytes again) instead of inventing a new name.

`local_dir()` is this machine's own working folder (never shared): replays being written, builds, caches.

Every put, delete and existence check is bounded (`bounded`): it runs in a thread of its own and the caller gets
`StorageTimeout` once `ARENA_STORAGE_CALL_SECONDS` have passed, whatever the backend does (botocore's own connect
and read timeouts and retries bound each S3 request, settings.s3_storage; nothing bounds a hung network file
system but this). The abandoned call may still complete later; the names it writes are then objects nobody
references, which the storage's garbage collection removes (`matches.storage_gc`). Callers never hold a database
row lock across any of these calls.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import threading
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, TypeVar

from django.conf import settings
from django.core.files import File
from django.core.files.storage import FileSystemStorage, Storage, storages


class LocalStorage(FileSystemStorage):
    """A FileSystemStorage rooted at `settings.STORAGE_DIR` as it is now (tests point it elsewhere per test),
    that overwrites a name instead of renaming, writes files readable by Arena's user only (0600), and writes
    each atomically (a `.part` file renamed into place), so a reader never sees half a replay and a crash leaves no half-written object behind."""

    _location: str | None  # FileSystemStorage.__init__ sets it (the `location` argument); its stubs leave it out

    def __init__(self, **kwargs):
        kwargs.setdefault("allow_overwrite", True)
        # private to Arena's own user, as the files the referee writes (the bots' logs hold what they printed)
        kwargs.setdefault("file_permissions_mode", 0o600)
        super().__init__(**kwargs)

    @property  # type: ignore[override]
    def base_location(self) -> str:
        return self._value_or_setting(self._location, str(settings.STORAGE_DIR))

    @property  # type: ignore[override]
    def location(self) -> str:
        return os.path.abspath(self.base_location)

    def _save(self, name: str, content: File) -> str:
        full = Path(self.path(name))
        full.parent.mkdir(parents=True, exist_ok=True)
        part = full.with_name(f"{full.name}.{uuid.uuid4().hex[:8]}.part")
        try:
            with open(part, "wb") as out:
                if hasattr(content, "temporary_file_path"):
                    with open(content.temporary_file_path(), "rb") as src:
                        shutil.copyfileobj(src, out, 1024 * 1024)
                else:
                    for chunk in content.chunks():
                        out.write(chunk)
            if self.file_permissions_mode is not None:
                os.chmod(part, self.file_permissions_mode)
            os.replace(part, full)
        except BaseException:
            part.unlink(missing_ok=True)
            raise
        return name.replace("\\", "/")


def storage() -> Storage:
    """The "arena" storage (settings.STORAGES)."""
    return storages["arena"]


def is_local() -> bool:
    """Whether the storage is this machine's folder (embedded defaults, tests) rather than object storage."""
    return isinstance(storage(), FileSystemStorage)


def local_dir() -> Path:
    """This machine's own working folder: `ARENA_LOCAL_DIR`, by default the storage folder."""
    return Path(settings.ARENA_LOCAL_DIR or settings.STORAGE_DIR)


class StorageTimeout(OSError):
    """A storage call did not finish within ARENA_STORAGE_CALL_SECONDS (a hanging endpoint or file system)."""


T = TypeVar("T")


def bounded(call: Callable[[], T], what: str, seconds: float | None = None) -> T:
    """`call()`'s value or exception, or StorageTimeout when it has not returned within `seconds` (default
    ARENA_STORAGE_CALL_SECONDS). The call runs in a daemon thread, which is left to finish on its own when it
    overruns (a thread cannot be killed): what it writes late is an unreferenced object (see the module docstring)."""
    limit = float(settings.ARENA_STORAGE_CALL_SECONDS if seconds is None else seconds)
    outcome: dict[str, object] = {}
    done = threading.Event()

    def run() -> None:
        try:
            outcome["value"] = call()
        except BaseException as exc:  # handed to the caller below
            outcome["error"] = exc
        finally:
            done.set()

    threading.Thread(target=run, name=f"storage: {what}", daemon=True).start()
    if not done.wait(limit):
        raise StorageTimeout(f"storage did not answer within {limit:g} s ({what})")
    if "error" in outcome:
        raise outcome["error"]  # type: ignore[misc]  # an exception, set above
    return outcome["value"]  # type: ignore[return-value]  # set above


def put_file(name: str, path: str | os.PathLike[str]) -> None:
    """Store the local file at `path` as `name` (overwriting), within ARENA_STORAGE_CALL_SECONDS. Raises whatever
    the backend raises (OSError, botocore's errors) when storage refuses it, StorageTimeout when it hangs."""
    def put() -> None:
        with open(path, "rb") as f:
            _put(name, File(f, name=os.path.basename(name)))
    bounded(put, f"put {name}")


def put_bytes(name: str, data: bytes) -> None:
    """Store `data` as `name` (overwriting), within ARENA_STORAGE_CALL_SECONDS (as `put_file`)."""
    from django.core.files.base import ContentFile

    bounded(lambda: _put(name, ContentFile(data, name=os.path.basename(name))), f"put {name}")


def _put(name: str, content: File) -> None:
    saved = storage().save(name, content)
    if saved != name:  # would break every reference by name: a misconfigured backend (file_overwrite off)
        storage().delete(saved)
        raise RuntimeError(f"storage saved {name!r} as {saved!r}; set it to overwrite")


def exists(name: str) -> bool:
    """Whether `name` is stored (within ARENA_STORAGE_CALL_SECONDS, else StorageTimeout)."""
    return bool(name) and bounded(lambda: storage().exists(name), f"look for {name}")


@contextmanager
def opened(name: str) -> Iterator[IO[bytes]]:
    """The stored object `name`, open for reading (FileNotFoundError when it is not there)."""
    if not exists(name):
        raise FileNotFoundError(name)
    f = storage().open(name, "rb")
    try:
        yield f
    finally:
        f.close()


def download(name: str, dest: str | os.PathLike[str], chunk: int = 1024 * 1024) -> str:
    """Copy the object `name` to the local file `dest`; returns the SHA-256 (hex) of the bytes written, so the
    caller can check what it got before trusting it."""
    digest = hashlib.sha256()
    with opened(name) as src, open(dest, "wb") as out:
        while data := src.read(chunk):
            digest.update(data)
            out.write(data)
    return digest.hexdigest()


def delete(name: str) -> None:
    """Delete `name` (within ARENA_STORAGE_CALL_SECONDS, else StorageTimeout)."""
    if name:
        bounded(lambda: storage().delete(name), f"delete {name}")


def listing(prefix: str) -> Iterator[tuple[str, float]]:
    """(name, last modified as a POSIX time) of every object whose name starts with `prefix` (a folder such as
    "packages/"), in no particular order: one paged LIST on S3 (no request per object), a walk of the folder
    otherwise. For the storage's garbage collection (`matches.storage_gc`)."""
    st = storage()
    if isinstance(st, FileSystemStorage):
        root = Path(st.location)
        for folder, _dirs, files in os.walk(root / prefix):
            for file in files:
                path = Path(folder) / file
                try:
                    modified = path.lstat().st_mtime
                except FileNotFoundError:
                    continue
                yield path.relative_to(root).as_posix(), modified
        return
    location = (getattr(st, "location", "") or "").strip("/")
    start = f"{location}/" if location else ""
    paginator = st.connection.meta.client.get_paginator("list_objects_v2")  # type: ignore[attr-defined]
    for page in paginator.paginate(Bucket=st.bucket_name, Prefix=start + prefix):  # type: ignore[attr-defined]
        for entry in page.get("Contents", ()):
            yield entry["Key"][len(start):], entry["LastModified"].timestamp()


def prune_empty_folders(name: str) -> None:
    """After deleting `name` from a folder storage, remove the folders it leaves empty (up to the storage's root);
    an object store has no folders."""
    st = storage()
    if not isinstance(st, FileSystemStorage):
        return
    root = Path(st.location)
    folder = (root / name).parent
    while folder != root and root in folder.parents:
        try:
            folder.rmdir()
        except OSError:  # not empty (or gone): the folders above are not empty either
            return
        folder = folder.parent
