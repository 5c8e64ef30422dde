"""Production is safe by default: the settings docker-compose.yml runs with refuse to start without a secret key,
pass `manage.py check --deploy` with no warning, send the security headers, and only the worker runs as root.
Also the error pages a visitor sees with DEBUG off: the site's friendly page, never a traceback."""

from __future__ import annotations

import json
import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from platform_helpers import PLATFORM, ROOT

HOST = "arena.example.org"


def _clean_env(**extra: str) -> dict[str, str]:
    """This process's environment without any Arena, database, broker or settings variable, plus `extra`."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("ARENA_", "DATABASE_URL", "CELERY_", "DJANGO_SETTINGS_MODULE"))}
    env.update(extra, PYTHONPATH=os.pathsep.join([str(PLATFORM), str(ROOT)]))
    return env


def _compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def _interpolate(value: str, given: dict[str, str]) -> str:
    """docker compose's `${NAME}`, `${NAME:-default}` and `${NAME:?error}` with the variables in `given`; a
    required variable that is missing fails, as compose does."""
    def one(m: re.Match) -> str:
        name, op, arg = m.group(1), m.group(2), m.group(3)
        if given.get(name):
            return given[name]
        if op == ":?":
            raise LookupError(f"compose requires {name}: {arg}")
        return arg if op == ":-" else ""
    return re.sub(r"\$\{(\w+)(?:(:[-?])([^}]*))?\}", one, value)


def production_env(tmp_path: Path, **given: str) -> dict[str, str]:
    """The environment docker-compose.yml gives web, worker and beat, with the variables an operator puts in .env
    (`given`), and var/ in `tmp_path` instead of the /data volume."""
    env = {name: _interpolate(str(value), given)
           for name, value in _compose()["x-arena"]["environment"].items()}
    env.update(ARENA_VAR_DIR=str(tmp_path / "data"), ARENA_STORAGE_DIR=str(tmp_path / "data" / "storage"))
    return _clean_env(**env)


def operator_env() -> dict[str, str]:
    return {"ARENA_SECRET_KEY": secrets.token_urlsafe(50), "ARENA_ALLOWED_HOSTS": HOST}


def _manage(env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120)


# --- the compose file ---------------------------------------------------------------------------------------------

def test_compose_has_no_secret_key_and_no_host_wildcard_to_fall_back_on(tmp_path):
    env = _compose()["x-arena"]["environment"]
    assert re.fullmatch(r"\$\{ARENA_SECRET_KEY:\?[^}]+\}", env["ARENA_SECRET_KEY"])
    assert re.fullmatch(r"\$\{ARENA_ALLOWED_HOSTS:\?[^}]+\}", env["ARENA_ALLOWED_HOSTS"])
    assert env["ARENA_DEBUG"] == "0"
    with pytest.raises(LookupError, match="ARENA_SECRET_KEY"):
        production_env(tmp_path, ARENA_ALLOWED_HOSTS=HOST)


def test_only_the_worker_runs_as_root():
    dockerfile = (ROOT / "Dockerfile").read_text()
    users = re.findall(r"^USER (\S+)", dockerfile, re.M)
    assert users and users[-1] not in ("root", "0")  # the image's default user, so web and beat
    services = _compose()["services"]
    for name in ("web", "beat"):
        assert services[name].get("user", users[-1]) not in ("root", "0"), name
    # root in its container for the sandbox, with the capabilities it needs and no more (test_compose_file.py)
    worker = services["worker"]
    assert worker["user"] == "root" and not worker.get("privileged") and worker["cap_drop"] == ["ALL"]


# --- the settings --------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("secret", [None, ""])
def test_production_settings_without_a_secret_key_refuse_to_start(tmp_path, secret):
    env = production_env(tmp_path, **operator_env())
    env.pop("ARENA_SECRET_KEY")
    if secret is not None:
        env["ARENA_SECRET_KEY"] = secret
    result = _manage(env, "check")
    assert result.returncode != 0
    assert "ImproperlyConfigured: ARENA_SECRET_KEY is not set" in result.stderr
    assert not (tmp_path / "data" / "secret-key").exists()  # no key made up on the operator's behalf


def test_check_deploy_passes_with_no_warning_under_the_production_environment(tmp_path):
    result = _manage(production_env(tmp_path, **operator_env()), "check", "--deploy", "--fail-level", "WARNING")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout


PROBE = """
import json, django
from django.conf import settings
django.setup()
from django.test import Client
from django.test.utils import setup_test_environment
setup_test_environment()
settings.ALLOWED_HOSTS = [h for h in settings.ALLOWED_HOSTS if h != "testserver"]
client = Client(raise_request_exception=False)
ok = client.get("/no-such-page/", HTTP_HOST="%(host)s", secure=True)
plain = client.get("/no-such-page/", HTTP_HOST="%(host)s")
proxied = client.get("/no-such-page/", HTTP_HOST="%(host)s", HTTP_X_FORWARDED_PROTO="https")
forged = client.get("/no-such-page/", HTTP_HOST="evil.example", secure=True)
print(json.dumps({
    "debug": settings.DEBUG, "session_secure": settings.SESSION_COOKIE_SECURE,
    "csrf_secure": settings.CSRF_COOKIE_SECURE, "csrf_origins": settings.CSRF_TRUSTED_ORIGINS,
    "status": ok.status_code, "hsts": ok.headers.get("Strict-Transport-Security"),
    "xfo": ok.headers.get("X-Frame-Options"), "csp": ok.headers.get("Content-Security-Policy"),
    "plain": [plain.status_code, plain.headers.get("Location")], "proxied": proxied.status_code,
    "forged": forged.status_code,
}))
"""


def test_production_sends_the_security_headers_and_answers_only_its_host(tmp_path):
    env = production_env(tmp_path, **operator_env())
    env["DJANGO_SETTINGS_MODULE"] = "arena_site.settings"
    out = subprocess.run([sys.executable, "-c", PROBE % {"host": HOST}], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    s = json.loads(out.stdout.strip().splitlines()[-1])
    assert s["debug"] is False and s["session_secure"] and s["csrf_secure"]
    assert s["csrf_origins"] == [f"https://{HOST}"]
    assert s["status"] == 404
    assert s["hsts"] == "max-age=31536000; includeSubDomains; preload"
    assert s["xfo"] == "DENY" and s["csp"] == "frame-ancestors 'none'"
    assert s["plain"] == [301, f"https://{HOST}/no-such-page/"]  # plain HTTP is sent to https
    assert s["proxied"] == 404  # the TLS proxy's X-Forwarded-Proto: https counts as https
    assert s["forged"] == 400  # a Host header the site is not served under


# --- error pages with DEBUG off (the test settings run with DEBUG off, as production does) ----------------------

@pytest.mark.django_db
def test_a_missing_page_is_the_friendly_404_without_debug_details(client, settings):
    assert settings.DEBUG is False
    response = client.get("/no/such/<script>page/")
    assert response.status_code == 404
    page = response.content.decode()
    assert "Page not found" in page and "web/site.css" in page  # the site's look
    assert "<script>page" not in page  # the path is shown escaped
    for leak in ("Traceback", "URLconf", "DEBUG = True", "urlpatterns", "arena_site.urls"):
        assert leak not in page


@pytest.mark.django_db
def test_a_missing_api_url_is_a_json_404(client):
    response = client.get("/api/no-such-endpoint/")
    assert response.status_code == 404 and response.json() == {"detail": "Not found."}


def test_a_server_error_is_the_friendly_500_page_and_json_under_the_api(rf, settings):
    from django.urls import get_resolver

    from arena_site import errors

    resolver = get_resolver()
    assert resolver.resolve_error_handler(500) is errors.server_error
    assert resolver.resolve_error_handler(404) is errors.page_not_found
    page = errors.server_error(rf.get("/bots/1/"))
    assert page.status_code == 500
    html = page.content.decode()
    assert "Something went wrong on our side" in html and "web/site.css" in html and "Traceback" not in html
    api = errors.server_error(rf.get("/api/bots/1/"))
    assert api.status_code == 500 and json.loads(api.content)["detail"].startswith("Server error")


@pytest.mark.django_db
def test_static_files_are_served_with_debug_off(client):
    response = client.get("/static/web/site.css")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/css")
