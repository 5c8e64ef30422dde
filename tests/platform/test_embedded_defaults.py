"""Embedded defaults (`make up`): the secret key made once and kept private in var/, and the host names the web
server answers derived from the address it listens on."""

from __future__ import annotations

import os
import stat
import subprocess
import sys

import pytest
from django.core.exceptions import ImproperlyConfigured
from platform_helpers import PLATFORM, ROOT

from arena_site import embedded


def _mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_the_secret_key_is_made_once_random_and_owner_only(tmp_path):
    var = tmp_path / "var"
    key = embedded.secret_key(var)
    assert len(key) >= 50 and len(set(key)) >= 5  # what Django's check --deploy asks of a key
    assert _mode(var) == 0o700 and _mode(var / "secret-key") == 0o600
    assert embedded.secret_key(var) == key  # kept: the next start signs with the same key
    assert embedded.secret_key(tmp_path / "other") != key
    assert [p.name for p in var.iterdir()] == ["secret-key"]  # no temporary file left behind


def test_processes_starting_at_once_all_get_the_same_key(tmp_path):
    """Web server, worker and beat start together on a fresh var/: none may end up with a key of its own."""
    var = tmp_path / "var"
    code = f"from arena_site.embedded import secret_key; print(secret_key({str(var)!r}))"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(PLATFORM), str(ROOT)])}
    procs = [subprocess.Popen([sys.executable, "-c", code], env=env, stdout=subprocess.PIPE, text=True)
             for _ in range(6)]
    keys = {p.communicate(timeout=60)[0].strip() for p in procs}
    assert all(p.returncode == 0 for p in procs)
    assert keys == {(var / "secret-key").read_text().strip()}


def test_an_emptied_key_file_is_refused_with_what_to_do(tmp_path):
    (tmp_path / "secret-key").write_text("\n")
    with pytest.raises(ImproperlyConfigured, match="delete it"):
        embedded.secret_key(tmp_path)


@pytest.mark.parametrize("bind, hosts", [
    ("127.0.0.1:8000", ["localhost", "127.0.0.1", "[::1]"]),
    ("8000", ["localhost", "127.0.0.1", "[::1]"]),  # runserver's default address
    ("[::1]:8000", ["localhost", "127.0.0.1", "[::1]"]),
    ("localhost:8000", ["localhost", "127.0.0.1", "[::1]"]),
    ("192.168.1.20:8000", ["192.168.1.20"]),
    ("[2001:db8::5]:8000", ["[2001:db8::5]"]),
    ("arena.lan:8000", ["arena.lan"]),
    # all interfaces: the names the machine is reached by are not known; never "*" (issue 22, 6)
    ("0.0.0.0:8000", ["localhost", "127.0.0.1", "[::1]"]),
    ("[::]:8000", ["localhost", "127.0.0.1", "[::1]"]),
])
def test_allowed_hosts_follow_the_bind_address(bind, hosts):
    assert embedded.allowed_hosts(bind) == hosts


def test_up_listens_on_loopback_unless_told_otherwise(monkeypatch):
    from arena_site.management.commands.up import Command

    monkeypatch.delenv("ARENA_BIND", raising=False)
    assert Command().create_parser("manage.py", "up").parse_args([]).bind == "127.0.0.1:8000"
    monkeypatch.setenv("ARENA_BIND", "0.0.0.0:9000")
    assert Command().create_parser("manage.py", "up").parse_args([]).bind == "0.0.0.0:9000"
