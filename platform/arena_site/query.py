"""What a query-string parameter may hold, in one place for the API and the pages.

Each parser takes the parameter's name and raw text and returns None when it is absent or empty, the value when
it is well formed, or raises `BadParameter` saying why — before anything reaches the database, which would fail
on a NUL byte (PostgreSQL text) or on an id beyond a bigint. The API turns the error into a 400 with the
parameter's name, the pages into a 400 page.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

SLUG = re.compile(r"[-a-zA-Z0-9_]{1,64}")
USERNAME = re.compile(r"[\w.@+-]{1,150}")  # Django's user names
MAX_ID_DIGITS = 18  # 19 digits can exceed a bigint


class BadParameter(ValueError):
    """A parameter that cannot be applied; the message says why, in a user's words."""


def parse_id(name: str, raw: str | None) -> int | None:
    """A positive whole number in ASCII digits ("²".isdigit() is True, and int() reads other scripts' digits)."""
    raw = (raw or "").strip()
    if not raw:
        return None
    if not (raw.isascii() and raw.isdigit()):
        raise BadParameter(f"{name} must be a number (a whole one, in digits 0-9), not {raw[:40]!r}")
    if len(raw) > MAX_ID_DIGITS or int(raw) == 0:
        raise BadParameter(f"{name} {raw[:40]} is out of range (1 to {10 ** MAX_ID_DIGITS - 1})")
    return int(raw)


def parse_text(name: str, raw: str | None, max_length: int = 150) -> str | None:
    """Free text: no NUL byte, not absurdly long."""
    if not raw:
        return None
    if "\x00" in raw or len(raw) > max_length:
        raise BadParameter(f"{name} must be at most {max_length} characters, without NUL bytes")
    return raw


def parse_choice(name: str, raw: str | None, choices: Iterable[str]) -> str | None:
    """One of `choices`, as given."""
    raw = (raw or "").strip()
    if not raw:
        return None
    allowed = list(choices)
    if raw not in allowed:
        raise BadParameter(f"{name} must be one of {', '.join(allowed)}, not {raw[:40]!r}")
    return raw


def parse_slug(name: str, raw: str | None) -> str | None:
    """A slug: letters, digits, '-' and '_'."""
    raw = (raw or "").strip()
    if not raw:
        return None
    if not SLUG.fullmatch(raw):
        raise BadParameter(f"{name} must be a slug (letters, digits, '-' and '_'), not {raw[:40]!r}")
    return raw
