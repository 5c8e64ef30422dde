"""The language an account chose: remembered on the account (`Preferences.language`) beside the switcher's cookie,
so it follows its owner to every browser and into its emails.

Django's `LocaleMiddleware` picks a page's language from the cookie `set_language` wrote, else the browser's
`Accept-Language`; `AccountLanguageMiddleware`, right after it, lets a signed-in person's saved choice win (their
cookie and their account agree whenever they used the switcher here; on another browser the account decides).
Mail is written in `speaking(user)`: the recipient's language, English when they never chose.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation

from .models import Preferences

CODES = {code for code, _ in settings.LANGUAGES}


def language_of(user: Any) -> str:
    """The account's chosen language code, or '' (none chosen, or no account)."""
    if user is None or not getattr(user, "pk", None):
        return ""
    cached = getattr(user, "_arena_language", None)
    if cached is None:
        cached = Preferences.objects.filter(user_id=user.pk).values_list("language", flat=True).first() or ""
        user._arena_language = cached
    return cached if cached in CODES else ""


def remember(user: Any, language: str) -> None:
    """Save `language` (a code of LANGUAGES; "": none chosen) as the account's choice; anything else is ignored."""
    if (language not in CODES and language != "") or not getattr(user, "is_authenticated", False):
        return
    Preferences.objects.update_or_create(user=user, defaults={"language": language})
    user._arena_language = language


@contextlib.contextmanager
def speaking(user: Any) -> Iterator[str]:
    """Inside it, gettext speaks the recipient's language (English when they never chose): for their emails."""
    language = language_of(user) or settings.LANGUAGE_CODE
    with translation.override(language):
        yield language


class AccountLanguageMiddleware:
    """After `LocaleMiddleware`: a signed-in account's saved language is the page's (and its `Content-Language`)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            chosen = language_of(user)
            if chosen and chosen != getattr(request, "LANGUAGE_CODE", ""):
                translation.activate(chosen)
                request.LANGUAGE_CODE = chosen
        response = self.get_response(request)
        if getattr(request, "LANGUAGE_CODE", None):
            response.headers["Content-Language"] = request.LANGUAGE_CODE
        return response
