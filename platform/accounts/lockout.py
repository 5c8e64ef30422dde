"""Which name a failed log-in counts against in django-axes' lock-out (`AXES_USERNAME_CALLABLE`).

Log-in takes a username or the account's email address (allauth's backend); counted as typed, a guesser would get
the failure limit once per username and once more per email address of the same account. An email address that
belongs to exactly one account counts as that account's username, so both ways share one count.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model


def lockout_username(request: Any, credentials: dict | None = None) -> str | None:
    """The username axes keys the attempt on: what was typed, or the username of the account whose email it is."""
    if credentials:
        typed = credentials.get("username")
    else:  # axes' own fallback (its middleware and handlers): the submitted form
        typed = getattr(request, "data", request.POST).get("username")
    if not isinstance(typed, str) or "@" not in typed:
        return typed
    users = get_user_model().objects
    if users.filter(username=typed).exists():  # an older account's username may hold an '@'
        return typed
    owners = list(users.filter(email__iexact=typed.strip()).values_list("username", flat=True)[:2])
    return owners[0] if len(owners) == 1 else typed
