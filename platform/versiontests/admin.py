from django.contrib import admin

from .models import Pair, VersionTest


class PairInline(admin.TabularInline):
    model = Pair
    extra = 0
    readonly_fields = ["number", "seed", "seat", "match_a", "match_b", "score", "void"]
    can_delete = False


@admin.register(VersionTest)
class VersionTestAdmin(admin.ModelAdmin):
    list_display = ["id", "bot", "version_a", "version_b", "ladder", "status", "pairs", "llr", "created_at"]
    list_filter = ["status", "ladder"]
    search_fields = ["bot__name", "owner__username"]
    raw_id_fields = ["owner", "bot", "version_a", "version_b"]
    readonly_fields = ["pairs", "void_pairs", "counts", "llr", "result", "created_at", "finished_at"]
    inlines = [PairInline]


@admin.register(Pair)
class PairAdmin(admin.ModelAdmin):
    list_display = ["id", "test", "number", "seat", "match_a", "match_b", "score", "void"]
    list_filter = ["void"]
    raw_id_fields = ["test", "match_a", "match_b"]
