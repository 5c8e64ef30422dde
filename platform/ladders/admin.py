from django.contrib import admin

from ladders.models import Ladder, Rating


@admin.register(Ladder)
class LadderAdmin(admin.ModelAdmin):
    list_display = ("slug", "name", "game", "players", "decision_ms", "bank_ms", "active")
    list_filter = ("game", "players", "active")
    list_editable = ("active",)
    prepopulated_fields = {"slug": ("name",)}


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    list_display = ("bot", "ladder", "elo", "mu", "sigma", "games", "wins", "last_played_at")
    list_filter = ("ladder",)
    search_fields = ("bot__name", "bot__owner__username")
    raw_id_fields = ("bot",)
