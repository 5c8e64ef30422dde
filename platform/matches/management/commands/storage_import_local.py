"""`manage.py storage_import_local`: copy what an install kept in its storage folder into the configured object
storage, so its existing rows keep working once web and workers stop sharing that folder (moving a
single-machine install, or a docker compose deployment from before MinIO, to S3).

For each finished match whose replay (and bots' logs) is a file under ARENA_STORAGE_DIR but not in storage, the
file is uploaded under the same name; each uploaded archive likewise; and each uploaded version that plays from
its own folder (no `package_hash`: validated before packages were stored) has its folder packed and stored by
hash (`botregistry.package_cache.store_package`) and `package_hash` set, so workers elsewhere fetch it. Safe to
run again: what is already in storage is skipped."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand

from arena_site import objects
from botregistry.models import BotVersion
from botregistry.package_cache import store_package
from matches.models import Match


class Command(BaseCommand):
    help = "Copy replays, logs, archives and packages kept in ARENA_STORAGE_DIR into the configured storage."

    def handle(self, *args, **options):
        root = Path(settings.STORAGE_DIR)
        copied = packed = missing = 0
        names = list(Match.objects.exclude(replay_path="").values_list("replay_path", flat=True))
        names += [Match(replay_path=name).logs_name for name in names]
        names += list(BotVersion.objects.exclude(archive_path="").values_list("archive_path", flat=True))
        for name in names:
            local = root / name
            if objects.exists(name):
                continue
            if not local.is_file():
                missing += 1
                continue
            objects.put_file(name, local)
            copied += 1
        for version in BotVersion.objects.filter(package_hash="", status__in=[
                BotVersion.Status.READY, BotVersion.Status.SUSPENDED]).exclude(package_dir=""):
            folder = version.package_path
            if folder is None or Path(version.package_dir).is_absolute() or not folder.is_dir():
                continue  # a built-in bot (its folder ships with Arena) or nothing left to pack
            BotVersion.objects.filter(pk=version.pk).update(package_hash=store_package(folder))
            packed += 1
        self.stdout.write(f"copied {copied} files, stored {packed} packages; {missing} files were not in "
                          f"{root} (a match without bot logs, or already gone)")
