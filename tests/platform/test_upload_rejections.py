"""Uploads: a good archive becomes a pending version; every bad one is a 400 with a clear message and leaves
nothing behind (no version row, no files)."""

import io
import os
import stat
import tarfile
import zipfile
from pathlib import Path

import pytest
from django.conf import settings
from platform_helpers import bot_files, tar_gz_bytes, upload, zip_bytes


@pytest.fixture(autouse=True)
def storage(settings, tmp_path):
    settings.STORAGE_DIR = tmp_path
    return tmp_path


@pytest.fixture
def owner(make_user):
    return make_user("owner")


@pytest.fixture
def bot(owner):
    from botregistry.models import Bot
    return Bot.objects.create(owner=owner, name="mybot", game="thebes")


@pytest.fixture
def client(client_for, owner):
    return client_for(owner)


def stored_files() -> list[Path]:
    root = Path(settings.STORAGE_DIR)
    return [p for sub in ("bots", "staging") for p in (root / sub).rglob("*") if p.is_file()]


def assert_rejected(response, *words, status=400):
    assert response.status_code == status, response.content
    message = response.json()["detail"]
    for word in words:
        assert word in message, message
    from botregistry.models import BotVersion
    assert BotVersion.objects.count() == 0
    assert stored_files() == []


def test_good_zip_becomes_a_pending_version_with_its_hashes(client, bot):
    from arena.botpkg import package_sha256
    from botregistry.models import BotVersion
    from botregistry.package_cache import working_copy

    response = upload(client, bot.pk, zip_bytes(bot_files()))
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["status"] == "pending" and body["number"] == 1 and body["runtime"] == "python"
    assert body["manifest"]["games"] == ["thebes"]
    version = BotVersion.objects.get()
    assert version.archive_file.exists() and version.package_dir == ""  # the archive is stored, not a folder
    with working_copy(version) as folder:  # what validation unpacks from storage
        assert version.sha256 == package_sha256(folder) == body["sha256"] and (folder / "bot.toml").exists()
    # the same package again is refused: versions are immutable and distinct
    again = upload(client, bot.pk, tar_gz_bytes(bot_files()), "bot.tar.gz")
    assert again.status_code == 400 and "identical to version 1" in again.json()["detail"]


def test_tar_gz_in_one_top_folder_is_accepted(client, bot):
    files = {f"mybot/{name}": data for name, data in bot_files().items()}
    response = upload(client, bot.pk, tar_gz_bytes(files), "bot.tar.gz")
    assert response.status_code == 201, response.content


def test_too_large_upload(client, bot, settings):
    settings.ARENA_UPLOAD_MAX_BYTES = 1000
    files = {**bot_files(), "blob.bin": os.urandom(5000)}
    assert_rejected(upload(client, bot.pk, zip_bytes(files)), "limited to")
    settings.ARENA_UPLOAD_MAX_BYTES = 1024 * 1024
    huge = {**bot_files(), "blob.bin": os.urandom(2 * 1024 * 1024)}  # refused by its Content-Length
    assert_rejected(upload(client, bot.pk, zip_bytes(huge)), "limited to 1 MB")


def zip_with(name: str, data: bytes = b"x", mode: int | None = None) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as archive:
        for n, d in bot_files().items():
            archive.writestr(n, d)
        info = zipfile.ZipInfo(name)
        if mode is not None:
            info.external_attr = mode << 16
        archive.writestr(info, data, compress_type=zipfile.ZIP_DEFLATED)
    return buf.getvalue()


def tar_with(member: tarfile.TarInfo, data: bytes = b"") -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as archive:
        for n, d in bot_files().items():
            info = tarfile.TarInfo(n)
            info.size = len(d)
            archive.addfile(info, io.BytesIO(d))
        member.size = len(data) if member.isfile() else 0
        archive.addfile(member, io.BytesIO(data) if member.isfile() else None)
    return buf.getvalue()


@pytest.mark.parametrize("name", ["../evil.py", "lib/../../evil.py", "..\\evil.py"])
def test_dot_dot_paths(client, bot, name):
    assert_rejected(upload(client, bot.pk, zip_with(name)), "'..'")
    assert_rejected(upload(client, bot.pk, tar_with(tarfile.TarInfo(name), b"x"), "b.tar.gz"), "'..'")


@pytest.mark.parametrize("name", ["/etc/cron.d/evil", "C:/evil.py"])
def test_absolute_paths(client, bot, name):
    assert_rejected(upload(client, bot.pk, zip_with(name)), "absolute path")
    assert_rejected(upload(client, bot.pk, tar_with(tarfile.TarInfo(name), b"x"), "b.tar.gz"), "absolute path")


