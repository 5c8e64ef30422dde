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
    listed = models.BooleanField(
        default=True, help_text="A public ladder: listed with the others, every bot of its game enrolled on it. "
                                "A competition's own ladder is not: only its entries play there.")
    season_started_at = models.DateTimeField(
        null=True, blank=True, help_text="When the current season began (staff closed the one before: "
                                         "competitions.seasons); the ratings are fitted from its games only.")
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

    `rating` ± `rating_interval` is "the bot's rating" wherever one is shown: its active version's
    `VersionRating`, the fit of the ladder's rated games with its 95% interval (ladders.rating_fit), refitted
    periodically, and set at once to the previous version's wider prior when the active version changes. `elo`
    is the incremental Elo a match moves at once (each participant's elo_before/after), and μ/σ OpenSkill's: kept
    in the API for its clients, shown on no page (they pool every version and have no interval of their own)."""

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


class VersionRating(models.Model):
    """One bot version's fitted rating on one ladder (ladders.rating_fit: each version is a player of the fit,
    chained to the bot's version before by a prior), as of the ladder's last refit. `games`: that version's
    rated games on the ladder in that fit."""

    ladder = models.ForeignKey(Ladder, on_delete=models.CASCADE, related_name="version_ratings")
    version = models.ForeignKey("botregistry.BotVersion", on_delete=models.CASCADE, related_name="ratings")
    rating = models.FloatField(help_text="Fitted rating, Elo scale (the ladder's mean is the initial Elo).")
    rating_interval = models.FloatField(help_text="Half-width of the rating's 95% interval.")
    games = models.PositiveIntegerField(default=0)
    fitted_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["ladder", "version"], name="version_rating_unique")]
        ordering = ["ladder", "version"]

    def __str__(self) -> str:
        return f"{self.version} on {self.ladder}: {self.rating:.0f} ± {self.rating_interval:.0f}"


class RatingHistory(models.Model):
    """A version's fitted rating at one refit: the bot page's chart, one series per version. A refit adds a
    point for a version whose games changed, at most one per `ARENA_RATING["history_every"]` seconds (and always
    its first), so an active ladder does not write a row per version per minute."""

    ladder = models.ForeignKey(Ladder, on_delete=models.CASCADE, related_name="rating_history")
    version = models.ForeignKey("botregistry.BotVersion", on_delete=models.CASCADE, related_name="rating_history")
    at = models.DateTimeField()
    rating = models.FloatField()
    rating_interval = models.FloatField()
    games = models.PositiveIntegerField()

    class Meta:
        indexes = [models.Index(fields=["ladder", "version", "at"], name="rating_history_series")]
        ordering = ["at", "id"]
