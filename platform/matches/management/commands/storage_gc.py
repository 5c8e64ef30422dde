"""`manage.py storage_gc [--dry-run]`: delete from storage the uploaded archives and packages that no live bot
version needs (a deleted account's bots, deleted versions); what beat runs daily (`matches.storage_gc`)."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from matches.storage_gc import GRACE_SECONDS, collect


class Command(BaseCommand):
    help = "Delete archives and packages of deleted accounts' bots and deleted versions from storage."

    def add_arguments(self, parser):
        parser.add_argument("--dry-run", action="store_true", help="list what would be removed; remove nothing")

    def handle(self, *args, dry_run: bool = False, **options):
        out = collect(dry_run=dry_run)
        verb = "would remove" if dry_run else "removed"
        for name in out.removed:
            self.stdout.write(f"{verb} {name}")
        for name in out.failed:
            self.stderr.write(f"could not remove {name} (the next run tries again)")
        self.stdout.write(f"{verb} {len(out.removed)} objects; {out.kept_young} unreferenced objects modified in "
                          f"the last {GRACE_SECONDS / 3600:.0f} h kept for the next run")
