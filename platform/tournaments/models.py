"""Scheduled tournaments: entrants pinned to bot versions, rounds, and the games (matches) of each round.

A tournament goes scheduled → running → finished (or cancelled). At its start time the scheduler locks the
entries (each pinned to its bot's ready version then; a bot without one forfeits every game, with the reason
shown), seeds them by ladder rating, and queues round 1; each next round is made when the previous one is done,
from the results so far (`tournaments.schedule`). Tournament matches are `Match(kind=tournament, rated=False)`:
they never touch ladder ratings.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from ladders.game_settings import GameSettings
from matches.seeds import new_seed

from . import schedule


class Tournament(GameSettings):
    class Format(models.TextChoices):
        ROUND_ROBIN = "round_robin", _("Round robin")
        SWISS = "swiss", _("Swiss")
        KNOCKOUT = "knockout", _("Knockout")

    class Status(models.TextChoices):
        SCHEDULED = "scheduled", _("Scheduled")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")
        CANCELLED = "cancelled", _("Cancelled")

    name = models.CharField(max_length=128)
    players = models.PositiveSmallIntegerField(help_text="Players per table (2–4; knockout: 2).")
    format = models.CharField(max_length=16, choices=Format.choices, default=Format.ROUND_ROBIN)
    duplicate = models.BooleanField(default=False, help_text="Play each table once per rotation of its seats "
                                                             "with one seed, scored together.")
    games_per_pairing = models.PositiveSmallIntegerField(default=1)
    entries_per_entrant = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="At most this many bots of one entrant (a person, or a team: all its "
                                         "bots count together, `botregistry.ownership.entrant`); empty: no limit.")
    rounds_planned = models.PositiveSmallIntegerField(null=True, blank=True,
                                                      help_text="Swiss: rounds to play (default: log of the "
                                                                "field); set for every format at the start.")
    starts_at = models.DateTimeField()
    seed = models.BigIntegerField(
        default=new_seed, help_text="The tournament's secret: every game seed is derived from it (HMAC), so it is "
                                    "random by default and shown to staff only until the tournament ends.")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.SCHEDULED, db_index=True)
    status_reason = models.TextField(blank=True, default="")
    current_round = models.PositiveSmallIntegerField(default=0)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    final_standings = models.JSONField(null=True, blank=True, help_text="The final table, frozen at the end.")

    class Meta:
        ordering = ["-starts_at", "-id"]

    def __str__(self) -> str:
        return self.name

    @property
    def total_rounds(self) -> int | None:
        """Rounds the tournament will have, when known in advance (knockout: once entries are locked)."""
        if self.rounds_planned:
            return self.rounds_planned  # set for every format when the tournament starts
        n = self.entries.count()
        if n < self.players:
            return None
        if self.format == self.Format.SWISS:
            return schedule.swiss_rounds(n, self.players)
        if self.format == self.Format.ROUND_ROBIN:
            return None  # known once the schedule is made at the start
        size = 1
        rounds = 0
        while size < n:
            size, rounds = size * 2, rounds + 1
        return rounds


class Entry(models.Model):
    """A bot entered in a tournament. `version` is pinned when the tournament starts; a bot that has no ready
    version then (or whose pinned version is suspended later) forfeits its games, `forfeit_reason` says why."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    bot = models.ForeignKey("botregistry.Bot", on_delete=models.CASCADE, related_name="tournament_entries")
    version = models.ForeignKey("botregistry.BotVersion", null=True, blank=True, on_delete=models.RESTRICT,
                                related_name="tournament_entries")
    seeding = models.PositiveIntegerField(default=0, help_text="1 = top seed; set at the start.")
    forfeit_reason = models.TextField(blank=True, default="")
    byes = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament_id", "seeding", "id"]
        constraints = [models.UniqueConstraint(fields=["tournament", "bot"], name="entry_unique_bot")]
        verbose_name_plural = "entries"

    def __str__(self) -> str:
        return f"{self.bot} in {self.tournament}"

    def clean(self) -> None:
        """An entry's bot plays the tournament's game (else the tournament would be cancelled at its start)."""
        from django.core.exceptions import ValidationError

        if self.bot_id and self.tournament_id and self.bot.game != self.tournament.game:
            raise ValidationError({"bot": f"{self.bot.name} plays {self.bot.game}, this tournament is "
                                          f"{self.tournament.game}"})


class Round(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    byes = models.ManyToManyField(Entry, blank=True, related_name="bye_rounds")
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament_id", "number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="round_unique_number")]

    def __str__(self) -> str:
        return f"{self.tournament} round {self.number}"


class Game(models.Model):
    """One scheduled game of a round. `match` is the platform match that plays it; a game with a forfeiting
    entrant is not played (`match` empty) and is decided by `forfeit` instead: the forfeiting seats rank last."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="games")
    table = models.PositiveSmallIntegerField(help_text="Position of the game in its round.")
    set_key = models.CharField(max_length=64, blank=True, default="",
                               help_text="Games sharing a key form one duplicate set.")
    seed = models.BigIntegerField()
    seats = models.JSONField(help_text="Entry ids in seat order.")
    match = models.OneToOneField("matches.Match", null=True, blank=True, on_delete=models.SET_NULL,
                                 related_name="tournament_game")
    forfeit = models.JSONField(null=True, blank=True, help_text="{entry id: reason} of seats that forfeited.")

    class Meta:
        ordering = ["round_id", "table"]
        constraints = [models.UniqueConstraint(fields=["round", "table"], name="game_unique_table")]

    def __str__(self) -> str:
        return f"{self.round} game {self.table}"
