"""What the storage's garbage collection (matches.storage_gc) costs: `--versions` uploaded versions (an archive and
a package each; every fifth package shared by two people's identical uploads), the accounts owning half of them
deleted, then one collection. Prints the objects listed, removed and the seconds taken.

    python bench/storage_gc.py [--versions 5000] [--s3]

Its own PostgreSQL database (`bench_storage_gc`, DATABASE_URL overrides); the storage is a temporary folder, or
with --s3 a bucket of moto's server mode on 127.0.0.1 (no network: the floor of a real endpoint).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _platform_setup import reset_platform_tables, setup_django  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--versions", type=int, default=5000)
    parser.add_argument("--s3", action="store_true")
    args = parser.parse_args()
    os.environ["ARENA_STORAGE_DIR"] = tempfile.mkdtemp(prefix="arena-bench-gc-")
    moto = None
    if args.s3:
        from package_cache import start_moto

        moto, url = start_moto()
        os.environ.update(ARENA_S3_BUCKET="bench-gc", ARENA_S3_ENDPOINT_URL=url, ARENA_S3_ACCESS_KEY_ID="k",
                          ARENA_S3_SECRET_ACCESS_KEY="s", ARENA_S3_REGION="us-east-1")
    setup_django("bench_storage_gc")
    try:
        run(args.versions, args.s3)
    finally:
        if moto is not None:
            moto.terminate()


def run(n: int, s3: bool) -> None:
    import hashlib

    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from accounts.deletion import delete_account
    from arena_site import objects
    from botregistry.models import Bot, BotVersion
    from botregistry.package_cache import object_name
    from matches import storage_gc

    if s3:
        objects.storage().connection.meta.client.create_bucket(Bucket="bench-gc")
    reset_platform_tables()
    User = get_user_model()
    User.objects.all().delete()  # the benchmark's own database: the last run's accounts go
    per_user = 10
    users = [User.objects.create_user(f"gc{i}", "", "pw-123456789") for i in range((n + per_user - 1) // per_user)]
    started = time.perf_counter()
    rows = []
    for i in range(n):
        user = users[i // per_user]
        bot, _ = Bot.objects.get_or_create(owner=user, name=f"b{i % 2}", game="thebes")
        sha = hashlib.sha256(f"package {i - (i % 5 == 1 and i >= per_user) * per_user}".encode()).hexdigest()  # every fifth: the previous person's
        archive = f"bots/{bot.pk}/{i}/archive.zip"
        objects.put_bytes(archive, b"archive")
        objects.put_bytes(object_name(sha), b"package")
        rows.append(BotVersion(bot=bot, number=i, sha256=f"{i:064x}", archive_path=archive, package_hash=sha,
                               status=BotVersion.Status.READY))
    BotVersion.objects.bulk_create(rows)
    for user in users[::2]:
        delete_account(user)
    print(f"filled {n} versions in {time.perf_counter() - started:.1f} s; deleted {len(users[::2])} accounts")
    later = time.time() + 2 * storage_gc.GRACE_SECONDS
    listed = sum(1 for _ in objects.listing("bots/")) + sum(1 for _ in objects.listing("packages/"))
    for dry in (True, False):
        with CaptureQueriesContext(connection) as queries:
            t0 = time.perf_counter()
            out = storage_gc.collect(dry_run=dry, now=later)
            seconds = time.perf_counter() - t0
        print(f"{'dry run' if dry else 'collection'} ({'S3' if s3 else 'folder'}): {listed} objects listed, "
              f"{len(out.removed)} {'to remove' if dry else 'removed'}, {seconds:.2f} s, {len(queries)} queries")


if __name__ == "__main__":
    main()
