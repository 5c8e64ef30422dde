"""Safe unpacking of uploaded bot archives (.zip or .tar.gz) into a folder.

Everything an archive could do to escape or exhaust the host is refused before it is written: absolute paths,
`..` components, names that are not UTF-8 or hold control characters, symlinks, hard links and device files;
more entries than `max_files` (every entry counts, folders included: a 2 KB archive can list 30,000 folders; so
does every folder a member's path implies without listing it, since unpacking creates it and the stored package
lists it); a path more than `MAX_DEPTH` folders deep (the bound of a build's output too: Python's own tree
walks, `shutil.rmtree` and `os.walk`, recurse once per folder, and a 1,000-deep path exhausted them);
more than `max_bytes` uncompressed in total (counted while decompressing too, since headers can lie); a zip
central directory or tar header larger than such an archive needs (parsed headers cost memory before any file
is written); and more than `max_seconds` of work. When all files sit in one top-level folder
(`zip -r mybot.zip mybot/`), that folder becomes the package root.

A file's executable bit survives (a prebuilt binary uploaded with mode 755, in a tar or a zip made on Unix, stays
executable): files are written 0755 when any execute bit is set in the archive, 0644 otherwise; no other bit
(set-uid, sticky, group- or world-writable) is ever kept. Used by the platform's uploads
(platform/botregistry/archive.py) and by `arena bot check ARCHIVE`, so both see the same package.

`unpack()` raises `ArchiveError` with a message meant for the bot's author (never a path of this server);
nothing is left behind then.
"""

from __future__ import annotations

import gzip
import io
import os
import shutil
import stat
import tarfile
import time
import zipfile
import zlib
from collections.abc import Iterator
from pathlib import Path, PurePosixPath
from typing import IO, BinaryIO

CHUNK = 64 * 1024
UNPACK_SECONDS = 10.0      # default time bound of one unpacking
ENTRY_OVERHEAD = 2048      # tar: header block + padding per entry, allowed on top of the file bytes
HEADER_MAX_BYTES = 64 * 1024  # tar: a pax or GNU long-name header larger than this is refused before it is read
CD_BYTES_PER_ENTRY = 1024  # zip: central directory bytes allowed per entry (46 + name + extra fields)
MAX_DEPTH = 64             # folders above a member (a build's output has the same bound: arena.botbuild)


#: The limits `arena bot check ARCHIVE` unpacks with: the platform's defaults (ARENA_UNPACKED_MAX_MB,
#: ARENA_UNPACKED_MAX_FILES in platform/arena_site/settings.py).
DEFAULT_MAX_BYTES = 50 * 1024 * 1024
DEFAULT_MAX_FILES = 2000


class ArchiveError(ValueError):
    """The archive was refused; the message says why in words a bot author understands."""


def _shown(name: str) -> str:
    """A member's name as the author can read it (undecodable bytes shown as �), quoted."""
    return repr(name.encode("utf-8", "surrogateescape").decode("utf-8", "replace"))


