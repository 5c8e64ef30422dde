from django.contrib import admin

from .models import NotificationSettings


@admin.register(NotificationSettings)
class NotificationSettingsAdmin(admin.ModelAdmin):
    list_display = ("user", "email", "webhook_url", "updated_at")
    search_fields = ("user__username", "webhook_url")
    exclude = ("webhook_secret",)  # the owner's signing key: not for staff eyes
