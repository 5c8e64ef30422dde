"""A request body larger than any upload, sent to gunicorn as deployed (issue 22, "untested so far"): Django spools
a multipart body's files to temporary files without a limit, and CSRF checking parses the body of every POST to a
page that carries a CSRF cookie (the sender's own), so one anonymous request could fill the web server's disk. It
is refused from its Content-Length (413) before anything is read or written. And what a web process killed
mid-upload spooled is swept (issue 22, 15)."""

from __future__ import annotations

import os
import signal
import socket
import time
from pathlib import Path

import pytest
from platform_helpers import gunicorn_serving

pytestmark = pytest.mark.timeout(300)

CHUNK = b"x" * (1024 * 1024)
# A CSRF cookie of the sender's own making (any 32 letters): with one, Django's CSRF check reads the form's token
# from the body, parsing (and spooling) all of it; without one it refuses before reading.
CSRF_COOKIE = "csrftoken=" + "a" * 32


@pytest.fixture
def gunicorn(tmp_path):
    """gunicorn serving arena_site.wsgi on a free loopback port; its temporary files go to `tmp_path/spool`."""
    spool = tmp_path / "spool"
    spool.mkdir()
    with gunicorn_serving({"TMPDIR": str(spool), "ARENA_STORAGE_DIR": str(tmp_path / "storage")}) as (port, server):
        yield port, spool, server


def _spooled(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def _send_huge_multipart(port: int, path: str, megabytes: int) -> tuple[bytes, int]:
    """POST a multipart body announcing 20 GB, sending `megabytes` of it; returns the answer's first bytes (b""
    if none came) and how many megabytes the server took before answering."""
    boundary = "arenaboundary"
    head = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"archive\"; filename=\"bot.zip\"\r\n"
            "Content-Type: application/zip\r\n\r\n").encode()
    request = (f"POST {path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: multipart/form-data; boundary={boundary}\r\n"
               f"Content-Length: {20 * 1024 ** 3}\r\nCookie: {CSRF_COOKIE}\r\n\r\n").encode() + head
    sent = 0
    with socket.create_connection(("127.0.0.1", port), timeout=60) as conn:
        conn.sendall(request)
        conn.settimeout(0.5)
        for sent in range(megabytes):
            try:
                answer = conn.recv(200)
                if answer:
                    return answer, sent
            except TimeoutError:
                pass
            try:
                conn.settimeout(60)
                conn.sendall(CHUNK)
                conn.settimeout(0.5)
            except OSError:  # the server answered and closed
                break
        conn.settimeout(30)
        try:
            return conn.recv(200), sent
        except (TimeoutError, OSError):
            return b"", sent


@pytest.mark.parametrize("path", ["/login/", "/api/auth/login/"])
def test_a_body_larger_than_any_upload_is_refused_before_it_is_spooled(gunicorn, path, settings):
    port, spool, _ = gunicorn
    megabytes = settings.ARENA_REQUEST_MAX_BYTES // (1024 * 1024) + 20
    answer, _ = _send_huge_multipart(port, path, megabytes)
    assert answer.startswith(b"HTTP/1.1 413"), answer
    assert _spooled(spool) < 2 * 1024 * 1024, "nothing of the body was written to the server's disk"


def test_what_a_web_process_killed_mid_upload_spooled_is_swept(gunicorn, tmp_path, settings):
    """Issue 22, 15: the upload's temporary file of a killed web process stayed in the system's /tmp, which no
    sweep of Arena's reads; it is spooled in the working folder now, and the sweep removes it."""
    from matches.storage import sweep_work_folders

    port, spool, server = gunicorn
    upload_tmp = tmp_path / "storage" / "upload-tmp"
    boundary = "arenaboundary"
    head = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"archive\"; filename=\"bot.zip\"\r\n"
            "Content-Type: application/zip\r\n\r\n").encode()
    with socket.create_connection(("127.0.0.1", port), timeout=60) as conn:
        conn.sendall((f"POST /login/ HTTP/1.1\r\nHost: localhost\r\nContent-Type: multipart/form-data; "
                      f"boundary={boundary}\r\nContent-Length: {5 * 1024 * 1024}\r\nCookie: {CSRF_COOKIE}\r\n\r\n").encode()
                     + head)
        for _ in range(4):  # more than Django keeps in memory (2.5 MB): the rest is spooled to a file
            conn.sendall(CHUNK)
        deadline = time.monotonic() + 120
        while not (upload_tmp.is_dir() and any(upload_tmp.iterdir())) and time.monotonic() < deadline:
            time.sleep(0.2)
        os.killpg(server.pid, signal.SIGKILL)  # the web server dies mid-upload
        server.wait()
    assert upload_tmp.is_dir() and any(upload_tmp.iterdir()), "spooled in the working folder"
    assert _spooled(spool) == 0, "not in the system's temporary folder"
    settings.STORAGE_DIR = tmp_path / "storage"
    sweep_work_folders(grace_seconds=0)
    assert not any(upload_tmp.iterdir())
