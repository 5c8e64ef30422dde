"""A version whose build timed out (issue 14) fails with the reason "the build timed out", its owner's log names
the setting (ARENA_BUILD_TIMEOUT), and its owner — only its owner — can validate the same bytes again
(POST /api/versions/ID/revalidate/): the bot's build cache kept what the first build did, so the second goes
further. A version that failed for a reason of the bot itself cannot be revalidated (409).

The bot is a real Go bot (the Go kit's random bot) whose build script waits forever unless its build cache says
it ran before: a stand-in, without timing, for a cold compile that a warm cache makes fast."""

from __future__ import annotations

import pytest
from platform_helpers import ROOT, upload, zip_bytes

GO_RANDOM = ROOT / "bots" / "go" / "random"
# the first build marks the cache and overruns the limit; the next one finds the mark and builds
SLOW_FIRST = ('if [ -e "$ARENA_BUILD_CACHE/warm" ]; then exec make; fi\n'
              'touch "$ARENA_BUILD_CACHE/warm"; echo "compiling the world"; sleep 600\n')


@pytest.fixture(autouse=True)
def storage(settings, tmp_path, monkeypatch):
    settings.STORAGE_DIR = tmp_path
    return tmp_path


def go_bot(build_script: str) -> dict[str, bytes]:
    files = {name: (GO_RANDOM / name).read_bytes() for name in ("main.go", "Makefile")}
    files["bot.toml"] = (b'name = "my-go-bot"\ngames = ["thebes"]\nruntime = "binary"\ncommand = ["build/bot"]\n'
                         b'build = ["sh", "build.sh"]\n')
    files["build.sh"] = build_script.encode()
    return files


def test_a_timed_out_version_is_validated_again_by_its_owner_only(make_user, client_for, anon, monkeypatch):
    from botregistry.models import Bot, BotVersion
    from botregistry.tasks import validate_version

    owner, other = make_user(), make_user()
    client = client_for(owner)
    bot = Bot.objects.create(owner=owner, name="my-go-bot", game="thebes")
    response = upload(client, bot.pk, zip_bytes(go_bot(SLOW_FIRST)))
    assert response.status_code == 201, response.content
    version = BotVersion.objects.get(pk=response.json()["id"])
    sha = version.sha256

    monkeypatch.setenv("ARENA_BUILD_TIMEOUT", "5")  # the setting the worker builds with: overrun on purpose
    assert validate_version(version.pk) == "failed"
    monkeypatch.setenv("ARENA_BUILD_TIMEOUT", "600")  # ample for the warm build, however loaded the machine
    version.refresh_from_db()
    assert version.status == "failed" and version.status_reason == "the build timed out"
    assert "ARENA_BUILD_TIMEOUT" in version.validation_log and "compiling the world" in version.validation_log

    url = f"/api/versions/{version.pk}/revalidate/"
    assert anon.post(url).status_code in (401, 403)
    assert client_for(other).post(url).status_code == 403
    version.refresh_from_db()
    assert version.status == "failed"  # nobody else's request changed anything

    response = client.post(url)
    assert response.status_code == 202, response.content
    assert response.json()["status"] == "pending"
    assert client.post(url).status_code == 409  # pending now: not twice

    assert validate_version(version.pk) == "ready"
    version.refresh_from_db()
    assert version.status == "ready" and version.sha256 == sha  # the same bytes, validated again
    assert client.post(url).status_code == 409  # a ready version has nothing to revalidate


def test_a_version_that_failed_for_its_own_reason_cannot_be_revalidated(make_user, client_for):
    from botregistry.models import Bot, BotVersion
    from botregistry.tasks import validate_version

    owner = make_user()
    client = client_for(owner)
    bot = Bot.objects.create(owner=owner, name="broken-go-bot", game="thebes")
    response = upload(client, bot.pk, zip_bytes(go_bot('echo "main.go:1: syntax error"; exit 1\n')))
    version = BotVersion.objects.get(pk=response.json()["id"])
    assert validate_version(version.pk) == "failed"
    response = client.post(f"/api/versions/{version.pk}/revalidate/")
    assert response.status_code == 409
    assert "fix the bot and upload a new version" in response.json()["detail"]
    version.refresh_from_db()
    assert version.status == "failed" and version.status_reason == "the build failed"
