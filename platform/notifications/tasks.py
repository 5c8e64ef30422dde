"""Sending what `notifications.services.notify` queued: one email, one webhook delivery (retried with backoff)."""

from __future__ import annotations

import logging

from celery import shared_task
from django.conf import settings
from django.core.mail import send_mail

from . import webhooks

log = logging.getLogger("arena.notifications")


@shared_task(name="notifications.tasks.send_email", ignore_result=True)
def send_email(address: str, subject: str, text: str) -> str:
    """One plain-text email through Django's email backend (SMTP in production, files under var/mail on
    embedded defaults). A failure is logged, not retried: mail servers queue and retry themselves."""
    try:
        send_mail(subject, text, None, [address])
    except Exception:
        log.exception("could not send %r", subject)
        return "failed"
    return "sent"


def backoff(retries_so_far: int) -> float:
    """Seconds before the next try: `ARENA_WEBHOOK["backoff"]` doubling each time, at most an hour."""
    return float(min(3600.0, settings.ARENA_WEBHOOK["backoff"] * 2 ** retries_so_far))


@shared_task(bind=True, name="notifications.tasks.deliver_webhook", ignore_result=True, max_retries=None)
def deliver_webhook(self, user_id: int, event: str, body: str, delivery: str) -> str:
    """POST `body` to the user's webhook as it is now (a URL removed meanwhile gets nothing), signed with their
    secret, each try within `ARENA_WEBHOOK["timeout"]` seconds in all. A 5xx, 408, 429 or network failure is
    tried again after `backoff`, up to `ARENA_WEBHOOK["retries"]` more times; any other answer, or a URL that is
    no longer allowed, ends it. Each try carries the same `X-Arena-Delivery`, so a receiver can drop a repeat."""
    from .models import NotificationSettings

    prefs = NotificationSettings.objects.filter(user_id=user_id).first()
    if prefs is None or not prefs.webhook_url:
        return "no webhook"
    headers = {"X-Arena-Event": event, "X-Arena-Delivery": delivery}
    try:
        webhooks.post(prefs.webhook_url, prefs.webhook_secret, body.encode(), headers,
                      settings.ARENA_WEBHOOK["timeout"])
    except webhooks.WebhookRefused as exc:
        log.warning("webhook of user %s not called: %s", user_id, exc)
        return "refused"
    except webhooks.DeliveryFailed as exc:
        tries = self.request.retries
        if not exc.retry or tries >= settings.ARENA_WEBHOOK["retries"]:
            log.warning("webhook delivery %s to user %s failed for good after %d tries: %s",
                        delivery, user_id, tries + 1, exc)
            return "failed"
        log.info("webhook delivery %s to user %s failed (%s); trying again", delivery, user_id, exc)
        raise self.retry(countdown=backoff(tries)) from None
    return "delivered"