def test_symlinks(client, bot):
    assert_rejected(upload(client, bot.pk, zip_with("link", b"/etc/passwd", stat.S_IFLNK | 0o777)), "link")
    link = tarfile.TarInfo("link")
    link.type, link.linkname = tarfile.SYMTYPE, "/etc/passwd"
    assert_rejected(upload(client, bot.pk, tar_with(link), "b.tar.gz"), "link")
    hard = tarfile.TarInfo("hard")
    hard.type, hard.linkname = tarfile.LNKTYPE, "bot.toml"
    assert_rejected(upload(client, bot.pk, tar_with(hard), "b.tar.gz"), "link")


def test_device_files(client, bot):
    dev = tarfile.TarInfo("dev")
    dev.type = tarfile.CHRTYPE
    assert_rejected(upload(client, bot.pk, tar_with(dev), "b.tar.gz"), "not a regular file")


def test_zip_bomb_by_size(client, bot, settings):
    settings.ARENA_UNPACKED_MAX_BYTES = 1024 * 1024
    bomb = zip_with("zeros.bin", bytes(20 * 1024 * 1024))  # 20 MB of zeros compress to ~20 KB
    assert len(bomb) < 100_000
    assert_rejected(upload(client, bot.pk, bomb), "zip bomb")
    assert_rejected(upload(client, bot.pk, tar_with(tarfile.TarInfo("zeros.bin"), bytes(20 * 1024 * 1024)),
                           "b.tar.gz"), "zip bomb")


def test_zip_bomb_with_lying_headers(client, bot, settings):
    """A zip whose central directory understates the size is stopped while decompressing."""
    settings.ARENA_UNPACKED_MAX_BYTES = 1024 * 1024
    data = bytearray(zip_with("zeros.bin", bytes(5 * 1024 * 1024)))
    # patch the declared uncompressed size (central directory, offset 24 of the entry) to 10 bytes
    cd = data.rfind(b"PK\x01\x02")
    data[cd + 24:cd + 28] = (10).to_bytes(4, "little")
    response = upload(client, bot.pk, bytes(data))
    assert response.status_code == 400
    from botregistry.models import BotVersion
    assert BotVersion.objects.count() == 0 and stored_files() == []


def test_too_many_files(client, bot, settings):
    settings.ARENA_UNPACKED_MAX_FILES = 50
    files = {**bot_files(), **{f"data/{i}.txt": b"x" for i in range(60)}}
    assert_rejected(upload(client, bot.pk, zip_bytes(files)), "more than 50 files")


def test_missing_manifest(client, bot):
    files = {k: v for k, v in bot_files().items() if k != "bot.toml"}
    assert_rejected(upload(client, bot.pk, zip_bytes(files)), "no bot.toml")


def test_invalid_manifest(client, bot):
    assert_rejected(upload(client, bot.pk, zip_bytes({**bot_files(), "bot.toml": b"name = [unclosed"})),
                    "bot.toml is invalid", "TOML")
    response = upload(client, bot.pk, zip_bytes({**bot_files(), "bot.toml": b'name = "x"\n'}))
    assert_rejected(response, "bot.toml is invalid", "games")
    assert str(settings.STORAGE_DIR) not in response.json()["detail"]  # no server paths in messages


def test_unsupported_runtime(client, bot):
    files = bot_files()
    files["bot.toml"] = files["bot.toml"].replace(b'runtime = "python"', b'runtime = "cobol"')
    assert_rejected(upload(client, bot.pk, zip_bytes(files)), "runtime", "cobol")


def test_manifest_for_another_game(client, bot):
    assert_rejected(upload(client, bot.pk, zip_bytes(bot_files(game="minos"))), "registered for thebes")


def test_not_an_archive(client, bot):
    assert_rejected(upload(client, bot.pk, b"print('hello')\n", "bot.py"), "not a .zip or .tar.gz")
    assert_rejected(upload(client, bot.pk, b"PK\x03\x04garbage"), "damaged")
    assert_rejected(upload(client, bot.pk, b"\x1f\x8bgarbage", "b.tar.gz"), "damaged")


def test_empty_archive(client, bot):
    assert_rejected(upload(client, bot.pk, zip_bytes({})), "empty")


def test_missing_file_field(client, bot):
    response = client.post(f"/api/bots/{bot.pk}/versions/", {"file": "nope"}, format="multipart")
    assert response.status_code == 400 and "archive" in response.json()


def test_without_sandbox_uploads_are_refused_clearly(client, bot, settings):
    settings.ARENA_SANDBOX = "off"
    assert_rejected(upload(client, bot.pk, zip_bytes(bot_files())), "without the bot sandbox",
                    "refuses uploads", status=503)


