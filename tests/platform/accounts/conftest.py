"""A real OpenID Connect provider for the log-in tests: tests/oidc/server.mjs (npm's oidc-provider, installed by
scripts/install-oidc-provider) on a free port of 127.0.0.1, with one client (Arena) and the accounts a test
gives it."""

from __future__ import annotations

import json
import os
import queue
import shutil
import subprocess
import threading
import time
from pathlib import Path

import pytest

OIDC_DIR = Path(__file__).resolve().parents[2] / "oidc"


class OIDCProvider:
    def __init__(self, process: subprocess.Popen, issuer: str, client: dict):
        self.process, self.issuer, self.client = process, issuer, client

    def settings_app(self, provider_id: str = "testidp") -> dict:
        """What ARENA_OIDC_PROVIDERS makes of {"id": provider_id, ...} (arena_site.settings)."""
        return {"OAUTH_PKCE_ENABLED": True, "APPS": [{
            "provider_id": provider_id, "name": "Test IdP", "client_id": self.client["client_id"],
            "secret": self.client["client_secret"], "settings": {"server_url": self.issuer}}]}


@pytest.fixture
def oidc_provider(live_server):
    """start(accounts) → an OIDCProvider whose client may redirect to the live server's callback."""
    node = shutil.which("node")
    if node is None or not (OIDC_DIR / "node_modules" / "oidc-provider").is_dir():
        pytest.fail("the OpenID Connect provider is not installed: run scripts/install-oidc-provider "
                    "(make test does) with Node.js >= 20.19")
    started: list[subprocess.Popen] = []

    def start(accounts: dict, provider_id: str = "testidp") -> OIDCProvider:
        client = {"client_id": "arena-test", "client_secret": "arena-test-secret-0123456789abcdef",
                  "redirect_uris": [f"{live_server.url}/accounts/oidc/{provider_id}/login/callback/"]}
        env = {**os.environ, "OIDC_CLIENT": json.dumps(client), "OIDC_ACCOUNTS": json.dumps(accounts),
               "NODE_ENV": "test"}
        process = subprocess.Popen([node, str(OIDC_DIR / "server.mjs")], cwd=OIDC_DIR, env=env,
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        started.append(process)
        lines: queue.Queue[str] = queue.Queue()
        # a thread reads its output (select() on a pipe misses lines already in Python's buffer); it also keeps
        # the pipe drained for the provider's lifetime
        threading.Thread(target=lambda: [lines.put(line) for line in process.stdout], daemon=True).start()
        deadline = time.monotonic() + 60  # generous: Node's start on a loaded 2-core machine
        output = []
        while time.monotonic() < deadline and process.poll() is None:
            try:
                line = lines.get(timeout=1.0)
            except queue.Empty:
                continue
            output.append(line)
            if line.startswith("listening "):
                return OIDCProvider(process, line.split()[1], client)
        pytest.fail("the OpenID Connect provider did not start:\n" + "".join(output))

    yield start
    for process in started:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
