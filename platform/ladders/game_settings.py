"""`GameSettings`: what a ladder and a tournament both fix for every match they play — the game, its options and
the time control — as an abstract model, so both store them alike and turn them into a match the same way."""

from __future__ import annotations

from django.db import models

from arena.match.types import TimeControl


class GameSettings(models.Model):
    """Fields `game`, `params`, `decision_ms`, `bank_ms`, `startup_ms`, `max_faults`, `auto_single_action`; a
    subclass declares its own `players` (the player count, its help text its own)."""

    game = models.CharField(max_length=32)
    params = models.JSONField(default=dict, blank=True, help_text="Game options besides the player count.")
    decision_ms = models.PositiveIntegerField(default=TimeControl.decision_ms)
    bank_ms = models.PositiveIntegerField(default=TimeControl.bank_ms)
    startup_ms = models.PositiveIntegerField(default=TimeControl.startup_ms)
    max_faults = models.PositiveSmallIntegerField(default=TimeControl.max_faults)
    auto_single_action = models.BooleanField(
        default=TimeControl.auto_single_action,
        help_text="Apply a decision that has exactly one legal action without asking the bot (no time charged).")

    players: int

    class Meta:
        abstract = True

    @property
    def time_control(self) -> TimeControl:
        return TimeControl(decision_ms=self.decision_ms, bank_ms=self.bank_ms, startup_ms=self.startup_ms,
                           max_faults=self.max_faults, auto_single_action=self.auto_single_action)

    @property
    def game_params(self) -> dict:
        return {"players": self.players, **self.params}