def test_upload_larger_than_memory_buffer_goes_through_a_temporary_file(client, bot):
    files = {**bot_files(), "model.bin": os.urandom(3 * 1024 * 1024)}  # > Django's 2.5 MB in-memory limit
    response = upload(client, bot.pk, tar_gz_bytes(files), "bot.tar.gz")
    assert response.status_code == 201, response.content
    from botregistry.models import BotVersion
    from botregistry.package_cache import working_copy
    version = BotVersion.objects.get()
    with working_copy(version) as folder:
        assert (folder / "model.bin").stat().st_size == 3 * 1024 * 1024
    assert version.archive_size > 3 * 1024 * 1024 and version.archive_path.endswith(".tar.gz")


# --- issue 9: archives and manifests that used to cost the host, or answer 500 -------------------------------

def test_a_small_archive_of_30000_folders_is_refused_quickly(client, bot):
    """Folders count as entries: a few KB of tar.gz listing 30,000 of them stops at the limit, without
    expanding them all (deflate cannot pack 15 MB of tar headers into less than ~15 KB)."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz", compresslevel=9) as archive:
        for n, d in bot_files().items():
            info = tarfile.TarInfo(n)
            info.size = len(d)
            archive.addfile(info, io.BytesIO(d))
        folder = tarfile.TarInfo("d")
        folder.type, folder.mode = tarfile.DIRTYPE, 0o755
        for _ in range(30_000):
            archive.addfile(folder)
    assert len(buf.getvalue()) < 100_000
    assert_rejected(upload(client, bot.pk, buf.getvalue(), "b.tar.gz"), "more than 2000 files and folders")


def test_a_zip_listing_30000_folders_is_refused_by_its_central_directory(client, bot):
    files = {**bot_files(), **{f"d{i}/": b"" for i in range(30_000)}}
    assert_rejected(upload(client, bot.pk, zip_bytes(files)), "more than 2000 files and folders")


def test_deeply_nested_arrays_in_bot_toml_are_a_400(client, bot):
    files = bot_files()
    nested = b"x = " + b"[" * 20_000 + b"]" * 20_000 + b"\n"  # tomllib: RecursionError, a 500 before
    assert len(nested) < 64 * 1024
    assert_rejected(upload(client, bot.pk, zip_bytes({**files, "bot.toml": files["bot.toml"] + nested})),
                    "bot.toml is invalid", "nested too deeply")
    huge = files["bot.toml"] + b"# " + b"x" * 100_000 + b"\n"
    assert_rejected(upload(client, bot.pk, zip_bytes({**files, "bot.toml": huge})), "bot.toml is invalid", "64 KB")


def test_a_tar_member_whose_name_is_not_utf8_is_a_400(client, bot):
    raw = tarfile.TarInfo("x")
    raw.name = b"bad-\xff\xfe.py".decode("utf-8", "surrogateescape")
    data = tar_with(raw, b"x")
    assert b"bad-\xff\xfe.py" in __import__("gzip").decompress(data)
    assert_rejected(upload(client, bot.pk, data, "b.tar.gz"), "not UTF-8")


def test_a_zip_member_flagged_utf8_whose_name_is_not_is_a_400(client, bot):
    data = bytearray(zip_with("bad-XX.py"))
    for sig in (b"PK\x03\x04", b"PK\x01\x02"):  # local header and central directory both name the file
        at = data.rfind(sig)
        name_at = data.find(b"bad-XX.py", at)
        data[name_at + 4:name_at + 6] = b"\xff\xfe"
        flags_at = at + (6 if sig == b"PK\x03\x04" else 8)
        flags = int.from_bytes(data[flags_at:flags_at + 2], "little") | 0x800
        data[flags_at:flags_at + 2] = flags.to_bytes(2, "little")
    assert_rejected(upload(client, bot.pk, bytes(data)), "not UTF-8")


def test_a_member_with_control_characters_in_its_name_is_refused(client, bot):
    assert_rejected(upload(client, bot.pk, zip_with("evil\nname.py")), "control character")


def test_a_pax_header_bomb_is_refused_before_it_is_read(client, bot):
    """A pax header's payload is read into memory whole by tarfile: 20 MB of it is refused by its size."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz", format=tarfile.PAX_FORMAT) as archive:
        for n, d in bot_files().items():
            info = tarfile.TarInfo(n)
            info.size = len(d)
            archive.addfile(info, io.BytesIO(d))
        info = tarfile.TarInfo("big.txt")
        info.pax_headers = {"comment": "x" * (20 * 1024 * 1024)}
        archive.addfile(info, io.BytesIO(b""))
    assert_rejected(upload(client, bot.pk, buf.getvalue(), "b.tar.gz"), "header of")


