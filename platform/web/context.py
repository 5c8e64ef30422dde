"""What every page's template needs besides Django's own context: the page's language as an HTML `lang` tag."""

from __future__ import annotations

from django.http import HttpRequest
from django.utils import translation

#: Django's language codes → BCP 47 tags for `<html lang>` (screen readers and fonts read them: zh-Hans ≠ zh-Hant)
HTML_LANG = {"en": "en", "pt-br": "pt-BR", "zh-hans": "zh-Hans"}


def html_lang(code: str | None) -> str:
    return HTML_LANG.get((code or "en").lower(), code or "en")


def language(request: HttpRequest) -> dict[str, str]:
    return {"html_lang": html_lang(translation.get_language())}
