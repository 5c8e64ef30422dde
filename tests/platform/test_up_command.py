"""`manage.py up` (README command one, through `make up`) on embedded defaults: it comes up, and stopping it stops
everything it started — also when the stop signal comes twice, as it does from make or a supervisor."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time

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


def test_up_starts_the_services_and_stopping_it_stops_them_all(tmp_path):
    env = {k: v for k, v in os.environ.items()
           if k not in ("DATABASE_URL", "CELERY_BROKER_URL", "ARENA_CELERY_QUEUE", "DJANGO_SETTINGS_MODULE")}
    env.update(ARENA_VAR_DIR=str(tmp_path / "var"), ARENA_STORAGE_DIR=str(tmp_path / "var" / "storage"),
               ARENA_ADMIN_PASSWORD="pw-up-test-123")
    up = subprocess.Popen([sys.executable, "manage.py", "up", "--bind", f"127.0.0.1:{_free_port()}",
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
