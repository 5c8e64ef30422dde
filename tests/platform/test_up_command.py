"""`manage.py up` (README command one, through `make up`) on embedded defaults: it comes up safe by default (on
loopback only, DEBUG off, a private var/ with a random secret key kept across restarts), and stopping it stops
everything it started — also when the stop signal comes twice, as it does from make or a supervisor."""

from __future__ import annotations

import os
import re
import signal
import socket
import stat
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from platform_helpers import ROOT


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(") ", 1)[1][0] != "Z"
    except FileNotFoundError:
        return False


def _group_alive(pgid: int) -> bool:
    """Whether any live (not zombie) process is left in the process group (each service is a group leader)."""
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(") ", 1)[1].split()
            except (FileNotFoundError, ProcessLookupError):
                continue
            if int(fields[2]) == pgid and fields[0] != "Z":
                return True
    return False


def _listening_addresses(port: int) -> set[str]:
    """The local addresses of the TCP sockets listening on `port` (from /proc/net/tcp and tcp6)."""
    found = set()
    for table, size in (("/proc/net/tcp", 4), ("/proc/net/tcp6", 16)):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except FileNotFoundError:
            continue
        for line in lines:
            local, state = line.split()[1], line.split()[3]
            address, local_port = local.split(":")
            if state == "0A" and int(local_port, 16) == port:  # 0A: LISTEN
                raw = bytes.fromhex(address)
                # /proc prints each 32-bit word in host (little-endian) order
                raw = b"".join(raw[i:i + 4][::-1] for i in range(0, len(raw), 4))
                found.add(socket.inet_ntop(socket.AF_INET if size == 4 else socket.AF_INET6, raw))
    return found


def _non_loopback_address() -> str | None:
    """An address of this machine other than loopback (the one it would reach the network from), if any."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))  # TEST-NET-1: a UDP connect only picks the route, it sends nothing
            address = s.getsockname()[0]
    except OSError:
        return None
    return None if address.startswith("127.") else address


def _get(url: str, host: str | None = None) -> tuple[int, str]:
    request = urllib.request.Request(url, headers={"Host": host} if host else {})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def _up_env(tmp_path) -> dict[str, str]:
    """Embedded defaults: none of the test run's database, broker, queue, secret or Arena settings."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("DATABASE_URL", "CELERY_BROKER_URL", "DJANGO_SETTINGS_MODULE") and not k.startswith("ARENA_")}
    env.update(ARENA_VAR_DIR=str(tmp_path / "var"), ARENA_STORAGE_DIR=str(tmp_path / "var" / "storage"),
               ARENA_ADMIN_PASSWORD="pw-up-test-123")
    return env


def check_served_safely(port: int, var: Path) -> None:
    """What `up` exposes: loopback only, DEBUG off with the friendly 404, static files, only its host names;
    var/ and its secrets readable by the owner only."""
    deadline = time.monotonic() + 60
    while not _listening_addresses(port) and time.monotonic() < deadline:
        time.sleep(0.2)
    web_log = var / "log" / "web.log"
    assert _listening_addresses(port) == {"127.0.0.1"}, (
        web_log.read_text(errors="replace")[-3000:] if web_log.exists() else "no web log")
    if (address := _non_loopback_address()) is not None:
        with pytest.raises(OSError):
            socket.create_connection((address, port), timeout=5).close()
    status, page = _get(f"http://127.0.0.1:{port}/no-such-page/")
    assert status == 404 and "Page not found" in page
    for leak in ("Traceback", "URLconf", "DEBUG = True", "urlpatterns"):
        assert leak not in page
    status, css = _get(f"http://127.0.0.1:{port}/static/web/site.css")
    assert status == 200 and css  # served with DEBUG off
    assert _get(f"http://127.0.0.1:{port}/no-such-page/", host="evil.example")[0] == 400
    assert _mode(var) == 0o700
    for name in ("secret-key", "admin-password.txt", "arena.sqlite3"):
        assert _mode(var / name) == 0o600, name
    for name in ("arena.sqlite3-wal", "arena.sqlite3-shm"):
        if (var / name).exists():
            assert _mode(var / name) == 0o600, name


