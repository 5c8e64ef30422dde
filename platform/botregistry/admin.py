from django.contrib import admin

from botregistry import services
from botregistry.models import Bot, BotVersion


class BotVersionInline(admin.TabularInline):
    model = BotVersion
    extra = 0
    fields = ("number", "status", "status_reason", "runtime", "sha256", "created_at")
    readonly_fields = fields
    show_change_link = True
    can_delete = False


@admin.register(Bot)
class BotAdmin(admin.ModelAdmin):
    list_display = ("id", "name", "owner", "game", "builtin", "active_version", "created_at")
    list_filter = ("game", "builtin")
    search_fields = ("name", "owner__username")
    raw_id_fields = ("owner", "active_version")
    inlines = [BotVersionInline]

    def save_model(self, request, obj, form, change):
        # A change of the active version goes through the service, which widens the bot's ratings.
        new_version = obj.active_version
        if change and "active_version" in form.changed_data and new_version is not None:
            obj.active_version_id = form.initial.get("active_version")
            super().save_model(request, obj, form, change)
            services.set_active_version(obj, new_version)
        else:
            super().save_model(request, obj, form, change)


@admin.register(BotVersion)
class BotVersionAdmin(admin.ModelAdmin):
    list_display = ("id", "bot", "number", "status", "runtime", "created_at", "validated_at")
    list_filter = ("status", "runtime")
    search_fields = ("bot__name", "bot__owner__username", "sha256")
    raw_id_fields = ("bot",)
    readonly_fields = ("sha256", "archive_sha256", "archive_size", "archive_path", "package_dir", "manifest",
                       "created_at", "validated_at", "suspended_at")
    actions = ["suspend", "reinstate"]

    @admin.action(description="Suspend the selected versions")
    def suspend(self, request, queryset):
        from django.utils import timezone
        queryset.update(status=BotVersion.Status.SUSPENDED, status_reason=f"suspended by {request.user}",
                        suspended_at=timezone.now())

    @admin.action(description="Reinstate the selected suspended versions (ready again)")
    def reinstate(self, request, queryset):
        queryset.filter(status=BotVersion.Status.SUSPENDED).update(status=BotVersion.Status.READY,
                                                                   status_reason="", suspended_at=None)
