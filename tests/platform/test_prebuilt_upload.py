"""A prebuilt program uploaded with mode 755 (zip or tar.gz) stays executable and validates; the same archive
checked locally with `arena bot check ARCHIVE` gives the same verdict; without the executable bit both refuse
it and say why. The program is the C++ kit's random bot, built once (it links against the sandbox's /usr)."""

import io
import stat
import tarfile
import zipfile
from pathlib import Path

import pytest
from platform_helpers import upload

CPP = Path(__file__).resolve().parents[2] / "bots" / "cpp" / "random"
MANIFEST = b'name = "prebuilt"\ngames = ["thebes"]\nruntime = "binary"\ncommand = ["./bot"]\n'


@pytest.fixture(scope="module")
def program() -> bytes:
    from arena import botbuild

    botbuild.ensure_built(CPP)
    return (CPP / "build" / "bot").read_bytes()


def _archive(kind: str, program: bytes, mode: int) -> bytes:
    buf = io.BytesIO()
    if kind == "zip":
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
            for name, data, m in (("bot.toml", MANIFEST, 0o644), ("bot", program, mode)):
                info = zipfile.ZipInfo(name)
                info.create_system = 3  # Unix: the mode is in external_attr
                info.external_attr = (stat.S_IFREG | m) << 16
                z.writestr(info, data)
    else:
        with tarfile.open(fileobj=buf, mode="w:gz") as t:
            for name, data, m in (("bot.toml", MANIFEST, 0o644), ("bot", program, mode)):
                info = tarfile.TarInfo(name)
                info.size, info.mode = len(data), m
                t.addfile(info, io.BytesIO(data))
    return buf.getvalue()


@pytest.mark.parametrize("kind", ["zip", "tar.gz"])
def test_a_prebuilt_executable_validates_and_the_local_check_agrees(kind, program, make_user, client_for,
                                                                   tmp_path, settings):
    from arena.botcheck import check_bot
    from botregistry.models import Bot, BotVersion
    from botregistry.tasks import validate_version

    settings.STORAGE_DIR = tmp_path / "storage"
    owner = make_user()
    client = client_for(owner)
    for mode, verdict in ((0o755, "ready"), (0o644, "failed")):
        data = _archive(kind, program, mode)
        bot = Bot.objects.create(owner=owner, name=f"prebuilt-{mode:o}", game="thebes")
        response = upload(client, bot.pk, data, filename=f"bot.{kind}")
        assert response.status_code == 201, response.content
        version = BotVersion.objects.get(pk=response.json()["id"])
        assert validate_version(version.pk) == verdict
        version.refresh_from_db()
        local = tmp_path / f"bot-{mode:o}.{kind}"
        local.write_bytes(data)
        report = check_bot(local, game="thebes")
        assert report.ok is (verdict == "ready"), report.log  # the platform and the local check agree
        if verdict == "failed":
            assert "not executable" in version.validation_log and "not executable" in report.problems[0]
        else:
            from botregistry.package_cache import local_package
            with local_package(version) as folder:  # as a worker gets it: from storage, into its cache
                assert stat.S_IMODE((folder / "bot").stat().st_mode) == 0o755
