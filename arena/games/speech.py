"""The languages the referee's words are told in (replay narration): English, Brazilian Portuguese, Simplified
Chinese. No Django here: the stdlib's gettext with catalogs under `arena/locale/<locale>/LC_MESSAGES/narration.po`
(and the compiled `.mo` beside it), the games' own terms taken from the rule texts (each game's RULES.md lists them).

A narrator marks its sentences with `_` (and `ngettext` for counts, `N_` for table entries translated where they
are used); `speaking(language)` chooses the catalog for the code inside it (a context variable: threads and async
tasks each keep their own). English is the source text, so it needs no catalog.
"""

from __future__ import annotations

import contextlib
import functools
import gettext
from collections.abc import Iterable, Iterator
from contextvars import ContextVar
from pathlib import Path

LOCALE_DIR = Path(__file__).resolve().parents[1] / "locale"  # arena/locale
DOMAIN = "narration"
#: the site's language codes (Django's LANGUAGES) → gettext's locale names
LOCALES = {"en": "en", "pt-br": "pt_BR", "zh-hans": "zh_Hans"}
DEFAULT = "en"

_ENGLISH = gettext.NullTranslations()
_current: ContextVar[gettext.NullTranslations | None] = ContextVar("arena_speech", default=None)


def language_code(language: str | None) -> str:
    """A code of LOCALES for whatever a caller has (`pt-BR`, `pt_BR`, `pt`, `zh-Hans`, `zh-CN`, `zh`, ...); English
    for anything else."""
    code = (language or "").strip().lower().replace("_", "-")
    if code in LOCALES:
        return code
    if code.startswith("pt"):
        return "pt-br"
    if code.startswith("zh"):
        return "zh-hans"
    return DEFAULT


@functools.cache
def translations(language: str) -> gettext.NullTranslations:
    """The catalog of `language` (a code of LOCALES); English (and a missing catalog) speak the source text."""
    code = language_code(language)
    if code == DEFAULT:
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, LOCALE_DIR, [LOCALES[code]], fallback=True)


@contextlib.contextmanager
def speaking(language: str | None) -> Iterator[str]:
    """Inside it, `_` and `ngettext` speak `language`."""
    code = language_code(language)
    token = _current.set(translations(code))
    try:
        yield code
    finally:
        _current.reset(token)


def _(message: str) -> str:
    """`message` in the language being spoken."""
    return (_current.get() or _ENGLISH).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of `singular`/`plural` for `n`, in the language being spoken."""
    return (_current.get() or _ENGLISH).ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Marks a message for the catalogs without translating it now (a table entry, translated where it is used)."""
    return message


def listed(items: Iterable[str]) -> str:
    """`items` listed as the language being spoken lists things ("a, b, c"; Chinese "a、b、c")."""
    text = ""
    for item in items:
        text = _("%(first)s, %(next)s") % {"first": text, "next": item} if text else item
    return text
