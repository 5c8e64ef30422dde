"""A version test: "is version B of my bot better than version A?", settled by an SPRT on paired games.

Each `Pair` is one deal (seed, seat of the tested bot, opponents) played twice: once with version A in the
tested seat (`match_a`), once with version B (`match_b`). Its `score` is B's result over A's (see `stats`).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from . import stats


class VersionTest(models.Model):
    class Status(models.TextChoices):
        RUNNING = "running", _("Running")
        ACCEPTED = "accepted", _("Accepted")    # B is better by elo1 (LLR reached the upper bound)
        REJECTED = "rejected", _("Rejected")    # B is not better than elo0 (LLR reached the lower bound)
        STOPPED = "stopped", _("Stopped")      # no decision: max pairs reached, or no opponents / too many failed matches

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="version_tests")
    bot = models.ForeignKey("botregistry.Bot", on_delete=models.CASCADE, related_name="version_tests")
    version_a = models.ForeignKey("botregistry.BotVersion", on_delete=models.CASCADE, related_name="+",
                                  help_text="The base version.")
    version_b = models.ForeignKey("botregistry.BotVersion", on_delete=models.CASCADE, related_name="+",
                                  help_text="The new version, tested against the base.")
    ladder = models.ForeignKey("ladders.Ladder", on_delete=models.CASCADE, related_name="version_tests",
                               help_text="Game, player count, time control and opponent pool.")
    elo0 = models.FloatField(default=stats.DEFAULT_ELO0)
    elo1 = models.FloatField(default=stats.DEFAULT_ELO1)
    max_pairs = models.PositiveIntegerField(default=400)
    promote = models.BooleanField(default=False,
                                  help_text="When accepted, version B becomes the bot's active version.")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.RUNNING, db_index=True)
    status_reason = models.TextField(blank=True, default="")
    pairs = models.PositiveIntegerField(default=0, help_text="Pairs with both games finished.")
    void_pairs = models.PositiveIntegerField(default=0, help_text="Pairs dropped: one of their matches failed.")
    counts = models.JSONField(default=list, blank=True, help_text="Pair-score counts on the stats grid.")
    llr = models.FloatField(default=0.0)
    result = models.JSONField(default=dict, blank=True, help_text="stats.Summary.to_dict().")
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]

    def __str__(self) -> str:
        return f"{self.bot}: v{self.version_b.number} vs v{self.version_a.number} ({self.status})"

    @property
    def lower(self) -> float:
        return stats.bounds()[0]

    @property
    def upper(self) -> float:
        return stats.bounds()[1]

    @property
    def llr_percent(self) -> float:
        """Where the LLR stands between the bounds, 0–100 (for the bar on the bot page)."""
        lo, hi = stats.bounds()
        return max(0.0, min(100.0, 100.0 * (self.llr - lo) / (hi - lo)))

    @property
    def estimate(self) -> str:
        """B over A in Elo with its 95% interval, e.g. "+35 [+10, +62]" ("—" before the first pair)."""
        r = self.result or {}
        if not r.get("pairs"):
            return "—"

        def fmt(x: float | None, inf: str) -> str:
            return inf if x is None else f"{x:+.0f}"
        return f"{fmt(r.get('elo'), '?')} [{fmt(r.get('elo_low'), '−∞')}, {fmt(r.get('elo_high'), '+∞')}]"


class Pair(models.Model):
    test = models.ForeignKey(VersionTest, on_delete=models.CASCADE, related_name="pair_set")
    number = models.PositiveIntegerField()
    seed = models.BigIntegerField()
    seat = models.PositiveSmallIntegerField(help_text="The tested bot's seat in both games.")
    match_a = models.OneToOneField("matches.Match", on_delete=models.CASCADE, related_name="version_pair_a")
    match_b = models.OneToOneField("matches.Match", on_delete=models.CASCADE, related_name="version_pair_b")
    score = models.FloatField(null=True, blank=True, help_text="B over A on this deal, in [0, 1].")
    void = models.BooleanField(default=False, help_text="A match of the pair failed: it does not count.")

    class Meta:
        ordering = ["test", "number"]
        constraints = [models.UniqueConstraint(fields=["test", "number"], name="versiontest_pair_number")]

    @property
    def done(self) -> bool:
        return self.score is not None or self.void
