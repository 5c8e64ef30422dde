"""Bots and their immutable versions.

A bot (owner, name, game) is what plays on ladders and holds a rating; each uploaded archive becomes a new
`BotVersion` that never changes afterwards. A version goes pending → validating → ready | failed, and a ready
version that keeps crashing or timing out is suspended. Only the bot's active version, when ready, plays.
"""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.db import models


class Bot(models.Model):
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="bots")
    name = models.CharField(max_length=64)
    game = models.CharField(max_length=32, help_text="The game this bot plays, e.g. thebes.")
    description = models.TextField(blank=True, default="")
    builtin = models.BooleanField(default=False, help_text="A trusted house bot shipped with Arena.")
    active_version = models.ForeignKey("BotVersion", null=True, blank=True, on_delete=models.SET_NULL,
                                       related_name="+", help_text="The version that plays (when ready).")
    created_at = models.DateTimeField(auto_now_add=True)
    public_annotations = models.BooleanField(
        default=False, help_text="Everyone sees this bot's debug annotations (DecideResponse.annotation) in "
                                 "replays; otherwise only its owner and staff do. Its printed output stays private.")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["owner", "name"], name="bot_unique_name_per_owner")]
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.owner.username}/{self.name}"

    @property
    def playing_version(self) -> BotVersion | None:
        """The version that plays ladder games now, or None (no ready version, or suspended)."""
        version = self.active_version
        return version if version is not None and version.status == BotVersion.Status.READY else None


class BotVersion(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending"
        VALIDATING = "validating"
        READY = "ready"
        FAILED = "failed"
        SUSPENDED = "suspended"

    bot = models.ForeignKey(Bot, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING, db_index=True)
    status_reason = models.TextField(blank=True, default="",
                                     help_text="Why the version failed validation or was suspended.")
    validation_log = models.TextField(blank=True, default="")
    sha256 = models.CharField(max_length=64, help_text="Hash of the unpacked package (arena.botpkg).")
    archive_sha256 = models.CharField(max_length=64, blank=True, default="")
    archive_size = models.PositiveIntegerField(default=0)
    archive_path = models.CharField(max_length=512, blank=True, default="",
                                    help_text="The uploaded archive, relative to the storage folder.")
    package_dir = models.CharField(max_length=512,
                                   help_text="The unpacked bot folder: relative to the storage folder, or "
                                             "absolute for built-in bots.")
    manifest = models.JSONField(default=dict)
    runtime = models.CharField(max_length=16, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    validation_queued_at = models.DateTimeField(
        null=True, blank=True, help_text="When its validation task was last sent (recovery re-sends lost ones).")
    validated_at = models.DateTimeField(null=True, blank=True)
    suspended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["bot", "number"], name="version_unique_number")]
        ordering = ["bot_id", "number"]

    def __str__(self) -> str:
        return f"{self.bot} v{self.number}"

    @property
    def package_path(self) -> Path:
        path = Path(self.package_dir)
        return path if path.is_absolute() else Path(settings.STORAGE_DIR) / path

    @property
    def archive_file(self) -> Path | None:
        return Path(settings.STORAGE_DIR) / self.archive_path if self.archive_path else None
