"""Identity providers come from the environment (arena_site.settings): ARENA_GITHUB_CLIENT_ID/SECRET and
ARENA_OIDC_PROVIDERS; a malformed list stops the start with a message rather than a half-configured log-in."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from platform_helpers import PLATFORM, ROOT

PROBE = """
import json
from django.conf import settings
print(json.dumps(settings.SOCIALACCOUNT_PROVIDERS))
"""


def run(env: dict[str, str]) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("ARENA_", "DATABASE_URL", "CELERY_"))}
    clean.update(env, DJANGO_SETTINGS_MODULE="arena_site.settings",
                 PYTHONPATH=os.pathsep.join([str(PLATFORM), str(ROOT)]))
    return subprocess.run([sys.executable, "-c", PROBE], env=clean, capture_output=True, text=True, cwd=ROOT,
                          check=False)


def test_no_provider_unless_configured(tmp_path):
    assert json.loads(run({"ARENA_VAR_DIR": str(tmp_path)}).stdout.splitlines()[-1]) == {}


def test_github_and_openid_connect_providers_from_the_environment(tmp_path):
    oidc = [{"id": "corp", "name": "Corp SSO", "server_url": "https://sso.example.org", "client_id": "cid",
             "secret": "csecret"}]
    got = json.loads(run({"ARENA_VAR_DIR": str(tmp_path), "ARENA_GITHUB_CLIENT_ID": "gh-id",
                          "ARENA_GITHUB_SECRET": "gh-secret", "ARENA_OIDC_PROVIDERS": json.dumps(oidc)}
                         ).stdout.splitlines()[-1])
    assert got["github"]["APPS"] == [{"client_id": "gh-id", "secret": "gh-secret"}]
    assert got["openid_connect"]["APPS"] == [{"provider_id": "corp", "name": "Corp SSO", "client_id": "cid",
                                              "secret": "csecret",
                                              "settings": {"server_url": "https://sso.example.org"}}]
    assert got["openid_connect"]["OAUTH_PKCE_ENABLED"] is True


def test_a_malformed_provider_list_stops_the_start_saying_why(tmp_path):
    for bad in ("not json", '[{"id": "x"}]', '{"id": "x"}'):
        done = run({"ARENA_VAR_DIR": str(tmp_path), "ARENA_OIDC_PROVIDERS": bad})
        assert done.returncode != 0 and "ARENA_OIDC_PROVIDERS must be a JSON list" in done.stderr, bad


def test_the_github_button_sends_the_browser_to_github_with_arenas_callback(client, settings, db):
    """GitHub is configured like any provider; its log-in starts with a redirect to GitHub's authorize page (the
    rest of the flow is the same code path the OpenID Connect test runs end to end)."""
    from urllib.parse import parse_qs, urlsplit

    settings.SOCIALACCOUNT_PROVIDERS = {"github": {"SCOPE": ["read:user", "user:email"],
                                                   "APPS": [{"client_id": "gh-id", "secret": "gh-secret"}]}}
    page = client.get("/login/").content.decode()
    assert 'action="/accounts/github/login/' in page
    assert client.get("/accounts/github/login/").status_code == 200, "a GET only asks to confirm (no CSRF login)"
    started = client.post("/accounts/github/login/?next=/me/")
    assert started.status_code == 302
    target = urlsplit(started["Location"])
    query = parse_qs(target.query)
    assert (target.netloc, target.path) == ("github.com", "/login/oauth/authorize")
    assert query["client_id"] == ["gh-id"] and query["state"][0]
    assert query["redirect_uri"] == ["http://testserver/accounts/github/login/callback/"]
    assert set(query["scope"][0].split()) == {"read:user", "user:email"}
