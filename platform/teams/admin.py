from django.contrib import admin

from .models import Invitation, Membership, Team


class MembershipInline(admin.TabularInline):
    model = Membership
    raw_id_fields = ("user",)
    extra = 0


@admin.register(Team)
class TeamAdmin(admin.ModelAdmin):
    list_display = ("id", "name", "slug", "created_at", "deleted_at")
    search_fields = ("name", "slug")
    inlines = [MembershipInline]

    def get_queryset(self, request):
        return Team.all_teams.all()  # deleted teams too (kept for their retired bots: teams.services.delete_team)


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    list_display = ("id", "team", "invitee", "key_prefix", "status", "expires_at")
    list_filter = ("status",)
    raw_id_fields = ("team", "invited_by", "invitee", "accepted_by")
    readonly_fields = ("key_digest",)
