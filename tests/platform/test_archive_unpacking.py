"""The archive unpacker on its own: whatever names an archive holds, nothing lands outside the target folder."""

import io
import os
import tarfile
import zipfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from botregistry.archive import ArchiveError, unpack

segment = st.sampled_from(["..", ".", "", "a", "b", "bot.toml", "/", "\\", "C:", "~", "x" * 20, "ü"])
names = st.lists(segment, min_size=1, max_size=5).map("/".join).filter(bool)  # zipfile cannot write ""


def archive(kind: str, members: list[str]) -> bytes:
    buf = io.BytesIO()
    if kind == "zip":
        with zipfile.ZipFile(buf, "w") as z:
            for i, name in enumerate(members):
                z.writestr(name, f"file {i}")
    else:
        with tarfile.open(fileobj=buf, mode="w:gz") as t:
            for i, name in enumerate(members):
                data = f"file {i}".encode()
                info = tarfile.TarInfo(name)
                info.size = len(data)
                t.addfile(info, io.BytesIO(data))
    return buf.getvalue()


@pytest.mark.filterwarnings("ignore:Duplicate name")  # duplicates are part of what is being tried
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(kind=st.sampled_from(["zip", "tar"]), members=st.lists(names, min_size=1, max_size=4))
def test_nothing_escapes_the_target(tmp_path_factory, kind, members):
    base = tmp_path_factory.mktemp("unpack")
    dest = base / "inside" / "pkg"
    try:
        unpack(archive(kind, members), dest, max_bytes=10_000, max_files=10)
    except ArchiveError:
        assert not dest.exists()  # refused: nothing left
    written = [Path(os.path.realpath(os.path.join(root, f))) for root, _, files in os.walk(base) for f in files]
    assert all(dest in path.parents for path in written), written


def test_exactly_the_files_with_their_contents(tmp_path):
    unpack(archive("zip", ["bot.toml", "src/main.py", "./src/util.py"]), tmp_path / "p", max_bytes=1000,
           max_files=5)
    got = {p.relative_to(tmp_path / "p").as_posix(): p.read_text() for p in (tmp_path / "p").rglob("*")
           if p.is_file()}
    assert got == {"bot.toml": "file 0", "src/main.py": "file 1", "src/util.py": "file 2"}


def test_a_file_listed_twice_is_refused(tmp_path):
    with pytest.raises(ArchiveError, match="same file twice"):
        unpack(archive("tar", ["bot.toml", "bot.toml"]), tmp_path / "p", max_bytes=1000, max_files=5)
    assert not (tmp_path / "p").exists()
