"""`manage.py build_datasets [--ladder SLUG ...] [--per-shard N] [--check N]`: write each ladder's new public
matches into new Parquet shards (datasets.shards); `--check N` then re-plays N sample matches of every shard of
those ladders through the engine and fails on any difference."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from datasets import shards
from datasets.models import Shard
from ladders.models import Ladder


class Command(BaseCommand):
    help = "Write the ladders' new public matches into dataset shards (Parquet), and check them."

    def add_arguments(self, parser):
        parser.add_argument("--ladder", action="append", default=[], help="a ladder's slug (default: all)")
        parser.add_argument("--per-shard", type=int, default=shards.MATCHES_PER_SHARD, help="matches per shard")
        parser.add_argument("--check", type=int, default=0, metavar="N",
                            help="re-play N sample matches of each shard through the engine")

    def handle(self, *args, **options):
        ladders = Ladder.objects.order_by("slug")
        if options["ladder"]:
            ladders = ladders.filter(slug__in=options["ladder"])
            missing = set(options["ladder"]) - set(ladders.values_list("slug", flat=True))
            if missing:
                raise CommandError(f"no ladder {', '.join(sorted(missing))}")
        if options["per_shard"] < 1:
            raise CommandError("--per-shard must be at least 1")
        problems = []
        for ladder in ladders:
            written = shards.build(ladder, options["per_shard"])
            for shard in written:
                self.stdout.write(f"{ladder.slug}: shard {shard.number}: {shard.matches} matches, {shard.rows} rows, "
                                  f"{shard.size} bytes")
            if not written:
                self.stdout.write(f"{ladder.slug}: no new public match")
            if options["check"]:
                for shard in Shard.objects.filter(ladder=ladder):
                    found = shards.check(shards.read(shard), options["check"], seed=shard.number)
                    problems += [f"{ladder.slug} shard {shard.number}: {p}" for p in found]
                    if not found:
                        self.stdout.write(f"{ladder.slug}: shard {shard.number} checked: the engine agrees")
        if problems:
            raise CommandError("\n".join(problems))
