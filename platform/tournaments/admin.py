from typing import ClassVar

from django.contrib import admin
from django.core.exceptions import ValidationError
from django.forms.models import BaseInlineFormSet

from .api import over_limit
from .models import Entry, Game, Round, Tournament


class EntryFormSet(BaseInlineFormSet):
    """Refuses, when the tournament is saved, entries whose bot plays another game than the tournament's, and
    more entries of one entrant (a person, or a team's bots together) than its `entries_per_entrant`, as the API
    does (the tournament as submitted: a changed game or limit is checked against every entry kept)."""

    def clean(self):
        super().clean()
        game = self.instance.game
        wrong = []
        kept = []
        for form in self.forms:
            data = getattr(form, "cleaned_data", None) or {}
            bot = data.get("bot") or (form.instance.bot if form.instance.pk else None)
            if bot is None or data.get("DELETE"):
                continue
            kept.append(bot)
            if bot.game != game:
                wrong.append(f"{bot.name} ({bot.game})")
        if wrong:
            raise ValidationError(f"These entries play another game than {game}: {', '.join(wrong)}. "
                                  f"Remove them or pick the bots' game.")
        limit = self.instance.entries_per_entrant
        if limit is not None and (over := over_limit(kept, limit)):
            raise ValidationError(f"{over}: remove entries or raise the limit.")


class EntryInline(admin.TabularInline):
    model = Entry
    formset = EntryFormSet
    extra = 2
    fields = ("bot", "version", "seeding", "forfeit_reason")
    readonly_fields: ClassVar[tuple[str, ...]] = ("version", "seeding", "forfeit_reason")
    autocomplete_fields = ()


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "game", "players", "format", "duplicate", "starts_at", "status", "current_round")
    list_filter = ("status", "game", "format")
    search_fields = ("name",)
    readonly_fields = ("status", "status_reason", "current_round", "started_at", "finished_at", "final_standings",
                       "created_by")
    inlines = [EntryInline]

    def save_model(self, request, obj, form, change):
        if not change and obj.created_by_id is None:
            obj.created_by = request.user
        super().save_model(request, obj, form, change)

    def get_readonly_fields(self, request, obj=None):
        # Entries and the set-up lock at the start.
        fields = list(super().get_readonly_fields(request, obj))
        if obj is not None and obj.status != Tournament.Status.SCHEDULED:
            fields += ["game", "players", "params", "format", "duplicate", "games_per_pairing", "rounds_planned",
                       "starts_at", "seed", "decision_ms", "bank_ms", "startup_ms", "max_faults",
                       "auto_single_action"]
        return fields

    def get_inlines(self, request, obj):
        return [EntryInline] if obj is None or obj.status == Tournament.Status.SCHEDULED else [LockedEntryInline]


class LockedEntryInline(EntryInline):
    extra = 0
    can_delete = False
    readonly_fields = ("bot", "version", "seeding", "forfeit_reason")

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ("tournament", "number", "started_at", "finished_at")


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("round", "table", "set_key", "seed", "match")
    raw_id_fields = ("match",)
