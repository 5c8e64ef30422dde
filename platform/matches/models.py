"""Matches and the seats in them.

A match goes queued → running → finished | failed | cancelled; `attempts` counts how often a worker started it.
Ladder and challenge matches come from the `matchmaking` app, tournament matches from `tournaments`, version-test
matches from `versiontests`; all run through the same Celery task (`matches.tasks.run_match`), step by step as
`matches.services` tells. The game, parameters, seed and time control are copied onto the match so it can be
re-run exactly, whatever later happens to its ladder.
"""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Match(models.Model):
    class Status(models.TextChoices):
        # the labels are Django's own (the names, capitalised), translated: the pages say them in the reader's language
        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")
        FAILED = "failed", _("Failed")
        CANCELLED = "cancelled", _("Cancelled")

    class Kind(models.TextChoices):
        LADDER = "ladder", _("Ladder")
        CHALLENGE = "challenge", _("Challenge")
        TOURNAMENT = "tournament", _("Tournament")
        VERSION_TEST = "version_test", _("Version Test")
        HUMAN = "human", _("Human")  # people at the table (matches.people): never rated

    kind = models.CharField(max_length=16, choices=Kind.choices, default=Kind.LADDER)
    ladder = models.ForeignKey("ladders.Ladder", null=True, blank=True, on_delete=models.SET_NULL,
                               related_name="matches")
    rated = models.BooleanField(default=True, help_text="Whether the result changes ladder ratings.")
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                     related_name="requested_matches")
    game = models.CharField(max_length=32)
    params = models.JSONField(default=dict)
    seed = models.BigIntegerField()
    time_control = models.JSONField(default=dict)
    people = models.JSONField(
        default=dict, blank=True,
        help_text="The seats people play (kind human): {seat: user id}; they have no Participant row, the bots' "
                  "seats do (matches.people).")
    seat_time_controls = models.JSONField(
        default=dict, blank=True,
        help_text="Seats on a clock of their own: {seat: time control}, e.g. a person's preset beside the bots' "
                  "ladder clock (`time_control`, every other seat's).")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    status_reason = models.TextField(blank=True, default="", help_text="Why a match failed or was cancelled.")
    attempts = models.PositiveSmallIntegerField(default=0)
    host_voids = models.PositiveSmallIntegerField(
        default=0, help_text="How often it was set aside as void because of host trouble (not a bot's doing) and "
                             "queued again; at ARENA_HOST_VOID_RETRIES more it fails with the reason.")
    worker = models.CharField(max_length=255, blank=True, default="")
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    decisions_played = models.PositiveIntegerField(
        default=0, help_text="Decisions played so far by the run under way, written with its heartbeat (progress).")
    sent_at = models.DateTimeField(null=True, blank=True,
                                   help_text="When its task was last sent to the broker (recovery re-sends from it).")
    after = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="chained",
        help_text="A match of the same deal that must end before this one starts (a duplicate set's rotations "
                  "are played one after another: matches.services.create_match).")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    engine_version = models.CharField(max_length=64, blank=True, default="")
    replay_path = models.CharField(max_length=512, blank=True, default="",
                                   help_text="The replay file, relative to the storage folder.")
    result = models.JSONField(null=True, blank=True, help_text="MatchResult.to_dict() as the referee returned it.")
    unwritten_replay = models.BinaryField(
        null=True, blank=True, editable=False,
        help_text="The replay file's bytes, kept while storage could not take them (full or failing); "
                  "beat writes them out (matches.storage) and clears this.")
    unwritten_logs = models.BinaryField(
        null=True, blank=True, editable=False,
        help_text="The bots' own logs of the match (the file beside the replay), kept with the unwritten replay "
                  "and written out with it (matches.storage).")

    class Meta:
        ordering = ["-id"]
        indexes = [
            models.Index(fields=["status"], name="match_status"),
            models.Index(fields=["ladder", "status"], name="match_ladder_status"),
            models.Index(fields=["-finished_at"], name="match_finished"),
            # the few matches whose replay waits in the database (matches.storage; looked for on every beat tick)
            models.Index(fields=["id"], condition=models.Q(unwritten_replay__isnull=False),
                         name="match_unwritten_replay"),
        ]
        verbose_name_plural = "matches"

    def __str__(self) -> str:
        return f"match {self.pk} ({self.game}, {self.status})"

    @property
    def logs_name(self) -> str:
        """The name in storage (arena_site.objects) of the bots' own logs of the match, beside the replay; "" when
        there is no replay."""
        from arena.botlogs import logs_path

        return logs_path(self.replay_path).as_posix() if self.replay_path else ""

    @property
    def replay_file(self) -> Path | None:
        """The replay as a file of the storage folder: only where storage is that folder (embedded defaults,
        tests); readers go through `arena_site.objects` with `replay_path`."""
        return Path(settings.STORAGE_DIR) / self.replay_path if self.replay_path else None

    @property
    def logs_file(self) -> Path | None:
        """The bots' own logs of the match (arena.botlogs), beside the replay; private to each bot's owner."""
        from arena.botlogs import logs_path

        return logs_path(self.replay_file) if self.replay_file else None

    @property
    def replay_missing(self) -> bool:
        """Finished, but its replay is not in storage yet (kept in the database until storage takes it)."""
        return self.status == self.Status.FINISHED and not self.replay_path and self.unwritten_replay is not None

    @property
    def done(self) -> bool:
        return self.status in (self.Status.FINISHED, self.Status.FAILED, self.Status.CANCELLED)


class Participant(models.Model):
    """One seat of a match: which bot version sat there and how it did."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="participants")
    seat = models.PositiveSmallIntegerField()
    bot = models.ForeignKey("botregistry.Bot", on_delete=models.CASCADE, related_name="participations")
    version = models.ForeignKey("botregistry.BotVersion", on_delete=models.CASCADE, related_name="participations")
    score = models.FloatField(null=True, blank=True)
    rank = models.PositiveSmallIntegerField(null=True, blank=True)
    disqualified = models.BooleanField(default=False)
    faults = models.JSONField(default=list, blank=True, help_text="[{kind, message, decision}] from the referee.")
    time_ms = models.FloatField(default=0.0)
    decisions = models.PositiveIntegerField(default=0)
    elo_before = models.FloatField(null=True, blank=True)
    elo_after = models.FloatField(null=True, blank=True)
    mu_before = models.FloatField(null=True, blank=True)
    mu_after = models.FloatField(null=True, blank=True)
    sigma_before = models.FloatField(null=True, blank=True)
    sigma_after = models.FloatField(null=True, blank=True)

    class Meta:
        ordering = ["match_id", "seat"]
        constraints = [models.UniqueConstraint(fields=["match", "seat"], name="participant_unique_seat")]
        indexes = [models.Index(fields=["bot", "match"], name="participant_bot_match"),
                   models.Index(fields=["version", "match"], name="participant_version_match")]

    def __str__(self) -> str:
        return f"{self.match_id} seat {self.seat}: {self.version}"

    @property
    def elo_change(self) -> float | None:
        if self.elo_before is None or self.elo_after is None:
            return None
        return self.elo_after - self.elo_before
