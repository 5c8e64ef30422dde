"""Tables with several people (lichess's "play with a friend"): a person sets a table for a game (their seat,
which other seats people take and which bots play, a clock) and shares its invitation link; people signed in
take the free seats through it; once every person's seat is taken the table's match (kind human,
`matches.services.seat_people`) is queued and everyone at the table is sent to it.

The invitation's key (256 random bits) is shown to its creator only; only its SHA-256 is stored. A table is open
until its match starts, its creator cancels it, or it expires (`ARENA_TABLE_SECONDS`).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class Table(models.Model):
    class Status(models.TextChoices):
        OPEN = "open"
        STARTED = "started"
        CANCELLED = "cancelled"
        EXPIRED = "expired"

    creator = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tables")
    game = models.CharField(max_length=32)
    players = models.PositiveSmallIntegerField()
    clock = models.JSONField(default=dict, help_text="The people's clock preset: decision_ms and bank_ms.")
    key_digest = models.CharField(max_length=64, unique=True,
                                  help_text="SHA-256 of the invitation's key (the key itself is not kept).")
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.OPEN, db_index=True)
    reason = models.CharField(max_length=200, blank=True, default="", help_text="Why it was cancelled.")
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(db_index=True)
    match = models.OneToOneField("matches.Match", null=True, blank=True, on_delete=models.SET_NULL,
                                 related_name="table")

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"table {self.pk}: {self.game} {self.players}p ({self.status})"


class TableSeat(models.Model):
    """One seat: a bot's (`version`), or a person's (`person`, empty while the seat is free)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    version = models.ForeignKey("botregistry.BotVersion", null=True, blank=True, on_delete=models.CASCADE,
                                related_name="+")
    person = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE,
                               related_name="table_seats")
    taken_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["table", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["table", "seat"], name="table_seat_once"),
            models.UniqueConstraint(fields=["table", "person"], name="table_person_once"),
            models.CheckConstraint(condition=Q(version__isnull=True) | Q(person__isnull=True),
                                   name="table_seat_bot_or_person"),
        ]

    @property
    def is_bot(self) -> bool:
        return self.version_id is not None
