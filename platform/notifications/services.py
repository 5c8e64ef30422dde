"""Reading and changing an owner's preferences, and `notify`: what the receivers call for each event.

`notify` never talks to a mail server or a webhook itself: it queues Celery tasks (`notifications.tasks`), so a
slow or dead receiver delays nothing of what sent the event (a match's worker included).
"""

from __future__ import annotations

import json
import logging
import uuid
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from accounts.emails import managed_by_allauth, notification_address
from botregistry.services import HOUSE_USERNAME

from . import webhooks
from .events import ALL, Event
from .models import NotificationSettings, new_secret

log = logging.getLogger("arena.notifications")


class PreferencesRefused(ValueError):
    """A change that can't be saved: `errors` maps each field to why (a 400 on the API, a message on the page)."""

    def __init__(self, errors: dict[str, str]):
        super().__init__("; ".join(f"{k}: {v}" for k, v in errors.items()))
        self.errors = errors


def preferences(user) -> NotificationSettings:
    """The user's preferences (the defaults, unsaved, if they never changed them)."""
    found = NotificationSettings.objects.filter(user=user).first()
    return found if found is not None else NotificationSettings(user=user)


def own_preferences(user) -> NotificationSettings:
    """The user's preferences, saved (made with the defaults on first look), so the secret they are shown is the
    one that signs."""
    return NotificationSettings.objects.get_or_create(user=user)[0]


def as_dict(user, prefs: NotificationSettings | None = None) -> dict[str, Any]:
    """What the API and the owner page show: every event with whether it is on, the email switch and address,
    the webhook URL and its signing secret (the owner's own, needed to check signatures)."""
    prefs = prefs or own_preferences(user)
    return {"events": {e: e in prefs.events for e in ALL}, "email": prefs.email, "email_address": user.email,
            "webhook_url": prefs.webhook_url, "webhook_secret": prefs.webhook_secret}


def update(user, *, events: dict[str, bool] | None = None, email: bool | None = None,
           email_address: str | None = None, webhook_url: str | None = None,
           rotate_secret: bool = False) -> NotificationSettings:
    """Change what is given (None: unchanged). `events` maps event names to on/off; the others keep their state.
    A webhook URL Arena would not call (not http(s), a private or loopback address) is refused, saving nothing."""
    errors: dict[str, str] = {}
    if events is not None:
        unknown = sorted(set(events) - set(ALL))
        if unknown:
            errors["events"] = f"unknown events {unknown}; the events are {ALL}"
        elif not all(isinstance(v, bool) for v in events.values()):
            errors["events"] = "each event maps to true or false"
    if email_address:
        try:
            validate_email(email_address)
        except ValidationError:
            errors["email_address"] = "not a valid email address"
    if email_address is not None and email_address != user.email and managed_by_allauth(user):
        # the address of an account that signed up is changed only through verification (accounts.emails)
        errors["email_address"] = ("change your address on /accounts/email/ or with POST /api/auth/email/: "
                                   "Arena mails the new one a link and uses it once you follow it")
    if webhook_url:
        try:
            webhooks.check_url(webhook_url)
        except webhooks.WebhookRefused as exc:
            errors["webhook_url"] = str(exc)
    if errors:
        raise PreferencesRefused(errors)
    with transaction.atomic():
        prefs, _ = NotificationSettings.objects.select_for_update().get_or_create(user=user)
        if events is not None:
            on = set(prefs.events)
            for name, wanted in events.items():
                (on.add if wanted else on.discard)(name)
            prefs.events = [e for e in ALL if e in on]
        if email is not None:
            prefs.email = email
        if webhook_url is not None:
            prefs.webhook_url = webhook_url
        if rotate_secret:
            prefs.webhook_secret = new_secret()
        prefs.save()
        if email_address is not None and email_address != user.email:
            user.email = email_address
            user.save(update_fields=["email"])
    return prefs


def site_url(path: str) -> str:
    return settings.ARENA_SITE_URL.rstrip("/") + path


def notify(user, event: Event, subject: str, text: str, path: str, data: dict[str, Any]) -> list[str]:
    """Tell `user` of `event` as they chose: queue an email and/or a webhook delivery. Returns what was queued
    ("email", "webhook"); nothing for an event they turned off, or for the house account (built-in bots)."""
    from .tasks import deliver_webhook, send_email

    prefs = preferences(user)
    if event.value not in prefs.events or not user.is_active or user.username == HOUSE_USERNAME:
        return []
    link = site_url(path)
    queued = []
    if prefs.email and (address := notification_address(user)):  # a verified address only (accounts.emails)
        # in the language active here: the receivers tell each person in theirs (accounts.language.speaking)
        send_email.delay(address, f"[Arena] {subject}", f"{text}\n\n{link}\n\n"
                         + gettext("Choose what Arena tells you on %(url)s.") % {"url": site_url("/me/")})
        queued.append("email")
    if prefs.webhook_url:
        delivery = uuid.uuid4().hex
        body = json.dumps({"event": event.value, "delivery": delivery, "sent_at": timezone.now().isoformat(),
                           "subject": subject, "text": text, "url": link, "data": data},
                          separators=(",", ":"), sort_keys=True)
        deliver_webhook.delay(user.pk, event.value, body, delivery)
        queued.append("webhook")
    if queued:
        log.info("%s: %s queued for %s", event.value, "+".join(queued), user)
    return queued
