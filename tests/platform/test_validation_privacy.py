"""Validation of an uploaded version (issue 9): what anyone can read of a failed version is one line of words
(the compiler's output and the bot's own output stay in the owner's log), nothing names a path of this server,
a build's refused output is not stored, and the smoke match cannot be recognised (fresh seed and seat)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from platform_helpers import bot_files, upload, zip_bytes

SECRET = "SECRET-STRATEGY-42"


@pytest.fixture(autouse=True)
def storage(settings, tmp_path):
    settings.STORAGE_DIR = tmp_path
    return tmp_path


@pytest.fixture
def owner(db):
    from django.contrib.auth import get_user_model
    return get_user_model().objects.create_user("owner", "", "pw-123456789")


@pytest.fixture
def client(owner):
    from rest_framework.test import APIClient
    client = APIClient()
    client.force_authenticate(owner)
    return client


@pytest.fixture
def anon():
    from rest_framework.test import APIClient
    return APIClient()


def binary_bot(build_script: str, source: str = "int main() { return 0; }\n") -> dict[str, bytes]:
    toml = ('name = "cpp-bot"\ngames = ["thebes"]\nruntime = "binary"\ncommand = ["out/bot"]\n'
            'build = ["sh", "build.sh"]\n')
    return {"bot.toml": toml.encode(), "build.sh": build_script.encode(), "bot.cpp": source.encode()}


def uploaded_and_validated(client, owner, files: dict[str, bytes], name: str = "mybot"):
    from botregistry.models import Bot, BotVersion
    from botregistry.tasks import validate_version

    bot = Bot.objects.create(owner=owner, name=name, game="thebes")
    response = upload(client, bot.pk, zip_bytes(files))
    assert response.status_code == 201, response.content
    version_id = response.json()["id"]
    validate_version(version_id)  # the Celery task, run here
    return bot, BotVersion.objects.get(pk=version_id)


def public_text(anon, bot) -> str:
    """Everything anyone can read about the bot and its versions: API fields and the bot's page."""
    parts = [anon.get(f"/api/bots/{bot.pk}/").content.decode(),
             anon.get(f"/api/bots/{bot.pk}/versions/").content.decode(),
             anon.get(f"/bots/{bot.pk}/").content.decode()]
    for version in bot.versions.all():
        parts.append(anon.get(f"/api/versions/{version.pk}/").content.decode())
    return "\n".join(parts)


def test_a_failing_builds_compiler_output_stays_in_the_owners_log(client, anon, owner, storage, caplog):
    source = f"// {SECRET}\nint main() {{ return 0 }} // {SECRET}\n"
    with caplog.at_level("WARNING", logger="arena.platform"):
        bot, version = uploaded_and_validated(client, owner, binary_bot("mkdir -p out && g++ -o out/bot bot.cpp\n",
                                                                        source))
    assert version.status == "failed"
    assert version.status_reason == "the build failed"
    # the server's log says which version failed and why, in one line (an operator reads it, not the owner's log)
    said = [r.getMessage() for r in caplog.records if r.getMessage().startswith("validation of ")]
    assert len(said) == 1 and "failed: the build failed (seed " in said[0] and "\n" not in said[0], said
    public = public_text(anon, bot)
    assert "the build failed" in public and SECRET not in public and "error:" not in public
    mine = client.get(f"/api/versions/{version.pk}/").json()
    assert SECRET in mine["validation_log"] and "error: expected" in mine["validation_log"]
    for text in (mine["validation_log"], mine["status_reason"]):
        assert str(storage) not in text and str(Path(__file__).resolve().parents[2]) not in text


def test_a_build_writing_300_mb_is_refused_and_nothing_of_it_is_stored(client, owner, storage):
    script = "mkdir -p out && printf '#!/bin/sh\\n' > out/bot && chmod +x out/bot && head -c 300M /dev/zero > big\n"
    bot, version = uploaded_and_validated(client, owner, binary_bot(script))
    assert version.status == "failed" and version.status_reason == "the build's output was refused"
    assert "more than 200 MB" in version.validation_log
    # nothing of the build is kept: no package stored, the validation's working copy removed
    assert version.package_hash == "" and not (storage / "packages").exists()
    assert not [p for p in storage.rglob("*") if p.is_file() and p.name != "archive.zip"
                and "build-cache" not in p.parts]  # (the build cache is the compiler's, kept per bot)


