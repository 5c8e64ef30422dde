"""The ladders' public datasets: Parquet shards of every finished public match, one row per decision
(`datasets.shards` says what a row holds and which matches go in)."""

from __future__ import annotations

from django.db import models


class Shard(models.Model):
    """One Parquet file of a ladder's dataset. Written once, never changed: new matches go into new shards."""

    ladder = models.ForeignKey("ladders.Ladder", on_delete=models.CASCADE, related_name="dataset_shards")
    number = models.PositiveIntegerField(help_text="1, 2, ... in the order the shards were written.")
    path = models.CharField(max_length=512, help_text="The shard's name in storage (arena_site.objects).")
    rows = models.PositiveIntegerField()
    matches = models.PositiveIntegerField()
    first_match = models.BigIntegerField()
    last_match = models.BigIntegerField()
    size = models.PositiveBigIntegerField(help_text="Bytes.")
    sha256 = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["ladder", "number"]
        constraints = [models.UniqueConstraint(fields=["ladder", "number"], name="dataset_shard_number")]

    def __str__(self) -> str:
        return f"{self.ladder.slug} shard {self.number}"

    @property
    def file_name(self) -> str:
        return self.path.rsplit("/", 1)[-1]


class ShardMatch(models.Model):
    """A match that is in a shard (each match in one shard at most: what makes the build incremental)."""

    match = models.OneToOneField("matches.Match", on_delete=models.CASCADE, related_name="dataset_entry")
    shard = models.ForeignKey(Shard, on_delete=models.CASCADE, related_name="entries")
