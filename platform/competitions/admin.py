"""Admin: staff grant the organizer role, look after competitions (entries read-only once locked: the locked
versions never change) and close the public ladders' seasons (an action on Season's list page is not needed:
adding a Season closes one through `competitions.seasons.close_season`)."""

from typing import ClassVar

from django.contrib import admin, messages
from django.utils import timezone

from ladders.models import Ladder

from .models import Competition, Entry, Organizer, Season
from .seasons import close_season


@admin.register(Organizer)
class OrganizerAdmin(admin.ModelAdmin):
    list_display = ("user", "granted_by", "granted_at")
    autocomplete_fields = ("user",)
    readonly_fields = ("granted_by", "granted_at")
    search_fields = ("user__username",)

    def save_model(self, request, obj, form, change):
        if not change:
            obj.granted_by = request.user
        super().save_model(request, obj, form, change)


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    fields = ("bot", "entrant_team", "entrant_user", "locked_version", "lock_note", "disqualified_reason")
    readonly_fields: ClassVar[tuple[str, ...]] = ("bot", "entrant_team", "entrant_user", "locked_version",
                                                  "lock_note")
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False  # entrants enter through the site or the API (the entry rules live in one place)


@admin.register(Competition)
class CompetitionAdmin(admin.ModelAdmin):
    list_display = ("title", "slug", "game", "players", "private", "deadline", "final_at", "results_published_at")
    list_filter = ("game", "private", "policy")
    search_fields = ("title", "slug")
    filter_horizontal = ("organizers", "invited_users", "invited_teams")
    readonly_fields = ("ladder", "final", "locked_at", "opened_notified_at", "reminded_at", "results_published_at",
                       "result", "invite_digest", "created_by", "created_at")
    inlines: ClassVar[list] = [EntryInline]

    def has_delete_permission(self, request, obj=None):
        return obj is None or obj.locked_at is None  # an archive is kept forever once versions are locked


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ("ladder", "number", "started_at", "closed_at", "closed_by")
    list_filter = ("ladder",)
    readonly_fields = ("number", "started_at", "closed_at", "closed_by", "table")

    def get_fields(self, request, obj=None):
        return ("ladder",) if obj is None else ("ladder", "number", "started_at", "closed_at", "closed_by", "table")

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name == "ladder":
            kwargs["queryset"] = Ladder.objects.filter(listed=True)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def save_model(self, request, obj, form, change):
        """Adding a season closes the ladder's current one: its table is kept, its ratings start again."""
        if change:
            return
        season = close_season(obj.ladder, request.user, timezone.now())
        obj.pk = season.pk
        messages.info(request, f"{obj.ladder} season {season.number} closed; ratings start again from scratch.")

    def has_change_permission(self, request, obj=None):
        return obj is None