def test_an_archive_changed_in_storage_after_the_upload_fails_validation(client, owner):
    from botregistry.models import Bot, BotVersion
    from botregistry.tasks import validate_version

    bot = Bot.objects.create(owner=owner, name="mybot", game="thebes")
    version = BotVersion.objects.get(pk=upload(client, bot.pk, zip_bytes(bot_files())).json()["id"])
    files = bot_files()
    files["bot.toml"] = files["bot.toml"].replace(b'command = ["python", "bot.py"]', b'command = ["python", "x.py"]')
    version.archive_file.write_bytes(zip_bytes(files))  # what validation runs must be what was checked
    assert validate_version(version.pk) == "failed"
    version.refresh_from_db()
    assert version.status_reason == "the uploaded archive in storage is not the one uploaded (its hash differs)"


def test_the_hosts_own_trouble_is_said_without_its_details(client, owner, monkeypatch):
    import arena.botcheck
    from botregistry.models import Bot, BotVersion
    from botregistry.tasks import HOST_TROUBLE, validate_version

    def broken(*args, **kwargs):
        raise RuntimeError("/srv/arena/secret/runtime is missing")
    monkeypatch.setattr(arena.botcheck, "check_bot", broken)
    bot = Bot.objects.create(owner=owner, name="mybot", game="thebes")
    version = BotVersion.objects.get(pk=upload(client, bot.pk, zip_bytes(bot_files())).json()["id"])
    assert validate_version(version.pk) == "error"
    version.refresh_from_db()
    assert version.status_reason == HOST_TROUBLE and "/srv" not in version.validation_log


def smoke(version) -> tuple[int, int]:
    found = re.search(r"seed (\d+), your bot in seat (\d+)", version.validation_log)
    assert found, version.validation_log
    return int(found[1]), int(found[2])


def test_two_validations_use_fresh_seeds_and_seats(client, owner, anon):
    """Two validations of the same bot: different seeds (63-bit draws: equal with probability 2^-63)."""
    _, first = uploaded_and_validated(client, owner, bot_files(), "first")
    _, second = uploaded_and_validated(client, owner, bot_files(), "second")
    assert first.status == second.status == "ready", (first.status_reason, second.status_reason)
    (seed1, seat1), (seed2, seat2) = smoke(first), smoke(second)
    assert seed1 != seed2 and {seat1, seat2} <= {0, 1}
    assert str(seed1) not in json.dumps(anon.get(f"/api/versions/{first.pk}/").json())  # the owner's log only


def test_the_smoke_seat_and_seed_come_from_secrets():
    """Every seat is drawn, not only seat 0: over 128 draws each of 2 seats is missed with probability 2^-128."""
    from arena.botcheck import smoke_setup

    draws = [smoke_setup(2) for _ in range(128)]
    assert {seat for _, seat in draws} == {0, 1}
    assert len({seed for seed, _ in draws}) == 128 and all(0 <= seed < 2 ** 63 for seed, _ in draws)
    assert {seat for _, seat in (smoke_setup(4) for _ in range(256))} == {0, 1, 2, 3}  # miss: < 2^-104


def test_the_migration_moves_old_detailed_reasons_to_the_owners_log(owner):
    import importlib

    from django.apps import apps

    from botregistry.models import Bot, BotVersion

    migration = importlib.import_module("botregistry.migrations.0003_public_reasons_in_words")
    bot = Bot.objects.create(owner=owner, name="old", game="thebes")
    detailed = f"the build (make) failed: exited with code 2\nfirst error: bot.cpp:1: {SECRET}"
    failed = BotVersion.objects.create(bot=bot, number=1, sha256="a", package_dir="x", status="failed",
                                       status_reason=detailed, validation_log="manifest ok")
    worded = BotVersion.objects.create(bot=bot, number=2, sha256="b", package_dir="x", status="failed",
                                       status_reason="the build failed")
    suspended = BotVersion.objects.create(
        bot=bot, number=3, sha256="c", package_dir="x", status="suspended",
        status_reason=f"suspended: crashed or timed out in 6 of its last 10 matches; most recent (crash, match 7): "
                      f"StartMatch failed: {SECRET}. Upload a fixed version to play again.")
    migration.reasons_in_words(apps, None)
    for v in (failed, worded, suspended):
        v.refresh_from_db()
    assert failed.status_reason == migration.FAILED_IN_WORDS and detailed in failed.validation_log
    assert worded.status_reason == "the build failed"
    assert suspended.status_reason == ("suspended: crashed or timed out in 6 of its last 10 matches; most recent: "
                                       "crash in match 7. Upload a fixed version to play again.")
