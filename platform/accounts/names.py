"""Names that would pass for the house's: bot names (and usernames) may not impersonate built-in bots or staff.

Two names are the same name when their *skeletons* are equal: NFKC-normalised, case-folded, accents dropped, the
common look-alikes mapped to Latin (Cyrillic and Greek letters that NFKC keeps apart; the digits and signs that
pass for letters: 0 → o, 1 → l, 3 → e, 4 → a, 5 → s, 7 → t, @ → a, $ → s, ! → l; and the letter pairs that pass for
one letter: rn → m, vv → w), and everything that is not a letter or a digit removed (spaces, dots, dashes,
underscores, zero-width characters). "i", "l", "1" and "|" are one letter in a skeleton: a capital I is an l, and
"1" reads as either. So "Random", "r a n d o m", "ＲＡＮＤＯＭ", "rаndom" (with a Cyrillic а) and "randorn" all read as
"random", and "adm1n", "4dm!n" and "AdmIn" as "admin". Digits that pass for no letter (2, 6, 8, 9) stay digits, so
"bot2", "team 42" and "x86" stay ordinary names.

A name may not *contain* a protected name of two words or more either: "python-random v2" and "my python random"
pass for the house's "python-random" as much as "Python Random" does. Containment is by whole words (a run of the
name's words whose skeleton is the protected one), so "randomizer" does not contain "random"; a one-word protected
name ("random", a staff member's "boss") is refused only as itself and its look-alikes, so "random-walker" and
"boss-fight" stay ordinary names.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Callable, Iterable

RESERVED_WORDS = ("arena", "admin", "staff", "official")

# Letters NFKC does not fold that render like Latin ones (Unicode's confusables.txt, the common cases).
_LOOKALIKES = str.maketrans({
    "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c",
    "т": "t", "у": "y", "х": "x", "і": "i", "ї": "i", "ј": "j", "ѕ": "s", "ԁ": "d", "ԛ": "q", "ԝ": "w",
    "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p", "τ": "t",
    "υ": "u", "χ": "x", "ω": "w", "ı": "i", "ℓ": "l", "0": "o", "1": "l", "|": "l",
})
# Digits and signs that pass for letters, and i/l as one letter (see the module's docstring). Applied after
# _LOOKALIKES, so a Cyrillic і (→ i) and ℓ (→ l) end up here too.
_DIGITS_AND_SIGNS = str.maketrans({"3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s", "!": "l", "i": "l"})
# Letter pairs that render as one letter, replaced on the letters-only string ("r n" and "r.n" count too).
_PAIRS = (("rn", "m"), ("vv", "w"))


def skeleton(name: str) -> str:
    """The form in which look-alike names compare equal."""
    folded = _folded(name)
    letters = "".join(ch for ch in folded.translate(_LOOKALIKES).translate(_DIGITS_AND_SIGNS) if ch.isalnum())
    for pair, single in _PAIRS:
        letters = letters.replace(pair, single)
    return letters


def _words(name: str) -> list[str]:
    letters = _folded(name).translate(_LOOKALIKES).translate(_DIGITS_AND_SIGNS)
    return [w for w in re.split(r"[^\w]|_", letters) if w]


def _word_runs(name: str) -> set[str]:
    """The skeletons of every run of consecutive words in `name` (words: what separators, spaces and invisible
    characters split apart, read as in `skeleton`)."""
    words = _words(name)
    runs = set()
    for start in range(len(words)):
        for end in range(start + 1, len(words) + 1):
            run = "".join(words[start:end])
            for pair, single in _PAIRS:
                run = run.replace(pair, single)
            runs.add(run)
    return runs


def legacy_skeleton(name: str) -> str:
    """The skeleton as it was before the digits, signs and letter pairs were added (0 → o, 1 → l only): deleted
    accounts' names reserved before then are stored by this one's digest (`reserved_for_deleted`)."""
    return "".join(ch for ch in _folded(name).translate(_LOOKALIKES) if ch.isalnum())


def _folded(name: str) -> str:
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    # accents off (Ä reads as A): decompose and drop the combining marks
    return "".join(ch for ch in unicodedata.normalize("NFKD", folded) if not unicodedata.combining(ch))


def impersonation(name: str, protected: list[str]) -> str | None:
    """Why `name` would pass for one of the `protected` names (built-in bots, staff) or a reserved word; None
    when it is fine."""
    mine = skeleton(name)
    for word in RESERVED_WORDS:
        if skeleton(word) in mine:
            return f"names containing '{word}' are reserved for the platform"
    if reason := reserved_for_deleted(mine, legacy=legacy_skeleton(name)):
        return reason
    runs = _word_runs(name)
    for other in protected:
        if skeleton(other) == mine:
            return f"'{name}' reads as '{other}', a built-in bot or staff member's name"
        if len(_words(other)) > 1 and skeleton(other) in runs:
            return f"'{name}' contains '{other}', a built-in bot or staff member's name"
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


# "deleted-12", "deleted account", "deleted team" (what pages show for a deleted team) by their skeletons, whose
# digits read as letters (0 → o, 1 → l, 3 → e, 4 → a, 5 → s, 7 → t)
_DELETED_SKELETON = re.compile(r"deleted(account|user|team)?[0-9olaest]*")


def reserved_for_deleted(skeleton: str, legacy: str = "") -> str | None:
    """Why a name, by its skeleton (`skeleton`), is reserved for deleted accounts: it reads as
    "deleted…"/"deleted account"/"deleted team", or it was (or reads as) the name of an account that was deleted.
    `legacy`: the name's `legacy_skeleton`, which names reserved before the skeleton read digits
    as letters are stored by. None if not reserved."""
    from accounts.models import RetiredName  # asked for here, as protected_names does: the skeletons need no database

    if _DELETED_SKELETON.fullmatch(skeleton) is not None:
        return "names that read as 'deleted' are reserved for deleted accounts"
    digests = [name_digest(skeleton)] + ([name_digest(legacy)] if legacy and legacy != skeleton else [])
    if RetiredName.objects.filter(digest__in=digests).exists():
        return "this name belonged to an account that was deleted; it stays reserved"
    return None


def name_digest(skeleton: str) -> str:
    """What a retired name is stored by (`RetiredName.digest`): the name's skeleton, hashed."""
    return hashlib.sha256(skeleton.encode()).hexdigest()
