from django.contrib import admin

from ladders.models import Ladder, Rating, RatingHistory, VersionRating


@admin.register(Ladder)
class LadderAdmin(admin.ModelAdmin):
    list_display = ("slug", "name", "game", "players", "decision_ms", "bank_ms", "active")
    list_filter = ("game", "players", "active")
    list_editable = ("active",)
    prepopulated_fields = {"slug": ("name",)}


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    list_display = ("bot", "ladder", "rating", "rating_interval", "games", "wins", "last_played_at")
    list_filter = ("ladder",)
    search_fields = ("bot__name", "bot__owner__username")
    raw_id_fields = ("bot",)


@admin.register(VersionRating)
class VersionRatingAdmin(admin.ModelAdmin):
    list_display = ("version", "ladder", "rating", "rating_interval", "games", "fitted_at")
    list_filter = ("ladder",)
    search_fields = ("version__bot__name",)
    raw_id_fields = ("version",)


@admin.register(RatingHistory)
class RatingHistoryAdmin(admin.ModelAdmin):
    list_display = ("version", "ladder", "at", "rating", "rating_interval", "games")
    list_filter = ("ladder",)
    raw_id_fields = ("version",)
