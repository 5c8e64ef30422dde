"""Ladders (one per game, player count and time control) and the ratings of bots on them."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from ladders.game_settings import GameSettings


class Ladder(GameSettings):
    """One ladder: its game, options and time control (GameSettings) and whether matchmaking plays it."""

    slug = models.SlugField(max_length=64, unique=True)
    name = models.CharField(max_length=128)
    players = models.PositiveSmallIntegerField()
    active = models.BooleanField(default=True, help_text="Matchmaking plays this ladder.")
    created_at = models.DateTimeField(auto_now_add=True)
    # the last fit of the leaderboard ratings (ladders.services.refit_ratings)
    fitted_games = models.PositiveIntegerField(default=0, help_text="Rated games in the last rating fit.")
    fitted_at = models.DateTimeField(null=True, blank=True)
    dispersion = models.FloatField(
        default=1.0, help_text="The last fit's φ: how much more a game's seats vary than independent pairs.")

    class Meta:
        ordering = ["game", "players", "id"]

    def __str__(self) -> str:
        return self.name


def _initial_elo() -> float:
    return settings.ARENA_RATING["initial_elo"]


class Rating(models.Model):
    """A bot's standing on one ladder.

    `rating` ± `rating_interval` is the leaderboard's: the maximum-likelihood fit over all of the ladder's rated
    games with its 95% interval (ladders.rating_fit), refitted periodically. `elo` is the incremental Elo a
    match moves at once (each participant's elo_before/after), and μ/σ OpenSkill's; neither has an interval of
    its own that the leaderboard could show."""

    ladder = models.ForeignKey(Ladder, on_delete=models.CASCADE, related_name="ratings")
    bot = models.ForeignKey("botregistry.Bot", on_delete=models.CASCADE, related_name="ratings")
    rating = models.FloatField(default=_initial_elo, help_text="Fitted rating, Elo scale (the ladder's mean is "
                                                               "the initial Elo).")
    rating_interval = models.FloatField(null=True, blank=True,
                                        help_text="Half-width of the rating's 95% interval; null before a fit.")
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
        indexes = [models.Index(fields=["ladder", "-elo"], name="rating_leaderboard"),
                   models.Index(fields=["ladder", "-rating"], name="rating_fitted_leaderboard")]
        ordering = ["-rating", "id"]

    def __str__(self) -> str:
        return f"{self.bot} on {self.ladder}: {self.rating:.0f}"

    @property
    def provisional(self) -> bool:
        """Fewer than `provisional_games` games in all, or fewer than `new_version_provisional_games` since the
        bot's active version last changed."""
        return self.games < max(settings.ARENA_RATING["provisional_games"], self.provisional_until)

    @property
    def ordinal(self) -> float:
        """OpenSkill's conservative skill estimate μ − 3σ."""
        return self.mu - 3 * self.sigma
