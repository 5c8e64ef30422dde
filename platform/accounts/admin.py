from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin

from accounts import deletion
from accounts.models import ApiToken


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    """Staff see and revoke tokens; the keys themselves are not stored, so nobody can read them here."""

    list_display = ("prefix", "user", "created_at", "last_used_at")
    search_fields = ("user__username", "prefix")
    readonly_fields = ("user", "digest", "prefix", "created_at", "last_used_at")

    def has_add_permission(self, request):
        return False


# Staff delete accounts the way their owners do (`accounts.deletion`): Django's own delete would cascade from the
# user to their bots and so to every match, seat and rating those bots were part of, others' included.
User = get_user_model()
admin.site.unregister(User)


@admin.register(User)
class ArenaUserAdmin(UserAdmin):
    actions = ["delete_accounts"]

    def get_actions(self, request):
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)  # the cascading delete
        return actions

    def has_delete_permission(self, request, obj=None):
        return False  # no cascading delete from the change page either: the action below keeps the matches

    @admin.action(description="Delete the selected accounts (bots retired, matches kept)",
                  permissions=["change"])
    def delete_accounts(self, request, queryset):
        deleted = sum(deletion.delete_account(user) for user in queryset.exclude(pk=request.user.pk))
        self.message_user(request, f"{deleted} account(s) deleted; their bots are retired, their matches kept.")
