"""A real S3 endpoint for the tests: moto's server mode (`python -m moto.server`) as a subprocess on a free port
of 127.0.0.1 (no MinIO binary can be installed here). Imported by name: `from object_storage import …`."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from pathlib import Path

CREDENTIALS = {"ARENA_S3_ACCESS_KEY_ID": "test-key", "ARENA_S3_SECRET_ACCESS_KEY": "test-secret",
               "ARENA_S3_REGION": "us-east-1"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class S3Endpoint:
    """`python -m moto.server` on 127.0.0.1: `url`, `env(bucket)` (the environment a worker gets), `bucket()`
    (a new empty bucket), `stop()`."""

    def __init__(self, log_dir: Path):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = open(log_dir / "moto.log", "wb")
        self.process = subprocess.Popen([sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(self.port)],
                                        stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"moto.server exited: {(log_dir / 'moto.log').read_text()[-2000:]}")
            try:
                urllib.request.urlopen(self.url + "/moto-api/", timeout=1).read()
                return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("moto.server did not start")

    def env(self, bucket: str) -> dict[str, str]:
        return {"ARENA_S3_BUCKET": bucket, "ARENA_S3_ENDPOINT_URL": self.url, "ARENA_S3_TIMEOUT": "2",
                **CREDENTIALS}

    def client(self):
        import boto3

        return boto3.client("s3", endpoint_url=self.url, aws_access_key_id=CREDENTIALS["ARENA_S3_ACCESS_KEY_ID"],
                            aws_secret_access_key=CREDENTIALS["ARENA_S3_SECRET_ACCESS_KEY"],
                            region_name=CREDENTIALS["ARENA_S3_REGION"])

    def bucket(self) -> str:
        name = f"arena-{uuid.uuid4().hex[:12]}"
        self.client().create_bucket(Bucket=name)
        return name

    def keys(self, bucket: str, prefix: str = "") -> list[str]:
        pages = self.client().get_paginator("list_objects_v2").paginate(Bucket=bucket, Prefix=prefix)
        return sorted(item["Key"] for page in pages for item in page.get("Contents", []))

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.log.close()


def use_s3(settings, endpoint: S3Endpoint, bucket: str) -> None:
    """Point this test process's "arena" storage at `bucket` (pytest-django's `settings` undoes it)."""
    from arena_site.settings import s3_storage

    settings.STORAGES = {**settings.STORAGES, "arena": s3_storage(endpoint.env(bucket))}


class HangingProxy:
    """A TCP proxy on 127.0.0.1 in front of a real endpoint (moto's server) that can be made to hang: after
    `hang()` it accepts every new connection and never forwards or answers it (a hanging S3 endpoint), and sets
    `held` when one arrives; `resume()` forwards new connections again. `url`, `stop()`."""

    def __init__(self, target_port: int):
        import threading

        self.target_port = target_port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        self.hanging = threading.Event()
        self.held = threading.Event()
        self.stopped = threading.Event()
        self.sockets: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def hang(self) -> None:
        self.held.clear()
        self.hanging.set()

    def resume(self) -> None:
        self.hanging.clear()

    def _accept(self) -> None:
        import threading

        self.listener.settimeout(0.2)
        while not self.stopped.is_set():
            try:
                conn, _ = self.listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            self.sockets.append(conn)
            if self.hanging.is_set():
                self.held.set()  # accepted, never answered
                continue
            upstream = socket.create_connection(("127.0.0.1", self.target_port))
            self.sockets.append(upstream)
            for a, b in ((conn, upstream), (upstream, conn)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def _pipe(source: socket.socket, dest: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                dest.sendall(data)
        except OSError:
            pass
        finally:
            try:
                dest.shutdown(socket.SHUT_WR)
            except OSError:
                pass

    def stop(self) -> None:
        self.stopped.set()
        for s in self.sockets:
            s.close()
        self.listener.close()
