"""An owner's notification preferences: which events, by email and/or by webhook."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models

from .events import ALL


def all_events() -> list[str]:
    return list(ALL)


def new_secret() -> str:
    """The per-user key that signs webhook bodies (256 bits, URL-safe text)."""
    return secrets.token_urlsafe(32)


class NotificationSettings(models.Model):
    """One per user, made on first change; until then every event is on, by email (if the account has an address)
    and no webhook. `events` lists the events turned on."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="notification_settings")
    events = models.JSONField(default=all_events, help_text="Names of the events the owner is told of.")
    email = models.BooleanField(default=True, help_text="Send the chosen events to the account's email address.")
    webhook_url = models.CharField(max_length=500, blank=True, default="",
                                   help_text="POSTed a signed JSON body for each chosen event (http or https).")
    webhook_secret = models.CharField(max_length=64, default=new_secret,
                                      help_text="Signs webhook bodies (X-Arena-Signature-256).")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "notification settings"

    def __str__(self) -> str:
        return f"notifications of {self.user}"
