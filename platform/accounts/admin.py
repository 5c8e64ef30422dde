from django.contrib import admin

from accounts.models import ApiToken


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    """Staff see and revoke tokens; the keys themselves are not stored, so nobody can read them here."""

    list_display = ("prefix", "user", "created_at", "last_used_at")
    search_fields = ("user__username", "prefix")
    readonly_fields = ("user", "digest", "prefix", "created_at", "last_used_at")

    def has_add_permission(self, request):
        return False
