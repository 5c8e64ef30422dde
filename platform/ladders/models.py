"""Ladders (one per game, player count and time control) and the ratings of bots on them."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from matches.game_settings import GameSettings


class Ladder(GameSettings):
    """One ladder: its game, options and time control (GameSettings) and whether matchmaking plays it."""

    slug = models.SlugField(max_length=64, unique=True)
    name = models.CharField(max_length=128)
    players = models.PositiveSmallIntegerField()
    active = models.BooleanField(default=True, help_text="Matchmaking plays this ladder.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "players", "id"]

    def __str__(self) -> str:
        return self.name


def _initial_elo() -> float:
    return settings.ARENA_RATING["initial_elo"]


class Rating(models.Model):
    """A bot's standing on one ladder: Elo (pairwise from finishing orders) and OpenSkill μ/σ as uncertainty."""

    ladder = models.ForeignKey(Ladder, on_delete=models.CASCADE, related_name="ratings")
    bot = models.ForeignKey("botregistry.Bot", on_delete=models.CASCADE, related_name="ratings")
    elo = models.FloatField(default=_initial_elo)
    mu = models.FloatField(default=25.0)
    sigma = models.FloatField(default=25.0 / 3)
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    provisional_until = models.PositiveIntegerField(
        default=0, help_text="Provisional until `games` reaches this too (set when the bot's version changes).")
    last_played_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["ladder", "bot"], name="rating_unique_bot_per_ladder")]
        indexes = [models.Index(fields=["ladder", "-elo"], name="rating_leaderboard")]
        ordering = ["-elo", "id"]

    def __str__(self) -> str:
        return f"{self.bot} on {self.ladder}: {self.elo:.0f}"

    @property
    def provisional(self) -> bool:
        """Fewer than `provisional_games` games in all, or fewer than `new_version_provisional_games` since the
        bot's active version last changed."""
        return self.games < max(settings.ARENA_RATING["provisional_games"], self.provisional_until)

    @property
    def ordinal(self) -> float:
        """OpenSkill's conservative skill estimate μ − 3σ."""
        return self.mu - 3 * self.sigma
