from django.contrib import admin

from .models import Table, TableSeat


class TableSeatInline(admin.TabularInline):
    model = TableSeat
    raw_id_fields = ("person", "version")
    extra = 0


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("id", "creator", "game", "players", "status", "created_at", "expires_at", "match")
    list_filter = ("status", "game")
    raw_id_fields = ("creator", "match")
    readonly_fields = ("key_digest",)
    inlines = [TableSeatInline]
