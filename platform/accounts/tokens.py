"""Making, checking and revoking API tokens (`accounts.models.ApiToken`: only digests are stored).

Clients send `Authorization: Token <key>` as with DRF's own tokens; `accounts.authentication` checks it.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from accounts.models import ApiToken

MAX_TOKENS_PER_USER = 10  # each log-in makes one; the oldest beyond this stop working
LAST_USED_RESOLUTION = timedelta(minutes=5)  # don't write the row on every request


def digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def issue(user) -> str:
    """A new token for `user`; returns the key, which exists nowhere else from now on."""
    key = secrets.token_hex(20)
    with transaction.atomic():
        ApiToken.objects.create(user=user, digest=digest(key), prefix=key[:8])
        stale = list(ApiToken.objects.filter(user=user).order_by("-created_at", "-id")
                     .values_list("pk", flat=True)[MAX_TOKENS_PER_USER:])
        if stale:
            ApiToken.objects.filter(pk__in=stale).delete()
    return key


def replace(user) -> str:
    """Revoke every token of `user` and make one new one (the owner page's "Replace my token")."""
    with transaction.atomic():
        ApiToken.objects.filter(user=user).delete()
        return issue(user)


def user_for(key: str):
    """The active user whose token this is, or None."""
    if not key or len(key) > 128:
        return None
    token = ApiToken.objects.select_related("user").filter(digest=digest(key)).first()
    if token is None or not token.user.is_active:
        return None
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at > LAST_USED_RESOLUTION:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
    return token.user
