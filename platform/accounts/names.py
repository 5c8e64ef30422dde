"""Names that would pass for the house's: bot names (and usernames) may not impersonate built-in bots or staff.

Two names are the same name when their *skeletons* are equal: NFKC-normalised, case-folded, with everything that
is not a letter or a digit removed (spaces, dots, dashes, underscores, zero-width characters), accents dropped,
and the common look-alikes mapped to Latin (Cyrillic and Greek letters that NFKC keeps apart, 0 → o, 1 → l). So "Random",
"r a n d o m", "ＲＡＮＤＯＭ" and "rаndom" (with a Cyrillic а) all read as "random".
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable

from accounts.deletion import reserved_for_deleted

RESERVED_WORDS = ("arena", "admin", "staff", "official")

# Letters NFKC does not fold that render like Latin ones (Unicode's confusables.txt, the common cases).
_LOOKALIKES = str.maketrans({
    "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c",
    "т": "t", "у": "y", "х": "x", "і": "i", "ї": "i", "ј": "j", "ѕ": "s", "ԁ": "d", "ԛ": "q", "ԝ": "w",
    "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p", "τ": "t",
    "υ": "u", "χ": "x", "ω": "w", "ı": "i", "ℓ": "l", "0": "o", "1": "l", "|": "l",
})


def skeleton(name: str) -> str:
    """The form in which look-alike names compare equal."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    # accents off (Ä reads as A): decompose and drop the combining marks
    folded = "".join(ch for ch in unicodedata.normalize("NFKD", folded) if not unicodedata.combining(ch))
    return "".join(ch for ch in folded.translate(_LOOKALIKES) if ch.isalnum())


def impersonation(name: str, protected: list[str]) -> str | None:
    """Why `name` would pass for one of the `protected` names (built-in bots, staff) or a reserved word; None
    when it is fine."""
    mine = skeleton(name)
    for word in RESERVED_WORDS:
        if word in mine:
            return f"names containing '{word}' are reserved for the platform"
    if reason := reserved_for_deleted(mine):
        return reason
    for other in protected:
        if skeleton(other) == mine:
            return f"'{name}' reads as '{other}', a built-in bot or staff member's name"
    return None


#: Where names to protect come from besides staff usernames: each app above accounts that owns such names adds
#: its source in its `AppConfig.ready` (the bot registry: built-in bots' names), so accounts imports none of them.
_SOURCES: list[Callable[[], Iterable[str]]] = []


def protect_names_from(source: Callable[[], Iterable[str]]) -> None:
    """Add a source of protected names (called at start-up; adding the same source twice adds it once)."""
    if source not in _SOURCES:
        _SOURCES.append(source)


def protected_names() -> list[str]:
    """Built-in bots' names (and any other registered source's) and staff usernames, as they are now."""
    from django.contrib.auth import get_user_model
    from django.db.models import Q

    staff = get_user_model().objects.filter(Q(is_staff=True) | Q(is_superuser=True)).values_list("username", flat=True)
    return [*(name for source in _SOURCES for name in source()), *staff]