def test_up_serves_safely_and_stopping_it_stops_them_all(tmp_path):
    env = _up_env(tmp_path)
    var = tmp_path / "var"
    port = _free_port()
    up = subprocess.Popen([sys.executable, "manage.py", "up", "--bind", f"127.0.0.1:{port}",
                           "--concurrency", "1"], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)
    pids, lines = {}, []
    try:
        deadline = time.monotonic() + 120
        for line in up.stdout:
            lines.append(line)
            if m := re.search(r"started (\w+) \(pid (\d+)\)", line):
                pids[m.group(1)] = int(m.group(2))
            if "Arena is up" in line or time.monotonic() > deadline:
                break
        assert {"web", "worker", "beat"} <= set(pids), "".join(lines)
        assert all(_alive(pid) for pid in pids.values())
        assert f"secret key: {var / 'secret-key'}" in "".join(lines)
        check_served_safely(port, var)
        # make and supervisors signal again while `up` is stopping its children: keep signalling until it exits
        stop_by = time.monotonic() + 60
        while up.poll() is None and time.monotonic() < stop_by:
            up.send_signal(signal.SIGTERM)
            time.sleep(0.05)
        up.communicate(timeout=5)
        gone_by = time.monotonic() + 10
        while time.monotonic() < gone_by and any(_group_alive(pid) for pid in pids.values()):
            time.sleep(0.2)
        assert [name for name, pid in pids.items() if _group_alive(pid)] == []
    finally:
        if up.poll() is None:
            up.kill()
        for pid in pids.values():
            try:
                os.killpg(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
    # Restarted: the same secret key (sessions survive a restart), and a var/ loosened in between (as one made
    # before these defaults would be) is private again.
    key = (var / "secret-key").read_text()
    var.chmod(0o755)
    (var / "arena.sqlite3").chmod(0o644)
    again = subprocess.run([sys.executable, "manage.py", "up", "--no-serve"], cwd=ROOT, env=env,
                           capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stdout + again.stderr
    assert (var / "secret-key").read_text() == key
    assert _mode(var) == 0o700 and _mode(var / "arena.sqlite3") == 0o600 and _mode(var / "secret-key") == 0o600
    probe = subprocess.run([sys.executable, "-c", "from django.conf import settings; print(settings.SECRET_KEY)"],
                           cwd=ROOT, capture_output=True, text=True, timeout=60,
                           env={**env, "DJANGO_SETTINGS_MODULE": "arena_site.settings",
                                "PYTHONPATH": str(ROOT / "platform")})
    assert probe.stdout.strip() == key.strip()  # the key every embedded process signs with


class _SignalledOnFirstPoll(subprocess.Popen):
    """A real child whose first poll() comes with a SIGTERM to the parent: the second stop signal arriving while
    `up` is in the middle of stopping its children."""

    signalled = False

    def poll(self):
        if not _SignalledOnFirstPoll.signalled:
            _SignalledOnFirstPoll.signalled = True
            os.kill(os.getpid(), signal.SIGTERM)
        return super().poll()


def test_a_stop_signal_while_stopping_still_stops_every_child():
    from arena_site.management.commands import up

    command = up.Command()
    command.children = [(name, _SignalledOnFirstPoll(["sleep", "60"], start_new_session=True))
                        for name in ("web", "worker", "beat", "redis")]
    previous = signal.signal(signal.SIGTERM, up._interrupt)
    try:
        command.stop_children()
    except KeyboardInterrupt:
        pytest.fail("a second stop signal cut stopping the children short")
    finally:
        signal.signal(signal.SIGTERM, previous)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        for _, process in command.children:
            if process.poll() is None:
                process.kill()
                process.wait()
    assert _SignalledOnFirstPoll.signalled
    assert [process.returncode for _, process in command.children] == [-signal.SIGTERM] * 4


def test_an_opened_up_asks_for_its_host_names_before_starting_anything(tmp_path):
    """Issue 22, 6: `ARENA_BIND=0.0.0.0` used to answer any Host (`ALLOWED_HOSTS = ["*"]`), so a password reset
    asked for with `Host: evil.example` mailed a valid key on the attacker's site. Opened, `up` first asks for
    the names it is reached by."""
    port = _free_port()
    env = {**_up_env(tmp_path), "ARENA_BIND": f"0.0.0.0:{port}"}
    done = subprocess.run([sys.executable, "manage.py", "up"], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode != 0
    assert "ARENA_ALLOWED_HOSTS" in done.stderr + done.stdout
    assert not _listening_addresses(port), "nothing was started"
    assert not (tmp_path / "var" / "log" / "web.log").exists()
