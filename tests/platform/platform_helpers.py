"""Helpers of the platform tests (imported by name: `from platform_helpers import …`, unlike conftest.py,
whose module name is shared by every test folder)."""

from __future__ import annotations

import contextlib
import io
import os
import signal
import socket
import subprocess
import sys
import tarfile
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PLATFORM = ROOT / "platform"
PYTHON_RANDOM_BOT = ROOT / "bots" / "python" / "random"


# --- bots ------------------------------------------------------------------------------------------------------

SLOW_RANDOM_BOT = '''
import time
from arena_bot import Bot, run


class SlowRandomBot(Bot):
    def decide(self, request):
        time.sleep({seconds})
        return self.rng.randrange(len(request.legal_actions))


if __name__ == "__main__":
    run(SlowRandomBot())
'''


def slow_random_bot(parent: Path, seconds: float) -> Path:
    """The built-in Python random bot, `seconds` a decision (a match that lasts long enough for a test to act in
    the middle of it), in `parent`/slow; both readable by the sandboxed bots' uids."""
    import shutil

    folder = parent / "slow"
    shutil.copytree(PYTHON_RANDOM_BOT, folder, ignore=shutil.ignore_patterns("__pycache__"))
    (folder / "bot.py").write_text(SLOW_RANDOM_BOT.format(seconds=seconds))
    folder.chmod(0o755)
    parent.chmod(0o755)
    return folder


# --- the web server as deployed ---------------------------------------------------------------------------------

@contextlib.contextmanager
def gunicorn_serving(env: dict[str, str], *options: str) -> Iterator[tuple[int, subprocess.Popen[bytes]]]:
    """gunicorn serving arena_site.wsgi, one worker, on a free loopback port: (port, server process). `env` goes
    over this process's environment (the platform on PYTHONPATH), `options` after gunicorn's own (a worker class,
    threads). Fails the test with its stderr if it does not answer within 120 s; its process group is stopped at
    the end."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(PLATFORM), str(ROOT)]), **env}
    server = subprocess.Popen([sys.executable, "-m", "gunicorn", "--chdir", "platform", "--bind", f"127.0.0.1:{port}",
                               "--workers", "1", "--timeout", "120", *options, "arena_site.wsgi"],
                              cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    stderr = server.stderr.read().decode(errors="replace") if server.poll() is not None else ""
                    raise AssertionError(f"gunicorn did not start: {stderr[-2000:]}") from None
                time.sleep(0.2)
        yield port, server
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()


# --- bot packages and archives --------------------------------------------------------------------------------

def bot_files(name: str = "test-bot", game: str = "thebes", runtime: str = "python",
              source: Path = PYTHON_RANDOM_BOT) -> dict[str, bytes]:
    """The files of the built-in Python random bot under a new name (a real, working bot)."""
    files: dict[str, bytes] = {}
    for path in sorted(source.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            files[path.relative_to(source).as_posix()] = path.read_bytes()
    manifest = files["bot.toml"].decode()
    lines = []
    for line in manifest.splitlines():
        key = line.split("=", 1)[0].strip()
        if key == "name":
            line = f'name = "{name}"'
        elif key == "games":
            line = f'games = ["{game}"]'
        elif key == "runtime":
            line = f'runtime = "{runtime}"'
        lines.append(line)
    files["bot.toml"] = ("\n".join(lines) + "\n").encode()
    return files


def zip_bytes(files: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return buf.getvalue()


def tar_gz_bytes(files: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as archive:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def upload(client, bot_id: int, data: bytes, filename: str = "bot.zip"):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return client.post(f"/api/bots/{bot_id}/versions/", {"archive": SimpleUploadedFile(filename, data)},
                       format="multipart")


def make_bot(owner, name, status="ready", game="thebes"):
    from botregistry.models import Bot, BotVersion
    from ladders.services import enroll

    bot = Bot.objects.create(owner=owner, name=name, game=game)
    version = BotVersion.objects.create(bot=bot, number=1, sha256=name, package_dir=f"/nonexistent/{name}",
                                        status=status)
    bot.active_version = version
    bot.save()
    enroll(bot)
    return bot


def wait_for(predicate, timeout: float, interval: float = 0.25, what: str = "condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")