def safe_name(name: str) -> PurePosixPath | None:
    """The member's relative path, or None for the archive root itself. Raises ArchiveError on escaping or
    unreadable paths (not UTF-8, control characters); also the rule of a build's output names (arena.botbuild),
    so that no package holds a name its unpacking would refuse."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:  # tarfile keeps undecodable bytes as surrogates
        raise ArchiveError(f"archive member {_shown(name)} has a name that is not UTF-8 text") from None
    if any(ord(c) < 32 or ord(c) == 127 for c in name):
        raise ArchiveError(f"archive member {name!r} has a control character in its name")
    normalized = name.replace("\\", "/")
    if normalized.startswith("/") or (len(normalized) > 1 and normalized[1] == ":"):
        raise ArchiveError(f"archive member {name!r} has an absolute path; paths must be relative")
    parts = [p for p in normalized.split("/") if p not in ("", ".")]
    if ".." in parts:
        raise ArchiveError(f"archive member {name!r} has a '..' path component; paths must stay inside the bot")
    if len(parts) > MAX_DEPTH + 1:
        raise ArchiveError(f"archive member {_shown(name[:80] + '...')} is more than {MAX_DEPTH} folders deep")
    return PurePosixPath(*parts) if parts else None


class _Budget:
    """What an unpacking may still spend: entries, bytes written, and time."""

    def __init__(self, max_bytes: int, max_files: int, max_seconds: float):
        self.max_bytes, self.max_files, self.max_seconds = max_bytes, max_files, max_seconds
        self.deadline = time.monotonic() + max_seconds
        self.bytes = 0
        self.declared = 0
        self.entries = 0
        self.files = 0
        self.folders: set[PurePosixPath] = set()

    def add_entry(self) -> None:
        """Count one entry of any kind (file, folder, the root): too many stop the unpacking."""
        self.entries += 1
        if self.entries > self.max_files:
            raise self.too_many()
        self.check_time()

    def add_member(self, path: PurePosixPath | None, is_dir: bool) -> None:
        """Count a member at `path` (None: the archive's root), as every listed entry counts, and each folder its
        path implies that no earlier member listed or implied: unpacking creates those too."""
        self.add_entry()
        if path is None:
            return
        for folder in reversed(path.parents[:-1]):
            if folder not in self.folders:
                self.folders.add(folder)
                self.add_entry()
        if is_dir:
            self.folders.add(path)

    def add_file(self, declared_size: int) -> None:
        """Count one file by its header: headers declaring more than `max_bytes` in all stop the unpacking before
        its data is decompressed."""
        self.files += 1
        self.declared += declared_size
        if self.declared > self.max_bytes:
            raise self._too_large()

    def add_bytes(self, n: int) -> None:
        """Count bytes actually written (a header may lie about its size)."""
        self.bytes += n
        if self.bytes > self.max_bytes:
            raise self._too_large()
        self.check_time()

    def check_time(self) -> None:
        if time.monotonic() > self.deadline:
            raise ArchiveError(f"the archive took more than {self.max_seconds:g} s to unpack")

    def too_many(self) -> ArchiveError:
        return ArchiveError(f"the archive has more than {self.max_files} files and folders")

    def _too_large(self) -> ArchiveError:
        return ArchiveError(f"the archive unpacks to more than {self.max_bytes // (1024 * 1024)} MB "
                            f"(a zip bomb, or a bot too large)")


class _BoundedStream(io.RawIOBase):
    """A decompressed stream that refuses to yield more than `limit` bytes or to run past the budget's time:
    whatever tarfile reads (headers, padding, data) is counted."""

    def __init__(self, source: BinaryIO, limit: int, budget: _Budget):
        self.source, self.limit, self.budget, self.read_bytes = source, limit, budget, 0

    def readable(self) -> bool:
        return True

    def read(self, n: int = -1) -> bytes:
        if n is None or n < 0:
            n = CHUNK
        data = self.source.read(min(n, CHUNK * 4))
        self.read_bytes += len(data)
        if self.read_bytes > self.limit:
            raise self.budget._too_large()
        self.budget.check_time()
        return data


class _CheckedTarInfo(tarfile.TarInfo):
    """Refuses a pax or GNU long-name header whose payload is larger than any real archive needs, before
    tarfile reads that payload into memory."""

    def _proc_member(self, tarfile_):  # type: ignore[override]
        if (self.type in (tarfile.XHDTYPE, tarfile.XGLTYPE, tarfile.SOLARIS_XHDTYPE, tarfile.GNUTYPE_LONGNAME,
                          tarfile.GNUTYPE_LONGLINK) and self.size > HEADER_MAX_BYTES):
            raise ArchiveError(f"the archive has a header of {self.size} bytes; at most {HEADER_MAX_BYTES} "
                               f"are allowed")
        return super()._proc_member(tarfile_)  # type: ignore[misc]  # tarfile's private hook, not in typeshed


def _make_folders(root: Path, rel: PurePosixPath) -> None:
    """Create the folders of `rel` below `root`, one at a time from the top (Path.mkdir(parents=True) recurses
    once per missing folder)."""
    folder = root
    for part in rel.parts:
        folder = folder / part
        try:
            folder.mkdir()
        except FileExistsError:
            if not folder.is_dir() or folder.is_symlink():
                raise NotADirectoryError(folder) from None


def _copy(src: IO[bytes], root: Path, rel: PurePosixPath, budget: _Budget, mode: int = 0) -> None:
    """Write one member at `rel` below `root`; `mode` is its permission bits in the archive (0 when it records
    none)."""
    dest = root / rel
    try:
        _make_folders(root, rel.parent)
        out = open(dest, "xb")
    except (FileExistsError, NotADirectoryError, IsADirectoryError):
        raise ArchiveError(f"the archive holds the same file twice, or a file and a folder of the same name: "
                           f"{rel}") from None
    with out:
        while chunk := src.read(CHUNK):
            budget.add_bytes(len(chunk))
            out.write(chunk)
    os.chmod(dest, 0o755 if mode & 0o111 else 0o644)


def _check_central_directory(data: BinaryIO, budget: _Budget) -> None:
    """Refuse a zip whose central directory lists more entries, or is larger, than an archive of `max_files`
    entries needs, before zipfile parses it all into memory."""
    # zipfile's own reader of the end-of-central-directory record (zip64 included; None if missing): private, untyped
    end = zipfile._EndRecData(data)  # type: ignore[attr-defined]
    data.seek(0)
    if end is None:
        raise ArchiveError("the archive is damaged or not a .zip: no central directory")
    if (end[zipfile._ECD_ENTRIES_TOTAL] > budget.max_files  # type: ignore[attr-defined]
            or end[zipfile._ECD_SIZE] > (budget.max_files + 1) * CD_BYTES_PER_ENTRY):  # type: ignore[attr-defined]
        raise budget.too_many()


def _zip_members(archive: zipfile.ZipFile, budget: _Budget) -> Iterator[tuple[PurePosixPath, zipfile.ZipInfo]]:
    for info in archive.infolist():
        path = safe_name(info.filename)
        budget.add_member(path, info.is_dir())
        mode = info.external_attr >> 16
        if stat.S_ISLNK(mode):
            raise ArchiveError(f"archive member {info.filename!r} is a symbolic link; links are not allowed")
        if stat.S_IFMT(mode) and not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):  # type bits are optional
            raise ArchiveError(f"archive member {info.filename!r} is not a regular file or folder")
        if path is None or info.is_dir():
            continue
        budget.add_file(info.file_size)
        yield path, info


def _unpack_zip(data: BinaryIO, dest: Path, budget: _Budget) -> None:
    _check_central_directory(data, budget)
    try:
        archive = zipfile.ZipFile(data)
    except UnicodeDecodeError:  # the UTF-8 flag set on a name that is not UTF-8
        raise ArchiveError("an archive member has a name that is not UTF-8 text") from None
    with archive:
        members = list(_zip_members(archive, budget))  # check every header before writing anything
        for path, info in members:
            if info.flag_bits & 0x1:
                raise ArchiveError(f"archive member {info.filename!r} is encrypted")
            # the Unix mode sits in the high 16 bits of external_attr for a zip made on Unix (create_system 3)
            mode = (info.external_attr >> 16) & 0o7777 if info.create_system == 3 else 0
            with archive.open(info) as src:
                _copy(src, dest, path, budget, mode)


def _unpack_tar(data: BinaryIO, dest: Path, budget: _Budget) -> None:
    limit = budget.max_bytes + (budget.max_files + 2) * ENTRY_OVERHEAD + 2 * tarfile.RECORDSIZE
    try:
        stream = _BoundedStream(gzip.GzipFile(fileobj=data, mode="rb"), limit, budget)  # type: ignore[arg-type]
        # "r|": a stream read front to back; a header declaring too much stops us before its data is read
        with tarfile.open(fileobj=stream, mode="r|", tarinfo=_CheckedTarInfo) as archive:
            while (member := archive.next()) is not None:
                path = safe_name(member.name)
                budget.add_member(path, member.isdir())
                if member.issym() or member.islnk():
                    raise ArchiveError(f"archive member {member.name!r} is a link; links are not allowed")
                if not (member.isfile() or member.isdir()):
                    raise ArchiveError(f"archive member {member.name!r} is not a regular file or folder")
                if path is None or member.isdir():
                    continue
                budget.add_file(member.size)
                src = archive.extractfile(member)
                assert src is not None  # a regular file
                _copy(src, dest, path, budget, member.mode)
    except (tarfile.TarError, EOFError, zlib.error, gzip.BadGzipFile) as exc:
        raise ArchiveError(f"the archive is damaged or not a .tar.gz: {exc}") from None


def _hoist_single_folder(dest: Path) -> None:
    """If the package is one folder without bot.toml beside it, make that folder the root."""
    entries = list(dest.iterdir())
    if len(entries) == 1 and entries[0].is_dir() and not (dest / "bot.toml").exists():
        inner = entries[0]
        tmp = dest / (".hoist-" + inner.name)
        inner.rename(tmp)
        for child in tmp.iterdir():
            child.rename(dest / child.name)
        tmp.rmdir()


def unpack(data: BinaryIO | bytes, dest: Path, *, max_bytes: int, max_files: int,
           max_seconds: float = UNPACK_SECONDS) -> None:
    """Unpack a .zip or .tar.gz archive into the new folder `dest` (which must not exist yet), spending at
    most `max_files` entries, `max_bytes` unpacked and about `max_seconds`."""
    if isinstance(data, bytes):
        data = io.BytesIO(data)
    data.seek(0)
    head = data.read(4)
    data.seek(0)
    budget = _Budget(max_bytes, max_files, max_seconds)
    dest.mkdir(parents=True)
    try:
        if head.startswith(b"PK\x03\x04") or head.startswith(b"PK\x05\x06"):
            try:
                _unpack_zip(data, dest, budget)
            except ArchiveError:
                raise
            # a damaged directory makes zipfile seek before the start (ValueError) or read past the end
            except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, ValueError) as exc:
                raise ArchiveError(f"the archive is damaged or not a .zip: {exc}") from None
        elif head.startswith(b"\x1f\x8b"):
            _unpack_tar(data, dest, budget)
        else:
            raise ArchiveError("the upload is not a .zip or .tar.gz archive")
        if budget.files == 0:
            raise ArchiveError("the archive is empty")
        _hoist_single_folder(dest)
    except OSError as exc:  # the server's own trouble (disk full...): said without its paths
        shutil.rmtree(dest, ignore_errors=True)
        raise ArchiveError(f"the archive could not be unpacked: {exc.strerror or type(exc).__name__}") from None
    except BaseException:
        shutil.rmtree(dest, ignore_errors=True)
        raise
