"""Bots and their immutable versions.

A bot (owner, name, game) is what plays on ladders and holds a rating; each uploaded archive becomes a new
`BotVersion` that never changes afterwards. A version goes pending → validating → ready | failed, and a ready
version that keeps crashing or timing out is suspended. Only the bot's active version, when ready, plays.
"""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Bot(models.Model):
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="bots",
                              help_text="The person who made the bot (who may act on it: `botregistry.ownership`).")
    team = models.ForeignKey("teams.Team", null=True, blank=True, on_delete=models.PROTECT, related_name="bots",
                             help_text="The team that owns the bot, if any: then its members play it and its "
                                       "owner's own say ends (`botregistry.ownership`).")
    name = models.CharField(max_length=64)
    game = models.CharField(max_length=32, help_text="The game this bot plays, e.g. thebes.")
    description = models.TextField(blank=True, default="")
    builtin = models.BooleanField(default=False, help_text="A trusted house bot shipped with Arena.")
    people_may_play = models.BooleanField(
        default=True, help_text="Whether people may play this bot from the browser (unrated human matches; "
                                "its owner may turn it off). On by default, built-in and uploaded bots alike.")
    active_version = models.ForeignKey("BotVersion", null=True, blank=True, on_delete=models.SET_NULL,
                                       related_name="+", help_text="The version that plays (when ready).")
    created_at = models.DateTimeField(auto_now_add=True)
    public_annotations = models.BooleanField(
        default=False, help_text="Everyone sees this bot's debug annotations (DecideResponse.annotation) in "
                                 "replays; otherwise only its owner and staff do. Its printed output stays private.")
    dataset_opt_out = models.BooleanField(
        default=False, help_text="Leave this bot's future matches out of the ladders' public datasets (datasets app); "
                                 "shards already published do not change.")
    retired_at = models.DateTimeField(
        null=True, blank=True, help_text="When the bot was retired (its owner deleted their account, its team was "
                                         "deleted, or staff retired it): it plays no more games; its matches and "
                                         "ratings stay.")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["owner", "name"], name="bot_unique_name_per_owner"),
                       models.UniqueConstraint(fields=["team", "name"], condition=models.Q(team__isnull=False),
                                               name="bot_unique_name_per_team")]
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.owner.username}/{self.name}"

    @property
    def playing_version(self) -> BotVersion | None:
        """The version that plays ladder games now, or None (no ready version, suspended, or the bot retired)."""
        if self.retired_at is not None:
            return None
        version = self.active_version
        return version if version is not None and version.status == BotVersion.Status.READY else None


class BotVersion(models.Model):
    class Status(models.TextChoices):
        # translated labels: the pages say a version's status in the reader's language (get_status_display)
        PENDING = "pending", _("Pending")
        VALIDATING = "validating", _("Validating")
        READY = "ready", _("Ready")
        FAILED = "failed", _("Failed")
        SUSPENDED = "suspended", _("Suspended")

    bot = models.ForeignKey(Bot, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING, db_index=True)
    status_reason = models.TextField(blank=True, default="",
                                     help_text="Why the version failed validation or was suspended.")
    status_reasons = models.JSONField(blank=True, default=list,
                                      help_text="status_reason as arena.reasons codes and parameters, told in each "
                                                "reader's language (botregistry.reasons); [] for a reason in words only.")
    validation_log = models.TextField(blank=True, default="")
    sha256 = models.CharField(max_length=64, help_text="Hash of the unpacked package (arena.botpkg).")
    archive_sha256 = models.CharField(max_length=64, blank=True, default="")
    archive_size = models.PositiveIntegerField(default=0)
    archive_path = models.CharField(max_length=512, blank=True, default="",
                                    help_text="The uploaded archive, relative to the storage folder.")
    package_dir = models.CharField(max_length=512, blank=True, default="",
                                   help_text="The bot's folder: absolute for built-in bots; relative to the storage "
                                             "folder for versions uploaded before packages were stored; empty "
                                             "for newer uploads (package_hash).")
    package_hash = models.CharField(
        max_length=64, blank=True, default="",
        help_text="SHA-256 of the validated package (build outputs included) stored as packages/<hash>.tar.gz "
                  "(botregistry.package_cache); workers launch the bot from their cache of it.")
    manifest = models.JSONField(default=dict)
    runtime = models.CharField(max_length=16, blank=True, default="")
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="uploaded_versions",
        help_text="Who uploaded it (a team bot's versions come from any of its members; built-in bots': the "
                  "house). Versions from before this was recorded: their bot's owner. Empty once that account is "
                  "gone from the database (a deleted account keeps its emptied row, shown as 'deleted account').")
    created_at = models.DateTimeField(auto_now_add=True)
    validation_queued_at = models.DateTimeField(
        null=True, blank=True, help_text="When its validation task was last sent (recovery re-sends lost ones).")
    validation_claim = models.CharField(
        max_length=200, blank=True, default="",
        help_text="The validation run that holds the version (worker#nonce): only it may record the outcome.")
    validation_heartbeat_at = models.DateTimeField(
        null=True, blank=True, help_text="Written by the validating run while it works; stale: it is lost.")
    validated_at = models.DateTimeField(null=True, blank=True)
    suspended_at = models.DateTimeField(null=True, blank=True)
    resumed_at = models.DateTimeField(
        null=True, blank=True, help_text="When its owner last resumed it after a suspension: the suspension rule "
                                         "counts only matches finished since (matches.suspension).")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["bot", "number"], name="version_unique_number")]
        ordering = ["bot_id", "number"]

    def __str__(self) -> str:
        return f"{self.bot} v{self.number}"

    @property
    def seat_name(self) -> str:
        """How every match names this version's seat (ladder, tournament, validation alike): `<bot> v<n>`."""
        return f"{self.bot.name} v{self.number}"

    @property
    def package_path(self) -> Path | None:
        """The bot's own folder on this machine (built-in bots, older uploads), or None: a newer upload is a
        stored package (`botregistry.package_cache.local_package`)."""
        if not self.package_dir:
            return None
        path = Path(self.package_dir)
        return path if path.is_absolute() else Path(settings.STORAGE_DIR) / path

    @property
    def archive_file(self) -> Path | None:
        return Path(settings.STORAGE_DIR) / self.archive_path if self.archive_path else None
