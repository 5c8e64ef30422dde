"""A version's status reason told in its reader's language (arena.reasons).

A version stores its reason twice: in English words (`status_reason`, what the API and the data export always
had) and as codes and parameters (`status_reasons`). Shown, it is rendered from the codes in the language being
spoken (Django's active language: the page's, the API request's `Accept-Language`, the mail's recipient's); a row
from before codes existed is re-told when its words are a known phrase, and shown as stored otherwise.
"""

from __future__ import annotations

from typing import Any

from django.utils import translation

from arena.reasons import Reason, render_all, retell
from botregistry.models import BotVersion


def codes(version: BotVersion) -> list[dict[str, Any]]:
    """The version's reasons as codes and parameters ([] for a reason in words only, or none)."""
    return [r.to_json() for r in map(Reason.from_json, version.status_reasons or []) if r is not None]


def shown(version: BotVersion, language: str | None = None) -> str:
    """The version's status reason in `language` (None: the active language); "" when it has none."""
    language = language or translation.get_language() or "en"
    told = [r for r in map(Reason.from_json, version.status_reasons or []) if r is not None]
    if told:
        return render_all(told, language)
    return retell(version.status_reason or "", language)
