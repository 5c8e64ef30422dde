"""Competitions that organizers run, and the seasons of the public ladders.

A competition goes upcoming → open (entries and uploads, its own ladder playing) → locked at the submission
deadline (each entry's active version pinned: `Entry.locked_version`) → final (a tournament of the locked
versions, started by itself at `final_at`) → finished (the final's table is the result) → published (at
`results_at`, or when an organizer publishes it). Everything after the deadline is read-only; the archive page
keeps it forever (entries and locked versions are protected from deletion).

A private competition is seen only by its organizers and entrants (`competitions.visibility`) until an organizer
makes it public.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ladders.game_settings import GameSettings


class Organizer(models.Model):
    """The organizer role: staff grant it (admin); an organizer may create competitions and runs those they
    organize. Staff may do everything an organizer may."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="organizer_role")
    granted_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    granted_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"organizer {self.user}"


class Competition(GameSettings):
    class Policy(models.TextChoices):
        ANYONE = "anyone", _("Anyone")
        LINK = "link", _("Invitation link")
        LIST = "list", _("Listed users and teams")

    class FinalFormat(models.TextChoices):  # what tournaments offer (tournaments.models.Tournament.Format)
        ROUND_ROBIN = "round_robin", _("Round robin")
        SWISS = "swiss", _("Swiss")
        KNOCKOUT = "knockout", _("Knockout")

    class Phase(models.TextChoices):
        UPCOMING = "upcoming", _("Upcoming")
        OPEN = "open", _("Open for entries")
        LOCKED = "locked", _("Submissions locked")
        FINAL = "final", _("Final under way")
        FINISHED = "finished", _("Final over, results held")
        PUBLISHED = "published", _("Results published")
        CANCELLED = "cancelled", _("Cancelled")

    slug = models.SlugField(max_length=64, unique=True)
    title = models.CharField(max_length=128)
    description = models.CharField(max_length=500, blank=True, default="", help_text="One paragraph, plain text.")
    rules = models.TextField(blank=True, default="", help_text="Markdown (rendered safely: no raw HTML, no scripts).")
    players = models.PositiveSmallIntegerField(help_text="Players per table (the final's too).")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    organizers = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="organized_competitions")
    entries_open_at = models.DateTimeField()
    deadline = models.DateTimeField(help_text="Submission deadline: each entry's active version is locked then.")
    final_at = models.DateTimeField(help_text="The final starts by itself at this time (after the deadline).")
    results_at = models.DateTimeField(null=True, blank=True,
                                      help_text="Results are published at this time once the final is over; "
                                                "empty: when an organizer publishes them.")
    policy = models.CharField(max_length=8, choices=Policy.choices, default=Policy.ANYONE)
    invite_digest = models.CharField(max_length=64, blank=True, default="",
                                     help_text="SHA-256 of the invitation link's key (the key itself is never "
                                               "stored); empty: no link, or revoked.")
    invited_users = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="+")
    invited_teams = models.ManyToManyField("teams.Team", blank=True, related_name="+")
    entries_per_entrant = models.PositiveSmallIntegerField(default=1, help_text="Bots per person or team.")
    final_format = models.CharField(max_length=16, choices=FinalFormat.choices, default=FinalFormat.ROUND_ROBIN)
    final_duplicate = models.BooleanField(default=False, help_text="Duplicate sets: each table replayed with every "
                                                                   "rotation of its seats on one seed.")
    final_games_per_pairing = models.PositiveSmallIntegerField(default=1)
    final_rounds = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Swiss: rounds to play.")
    private = models.BooleanField(default=False, help_text="Only organizers and entrants see it until made public.")
    cancelled_reason = models.TextField(blank=True, default="")
    ladder = models.OneToOneField("ladders.Ladder", null=True, blank=True, on_delete=models.PROTECT,
                                  related_name="competition")
    final = models.OneToOneField("tournaments.Tournament", null=True, blank=True, on_delete=models.PROTECT,
                                 related_name="competition")
    locked_at = models.DateTimeField(null=True, blank=True)
    opened_notified_at = models.DateTimeField(null=True, blank=True)
    reminded_at = models.DateTimeField(null=True, blank=True)
    results_published_at = models.DateTimeField(null=True, blank=True)
    result = models.JSONField(null=True, blank=True, help_text="The final standings with the competition's "
                                                               "tie-break and disqualifications, frozen at the end.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-deadline", "-id"]

    def __str__(self) -> str:
        return self.title

    @property
    def ladder_pk(self) -> int:
        """Its ladder's id (the ladder is made with the competition: `services.create`)."""
        assert self.ladder_id is not None
        return self.ladder_id

    @property
    def phase_label(self) -> str:
        """The stage now, in words (lists and pages)."""
        return str(self.Phase(self.phase()).label)

    def phase(self, now=None) -> str:
        now = now or timezone.now()
        if self.cancelled_reason:
            return self.Phase.CANCELLED
        if self.results_published_at is not None:
            return self.Phase.PUBLISHED
        if self.result is not None:
            return self.Phase.FINISHED
        if self.final_id is not None:
            return self.Phase.FINAL
        if self.locked_at is not None:
            return self.Phase.LOCKED
        if now >= self.entries_open_at:
            return self.Phase.OPEN
        return self.Phase.UPCOMING


class Entry(models.Model):
    """A bot entered in a competition, for a person or a team (`entrant_*`, fixed at entry: a later transfer of
    the bot does not move the entry). `locked_version` is pinned at the deadline and never changes."""

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="entries")
    bot = models.ForeignKey("botregistry.Bot", on_delete=models.PROTECT, related_name="competition_entries")
    entrant_team = models.ForeignKey("teams.Team", null=True, blank=True, on_delete=models.PROTECT,
                                     related_name="competition_entries")
    entrant_user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                     related_name="competition_entries",
                                     help_text="The person entering (a personal entry's entrant).")
    locked_version = models.ForeignKey("botregistry.BotVersion", null=True, blank=True, on_delete=models.PROTECT,
                                       related_name="competition_entries")
    lock_note = models.CharField(max_length=255, blank=True, default="",
                                 help_text="Why no version was locked (no ready version at the deadline).")
    disqualified_reason = models.TextField(blank=True, default="", help_text="Public.")
    disqualified_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["competition_id", "id"]
        constraints = [models.UniqueConstraint(fields=["competition", "bot"], name="competition_entry_unique_bot")]
        verbose_name_plural = "entries"

    def __str__(self) -> str:
        return f"{self.bot} in {self.competition}"

    @property
    def entrant_key(self) -> tuple[str, int | None]:
        return ("team", self.entrant_team_id) if self.entrant_team_id else ("user", self.entrant_user_id)


class Season(models.Model):
    """A closed season of a public ladder: its final table (kept as it was), and when it ran."""

    ladder = models.ForeignKey("ladders.Ladder", on_delete=models.CASCADE, related_name="seasons")
    number = models.PositiveSmallIntegerField()
    started_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField()
    closed_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                  related_name="+")
    table = models.JSONField(help_text="[{rank, bot_id, bot, owner, rating, rating_interval, games, wins}]")

    class Meta:
        ordering = ["ladder_id", "-number"]
        constraints = [models.UniqueConstraint(fields=["ladder", "number"], name="season_unique_number")]

    def __str__(self) -> str:
        return f"{self.ladder} season {self.number}"
