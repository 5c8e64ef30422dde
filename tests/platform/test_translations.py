"""The catalogs are complete: every message marked in the templates, the Python and the JavaScript of the site
and in the narrators is in the pt-BR and zh-Hans catalogs, translated and not fuzzy, each catalog compiles and the
committed .mo matches its .po (arena_site.translations). A new English string without its translations fails
here, named with its catalog; `manage.py translations` adds it to the catalogs to be translated."""

from __future__ import annotations

import shutil

import pytest

from arena_site import translations

pytestmark = pytest.mark.skipif(not all(shutil.which(t) for t in ("xgettext", "msgmerge", "msgfmt")),
                                reason="GNU gettext is not installed (scripts/system-packages installs it)")


def test_every_marked_message_is_translated_in_every_catalog():
    problems = translations.problems()
    assert not problems, "the catalogs are not complete:\n" + "\n".join(problems)


def test_the_check_names_a_new_untranslated_message(tmp_path, monkeypatch):
    """A string marked in a template but missing from the catalogs is named by the check."""
    template = translations.PLATFORM / "web" / "templates" / "web" / "_i18n_check_probe.html"
    template.write_text('{% load i18n %}{% translate "A sentence nobody has translated yet" %}\n')
    try:
        problems = translations.problems()
    finally:
        template.unlink()
    named = [p for p in problems if "A sentence nobody has translated yet" in p]
    assert len(named) == 2, problems  # the django catalog of each language
    assert all("not in the catalog" in p for p in named)


def test_a_fuzzy_or_empty_entry_is_named(tmp_path, monkeypatch):
    """An entry left fuzzy (a guess) or empty is reported with its text."""
    catalog = next(c for c in translations.catalogs() if c.domain == "django" and c.locale == "pt_BR")
    original = catalog.po.read_text(encoding="utf-8")
    text = original.replace('msgid "Log out"\nmsgstr "Sair"', '#, fuzzy\nmsgid "Log out"\nmsgstr "Sair"', 1)
    text = text.replace('msgid "Skip to content"\nmsgstr "Pular para o conteúdo"', 'msgid "Skip to content"\nmsgstr ""', 1)
    assert text != original
    catalog.po.write_text(text, encoding="utf-8")
    try:
        problems = translations.problems()
    finally:
        catalog.po.write_text(original, encoding="utf-8")
    assert any("fuzzy: 'Log out'" in p for p in problems), problems
    assert any("not translated: 'Skip to content'" in p for p in problems), problems
