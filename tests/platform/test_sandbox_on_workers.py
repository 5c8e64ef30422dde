"""Issue 12: the sandbox capability is the workers' to decide. docker-compose.yml's web container is unprivileged
(no sandbox there, by design) and says `ARENA_SANDBOX=worker`: it accepts uploads; a worker that can't sandbox
fails the version with its reason and never runs the uploaded code. Also the health checks the compose file runs.

The unprivileged container is what this machine can't provide (tests run as root with a working sandbox), so
`arena.sandbox.check_available` is made to fail the way it fails there."""

import logging

import pytest
import yaml
from platform_helpers import ROOT, bot_files, upload, zip_bytes

from arena.sandbox import SandboxUnavailable

COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
NOT_ROOT = "the sandbox must run as root (to give each bot its own uid, cgroups and socket directory)"


@pytest.fixture
def no_sandbox_here(monkeypatch):
    """This process can't sandbox, like the compose file's web container (user arena, not privileged)."""
    import arena.sandbox

    def unavailable() -> None:
        raise SandboxUnavailable(NOT_ROOT)

    monkeypatch.setattr(arena.sandbox, "check_available", unavailable)


@pytest.fixture(autouse=True)
def forget_sandbox_verdict():
    """`unavailable_reason` is cached for the life of a worker: a verdict made here under a patched
    `check_available` must not outlive the test (later tests in this process need the real one)."""
    from arena_site.sandbox_mode import unavailable_reason

    unavailable_reason.cache_clear()
    yield
    unavailable_reason.cache_clear()


@pytest.fixture(autouse=True)
def storage(settings, tmp_path):
    settings.STORAGE_DIR = tmp_path
    return tmp_path


@pytest.fixture
def bot(make_user):
    from botregistry.models import Bot
    return Bot.objects.create(owner=make_user("owner"), name="mybot", game="thebes")


def test_web_with_sandbox_worker_accepts_uploads_without_a_sandbox_of_its_own(client_for, bot, settings,
                                                                               no_sandbox_here):
    from botregistry.models import BotVersion

    settings.ARENA_SANDBOX = COMPOSE["services"]["web"]["environment"]["ARENA_SANDBOX"]
    assert settings.ARENA_SANDBOX == "worker"
    response = upload(client_for(bot.owner), bot.pk, zip_bytes(bot_files()))
    assert response.status_code == 201, response.content
    assert BotVersion.objects.get(bot=bot).status == BotVersion.Status.PENDING


def test_web_with_sandbox_auto_and_no_sandbox_still_refuses_uploads(client_for, bot, settings, no_sandbox_here):
    """The old behaviour stays for a single host that runs web and bots alike (`manage.py up`)."""
    settings.ARENA_SANDBOX = "auto"
    response = upload(client_for(bot.owner), bot.pk, zip_bytes(bot_files()))
    assert response.status_code == 503 and "refuses uploads" in response.content.decode()


@pytest.mark.parametrize("mode", ["auto", "worker", "on"])
def test_a_worker_without_sandbox_fails_the_version_with_its_reason(client_for, bot, settings, no_sandbox_here,
                                                                    mode):
    """Whatever the worker's setting, uploaded code does not run unconfined, and its owner reads why."""
    from botregistry.models import BotVersion
    from botregistry.tasks import validate_version

    settings.ARENA_SANDBOX = "worker"
    assert upload(client_for(bot.owner), bot.pk, zip_bytes(bot_files())).status_code == 201
    version = BotVersion.objects.get(bot=bot)
    settings.ARENA_SANDBOX = mode  # now on the worker
    from arena_site.sandbox_mode import unavailable_reason
    unavailable_reason.cache_clear()
    assert validate_version(version.pk) == "failed"
    version.refresh_from_db()
    assert version.status == BotVersion.Status.FAILED
    assert "worker can't sandbox bots" in version.status_reason and "must run as root" in version.status_reason
    assert str(ROOT) not in version.status_reason


def test_worker_start_up_says_what_it_found(settings, caplog, monkeypatch):
    """Under the compose file's worker environment: the start-up log names the sandbox's state and why."""
    import arena.sandbox
    from arena_site.sandbox_mode import log_worker_sandbox, unavailable_reason

    settings.ARENA_SANDBOX = COMPOSE["services"]["worker"]["environment"]["ARENA_SANDBOX"]
    cgroup_v1 = "cgroup v1 controllers ['pids'] are not mounted"

    def unavailable() -> None:
        raise SandboxUnavailable(cgroup_v1)

    monkeypatch.setattr(arena.sandbox, "check_available", unavailable)
    unavailable_reason.cache_clear()
    with caplog.at_level(logging.INFO, logger="arena_site.sandbox_mode"):
        log_worker_sandbox()
    assert "sandbox unavailable: " + cgroup_v1 in caplog.text and "fails uploaded versions" in caplog.text

    settings.ARENA_SANDBOX = "on"
    unavailable_reason.cache_clear()
    caplog.clear()
    log_worker_sandbox()  # logs the error; never takes the worker down from a signal handler
    assert "ARENA_SANDBOX=on, but this worker can't sandbox bots: " + cgroup_v1 in caplog.text


def test_worker_start_up_on_this_host_finds_the_sandbox(settings, caplog):
    """The real check, on this machine (root, bubblewrap, cgroups): the log says which cgroup version it uses."""
    from arena.sandbox import cgroups
    from arena_site.sandbox_mode import log_worker_sandbox

    settings.ARENA_SANDBOX = COMPOSE["services"]["worker"]["environment"]["ARENA_SANDBOX"]
    with caplog.at_level(logging.INFO, logger="arena_site.sandbox_mode"):
        log_worker_sandbox()
    assert f"sandbox available: bots run confined (cgroup {'v2' if cgroups.is_v2() else 'v1'})" in caplog.text


# --- health checks (docker-compose.yml's healthcheck commands) -----------------------------------------------

def test_healthz_answers_the_probe_the_compose_healthcheck_sends(client, settings, db):
    from arena_site.health import web_request

    settings.ALLOWED_HOSTS = ["arena.example.org"]
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    request = web_request({"ARENA_ALLOWED_HOSTS": ".arena.example.org,www.arena.example.org"})
    assert request.full_url == "http://127.0.0.1:8000/healthz"
    headers = {name.lower(): value for name, value in request.header_items()}
    assert headers == {"host": "arena.example.org", "x-forwarded-proto": "https"}
    response = client.get("/healthz", HTTP_HOST=headers["host"], HTTP_X_FORWARDED_PROTO="https")
    assert response.status_code == 200 and response.content == b"ok\n"
    assert client.get("/healthz", HTTP_HOST="arena.example.org").status_code == 301  # why the header is sent
