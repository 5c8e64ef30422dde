from django.contrib import admin, messages

from matches import services
from matches.models import Match, Participant
from matches.storage import storage_low


class ParticipantInline(admin.TabularInline):
    model = Participant
    extra = 0
    raw_id_fields = ("bot", "version")
    fields = ("seat", "bot", "version", "score", "rank", "disqualified", "faults", "elo_before", "elo_after")


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ("id", "kind", "game", "ladder", "status", "attempts", "created_at", "finished_at")
    list_filter = ("status", "kind", "game", "ladder")
    raw_id_fields = ("requested_by",)
    # The seed is made by `matches.seeds.new_seed`, never typed in: read-only here, shown to staff only.
    readonly_fields = ("seed", "result", "heartbeat_at", "sent_at", "worker", "engine_version", "replay_path")
    exclude = ("unwritten_replay", "unwritten_logs")
    inlines = [ParticipantInline]
    actions = ["cancel"]

    def changelist_view(self, request, extra_context=None):
        low = storage_low()
        if low:  # staff see why no new ladder matches appear (matches.storage)
            messages.warning(request, f"Matchmaking is paused: {low}.")
        return super().changelist_view(request, extra_context)

    @admin.action(description="Cancel the selected queued matches")
    def cancel(self, request, queryset):
        # through the service, so whatever waits on these matches hears of it (match_ended)
        services.cancel(list(queryset.values_list("pk", flat=True)), f"cancelled by {request.user}")


@admin.register(Participant)
class ParticipantAdmin(admin.ModelAdmin):
    list_display = ("match", "seat", "bot", "version", "score", "rank", "disqualified", "elo_before", "elo_after")
    raw_id_fields = ("match", "bot", "version")
