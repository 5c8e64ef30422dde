"""Which name a failed log-in counts against in django-axes' lock-out (`AXES_USERNAME_CALLABLE`).

Log-in takes a username in any case, with spaces around it, or the account's email address (allauth's backend);
counted as typed, a guesser would get the failure limit once per spelling of the same account (`AUD3LOCK`,
`Aud3Lock`, ` aud3lock`, the email address). So the count is keyed on the account: whatever names one account
counts as that account's username; a name that names no account counts trimmed and case-folded, so its spellings
share one count too.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model


def lockout_username(request: Any, credentials: dict | None = None) -> str | None:
    """The username axes keys the attempt on: the username of the account the typed name (or email) names."""
    if credentials:
        typed = credentials.get("username")
    else:  # axes' own fallback (its middleware and handlers): the submitted form
        typed = getattr(request, "data", request.POST).get("username")
    if not isinstance(typed, str):
        return typed
    name = typed.strip()
    users = get_user_model().objects
    if users.filter(username=name).exists():  # exact first: an older account's username may hold an '@'
        return name
    owners = list(users.filter(username__iexact=name).values_list("username", flat=True)[:2])
    if not owners and "@" in name:
        owners = list(users.filter(email__iexact=name).values_list("username", flat=True)[:2])
    return owners[0] if len(owners) == 1 else name.casefold()
