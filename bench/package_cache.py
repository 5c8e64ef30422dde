"""What a worker pays to launch a bot from object storage: a version's package fetched into the package cache
(cold: download from S3 + SHA-256 check + safe unpack + rename into place) against one already cached (warm: a
lock and a directory look-up), for the built-in bots' packages as they would be stored after validation.

    python bench/package_cache.py [--repeat 5]

S3 is moto's server mode on 127.0.0.1 (as in the tests): no network, so the cold figures are the floor of a real
endpoint plus the transfer time of the package's size. Prints a table of median milliseconds per package.
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BOTS = ["python/random", "node/random", "java/random", "cpp/random", "go/random"]


def start_moto() -> tuple[subprocess.Popen, str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    process = subprocess.Popen([sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            urllib.request.urlopen(url + "/moto-api/", timeout=1).read()
            return process, url
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("moto.server did not start")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    moto, url = start_moto()
    work = Path(tempfile.mkdtemp(prefix="bench-package-cache-"))
    try:
        os.environ.update({"DJANGO_SETTINGS_MODULE": "arena_site.settings", "ARENA_VAR_DIR": str(work / "var"),
                           "ARENA_S3_BUCKET": "bench", "ARENA_S3_ENDPOINT_URL": url, "ARENA_S3_REGION": "us-east-1",
                           "ARENA_S3_ACCESS_KEY_ID": "bench", "ARENA_S3_SECRET_ACCESS_KEY": "bench",
                           "ARENA_LOCAL_DIR": str(work / "local"), "ARENA_LOG_LEVEL": "WARNING"})
        os.environ.pop("DATABASE_URL", None)
        for path in (ROOT / "platform", ROOT):
            sys.path.insert(0, str(path))
        import django

        django.setup()
        from django.core.management import call_command

        from botregistry.package_cache import PackageCache, store_package

        call_command("ensure_bucket", stdout=open(os.devnull, "w"))
        print(f"{'package':<16} {'files':>6} {'MB':>6} {'store ms':>9} {'cold ms':>8} {'warm ms':>8}")
        for name in BOTS:
            folder = ROOT / "bots" / name
            if not (folder / "bot.toml").exists():
                continue
            files = [p for p in folder.rglob("*") if p.is_file() and not p.is_symlink()]
            size = sum(p.stat().st_size for p in files) / 1e6
            started = time.perf_counter()
            try:
                sha = store_package(folder)
            except ValueError as exc:  # a checkout's own folder may hold links a validated package never has
                print(f"{name:<16} skipped: {exc}")
                continue
            store = (time.perf_counter() - started) * 1000
            cold, warm = [], []
            for i in range(args.repeat):
                cache = PackageCache(work / f"cache-{name.replace('/', '-')}-{i}")
                started = time.perf_counter()
                with cache.use(sha):
                    pass
                cold.append((time.perf_counter() - started) * 1000)
                for _ in range(3):
                    started = time.perf_counter()
                    with cache.use(sha):
                        pass
                    warm.append((time.perf_counter() - started) * 1000)
            print(f"{name:<16} {len(files):>6} {size:>6.2f} {store:>9.1f} {statistics.median(cold):>8.1f} "
                  f"{statistics.median(warm):>8.2f}")
    finally:
        moto.terminate()
        moto.wait()
        import shutil
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