def test_unpacking_has_a_time_bound(storage):
    from botregistry.archive import ArchiveError, unpack

    with pytest.raises(ArchiveError, match="took more than 0 s to unpack"):
        unpack(zip_bytes(bot_files()), storage / "p", max_bytes=1 << 20, max_files=100, max_seconds=0)
    assert not (storage / "p").exists()


@pytest.mark.parametrize("maker", [zip_bytes, tar_gz_bytes])
def test_conflicting_members_are_refused_without_server_paths(client, bot, maker):
    for files in ({**bot_files(), "lib": b"x", "lib/a.py": b"y"}, {**bot_files(), "a/b": b"x", "a": b"y"}):
        response = upload(client, bot.pk, maker(files), "b.zip" if maker is zip_bytes else "b.tar.gz")
        assert_rejected(response, "same file twice, or a file and a folder of the same name")
        assert str(settings.STORAGE_DIR) not in response.json()["detail"]


@pytest.mark.parametrize("word", ["command", "build"])
def test_a_manifest_program_never_probes_the_host(client, bot, word):
    """An absolute path is refused from its text alone: the answer for a host file that exists is the answer for
    one that does not, and names no other path."""
    answers = []
    for program in ("/etc/passwd", "/no/such/file"):
        files = bot_files()
        toml = files["bot.toml"].decode()
        toml = (toml.replace('command = ["python"', f'command = ["{program}"')
                if word == "command" else toml + f'build = ["{program}"]\n')
        response = upload(client, bot.pk, zip_bytes({**files, "bot.toml": toml.encode()}))
        assert_rejected(response, "bot.toml is invalid", "absolute path")
        answers.append(response.json()["detail"].replace(program, "PROGRAM"))
        assert str(settings.STORAGE_DIR) not in response.json()["detail"]
    assert answers[0] == answers[1]
    files = bot_files()
    toml = files["bot.toml"].replace(b'command = ["python"', b'command = ["../../../usr/bin/python3"')
    assert_rejected(upload(client, bot.pk, zip_bytes({**files, "bot.toml": toml})), "inside your folder")


# --- issue 22: folders a path implies, and paths deep enough to exhaust a recursion ----------------------------

def deep_tar(paths: list[str]) -> bytes:
    """A .tar.gz of the bot's files and of empty files at `paths`, listing none of their folders."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz", compresslevel=9, format=tarfile.PAX_FORMAT) as archive:
        for name, data in {**bot_files(), **dict.fromkeys(paths, b"")}.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def test_folders_a_path_implies_count_as_entries(client, bot):
    """The attack of issue 22: 100 empty files 45 folders deep in an archive of under a few KB. Unpacking makes
    4,500 folders (and the stored package lists them all, which the workers' limit refused after the version was
    ready); they count at upload now."""
    paths = ["/".join([f"f{n}"] + ["d"] * 44 + ["x"]) for n in range(100)]
    data = deep_tar(paths)
    assert len(data) < 10_000
    assert_rejected(upload(client, bot.pk, data, "b.tar.gz"), "more than 2000 files and folders")


def test_a_zip_implying_30000_folders_is_refused_from_its_listing(client, bot):
    """1,000 files each 30 folders deep: 30,000 folders, which took a 35 s request to create before the 10 s limit
    answered; now counted from the zip's listing, before anything is written."""
    files = {**bot_files(), **{"/".join([f"f{n}"] + ["d"] * 29 + ["x"]): b"" for n in range(1000)}}
    assert_rejected(upload(client, bot.pk, zip_bytes(files)), "more than 2000 files and folders")


def test_a_path_1000_folders_deep_is_a_400_not_a_500(client, bot):
    """Path.mkdir(parents=True), shutil.rmtree and os.walk recurse once per folder: a 1,000-deep path was a
    RecursionError, a 500. Deeper than a build's output may nest (64) is refused, as it is there; 64 is fine."""
    assert_rejected(upload(client, bot.pk, deep_tar(["/".join(["d"] * 1000 + ["x"])]), "b.tar.gz"),
                    "more than 64 folders deep")
    response = upload(client, bot.pk, deep_tar(["/".join(["d"] * 64 + ["x"])]), "b.tar.gz")
    assert response.status_code == 201, response.content
    from botregistry.models import BotVersion
    from botregistry.package_cache import working_copy

    with working_copy(BotVersion.objects.get()) as folder:
        assert (folder / ("d/" * 64) / "x").is_file()


def test_a_path_too_long_for_the_host_is_a_400(client, bot):
    response = upload(client, bot.pk, deep_tar(["/".join(["d" * 200] * 30 + ["x"])]), "b.tar.gz")
    assert_rejected(response, "could not be unpacked")
