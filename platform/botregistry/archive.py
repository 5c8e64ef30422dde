"""Safe unpacking of uploaded bot archives (.zip or .tar.gz) into a folder.

Everything an archive could do to escape or exhaust the host is refused before it is written: absolute paths,
`..` components, symlinks, hard links and device files; more files than `max_files`; more than `max_bytes`
uncompressed in total (counted while decompressing too, since zip headers can lie). When all files sit in one
top-level folder (`zip -r mybot.zip mybot/`), that folder becomes the package root.

`unpack()` raises `ArchiveError` with a message meant for the bot's author; nothing is left behind then.
"""

from __future__ import annotations

import io
import shutil
import stat
import tarfile
import zipfile
from pathlib import Path, PurePosixPath
from typing import BinaryIO, Iterator

CHUNK = 64 * 1024


class ArchiveError(ValueError):
    """The archive was refused; the message says why in words a bot author understands."""


def _safe_name(name: str) -> PurePosixPath | None:
    """The member's relative path, or None for the archive root itself. Raises on escaping paths."""
    if "\x00" in name:
        raise ArchiveError(f"archive member {name!r} has a NUL byte in its name")
    normalized = name.replace("\\", "/")
    if normalized.startswith("/") or (len(normalized) > 1 and normalized[1] == ":"):
        raise ArchiveError(f"archive member {name!r} has an absolute path; paths must be relative")
    parts = [p for p in normalized.split("/") if p not in ("", ".")]
    if ".." in parts:
        raise ArchiveError(f"archive member {name!r} has a '..' path component; paths must stay inside the bot")
    return PurePosixPath(*parts) if parts else None


class _Budget:
    def __init__(self, max_bytes: int, max_files: int):
        self.max_bytes, self.max_files = max_bytes, max_files
        self.bytes = 0
        self.declared = 0
        self.files = 0

    def add_member(self, declared_size: int) -> None:
        """Count one file by its header: too many files, or headers declaring more than `max_bytes` in all, stop
        the unpacking before its data is decompressed."""
        self.files += 1
        if self.files > self.max_files:
            raise ArchiveError(f"the archive has more than {self.max_files} files")
        self.declared += declared_size
        if self.declared > self.max_bytes:
            raise self._too_large()

    def add_bytes(self, n: int) -> None:
        """Count bytes actually written (a header may lie about its size)."""
        self.bytes += n
        if self.bytes > self.max_bytes:
            raise self._too_large()

    def _too_large(self) -> ArchiveError:
        return ArchiveError(f"the archive unpacks to more than {self.max_bytes // (1024 * 1024)} MB "
                            f"(a zip bomb, or a bot too large)")


def _copy(src: BinaryIO, dest: Path, budget: _Budget) -> None:
    dest.parent.mkdir(parents=True, exist_ok=True)
    with open(dest, "xb") as out:
        while chunk := src.read(CHUNK):
            budget.add_bytes(len(chunk))
            out.write(chunk)


def _zip_members(archive: zipfile.ZipFile, budget: _Budget) -> Iterator[tuple[PurePosixPath, zipfile.ZipInfo]]:
    for info in archive.infolist():
        path = _safe_name(info.filename)
        mode = info.external_attr >> 16
        if stat.S_ISLNK(mode):
            raise ArchiveError(f"archive member {info.filename!r} is a symbolic link; links are not allowed")
        if stat.S_IFMT(mode) and not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):  # type bits are optional
            raise ArchiveError(f"archive member {info.filename!r} is not a regular file or folder")
        if path is None or info.is_dir():
            continue
        budget.add_member(info.file_size)
        yield path, info


def _unpack_zip(data: BinaryIO, dest: Path, budget: _Budget) -> None:
    with zipfile.ZipFile(data) as archive:
        members = list(_zip_members(archive, budget))  # check every header before writing anything
        for path, info in members:
            if info.flag_bits & 0x1:
                raise ArchiveError(f"archive member {info.filename!r} is encrypted")
            with archive.open(info) as src:
                _copy(src, dest / path, budget)


def _unpack_tar(data: BinaryIO, dest: Path, budget: _Budget) -> None:
    try:
        with tarfile.open(fileobj=data, mode="r:*") as archive:
            # Stream member by member: a header declaring too much stops us before its data is decompressed.
            while (member := archive.next()) is not None:
                path = _safe_name(member.name)
                if member.issym() or member.islnk():
                    raise ArchiveError(f"archive member {member.name!r} is a link; links are not allowed")
                if not (member.isfile() or member.isdir()):
                    raise ArchiveError(f"archive member {member.name!r} is not a regular file or folder")
                if path is None or member.isdir():
                    continue
                budget.add_member(member.size)
                src = archive.extractfile(member)
                assert src is not None  # a regular file
                _copy(src, dest / path, budget)
    except (tarfile.TarError, EOFError, OSError) as exc:
        if isinstance(exc, FileExistsError):
            raise ArchiveError(f"the archive holds the same file twice: {exc.filename}") from None
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


def unpack(data: BinaryIO | bytes, dest: Path, *, max_bytes: int, max_files: int) -> None:
    """Unpack a .zip or .tar.gz archive into the new folder `dest` (which must not exist yet)."""
    if isinstance(data, bytes):
        data = io.BytesIO(data)
    head = data.read(4)
    data.seek(0)
    budget = _Budget(max_bytes, max_files)
    dest.mkdir(parents=True)
    try:
        if head.startswith(b"PK\x03\x04") or head.startswith(b"PK\x05\x06"):
            try:
                _unpack_zip(data, dest, budget)
            except zipfile.BadZipFile as exc:
                raise ArchiveError(f"the archive is damaged or not a .zip: {exc}") from None
            except FileExistsError as exc:
                raise ArchiveError(f"the archive holds the same file twice: {exc.filename}") from None
        elif head.startswith(b"\x1f\x8b"):
            _unpack_tar(data, dest, budget)
        else:
            raise ArchiveError("the upload is not a .zip or .tar.gz archive")
        if budget.files == 0:
            raise ArchiveError("the archive is empty")
        _hoist_single_folder(dest)
    except OSError as exc:  # e.g. a file and a folder of the same name
        shutil.rmtree(dest, ignore_errors=True)
        raise ArchiveError(f"the archive could not be unpacked: {exc}") from None
    except BaseException:
        shutil.rmtree(dest, ignore_errors=True)
        raise
