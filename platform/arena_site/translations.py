"""The translation catalogs and their check (platform/README.md, "Translations").

Two sets of gettext catalogs, one per language beside English (`LOCALES`):

- the site's, `platform/locale/<locale>/LC_MESSAGES/django.po` (templates, Python) and `djangojs.po` (the viewer's
  and the live pages' JavaScript, served by /jsi18n/), made by Django's `makemessages`;
- the narration's, `arena/locale/<locale>/LC_MESSAGES/narration.po` (the replay's story, `arena.games.speech`: no Django
  there), made by `xgettext` over the narrators.

`update()` refreshes every catalog from the marked strings (new ones arrive empty, to be translated) and compiles
them; `problems()` lists what keeps a catalog from being complete: a marked string missing from it, an entry not
translated or marked fuzzy, a catalog that does not compile or whose committed `.mo` is stale. `manage.py
translations` runs both (`--check` only checks), and the suite's check (tests/platform/test_translations.py) fails
on any problem, naming the message.
"""

from __future__ import annotations

import gettext
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.core.management import call_command

#: gettext's tools read and write the catalogs as UTF-8 whatever the caller's locale (under the C locale msgmerge
#: and msgattrib mangle every non-ASCII character)
os.environ["LC_ALL"] = "C.UTF-8"

ROOT = Path(settings.BASE_DIR).parent  # the checkout
PLATFORM = ROOT / "platform"
SITE_LOCALE = PLATFORM / "locale"
ARENA_LOCALE = ROOT / "arena" / "locale"
#: the languages translated (Django's codes → gettext's locale names); English is the source text
LOCALES = {"pt-br": "pt_BR", "zh-hans": "zh_Hans"}
#: the narrators and what they use, the reasons and the bot check's explanations: the files xgettext reads for the
#: narration's catalog
NARRATION_SOURCES = ["arena/games/speech.py", "arena/narration.py", "arena/reasons.py", "arena/botcheck.py",
                     "arena/games/telling.py", "arena/games/thebes/narrate.py", "arena/games/minos/narrate.py"]
NARRATION_KEYWORDS = ["--keyword=_", "--keyword=N_", "--keyword=ngettext:1,2"]
#: what makemessages skips: the admin's and third-party templates are translated by their own packages
IGNORE = ["*/migrations/*", "*/static/web/vendor/*", "locale/*"]


@dataclass(frozen=True)
class Catalog:
    """One .po file: its domain, locale and path."""

    domain: str
    locale: str
    po: Path

    @property
    def mo(self) -> Path:
        return self.po.with_suffix(".mo")


def catalogs() -> list[Catalog]:
    out = []
    for locale in LOCALES.values():
        for domain in ("django", "djangojs"):
            out.append(Catalog(domain, locale, SITE_LOCALE / locale / "LC_MESSAGES" / f"{domain}.po"))
        out.append(Catalog("narration", locale, ARENA_LOCALE / locale / "LC_MESSAGES" / "narration.po"))
    return out


def _makemessages(locale_root: Path, domain: str, source: Path = PLATFORM) -> None:
    """Django's makemessages over `source` (platform/ or a copy of it), writing into `locale_root`."""
    here = os.getcwd()
    os.chdir(source)
    old = settings.LOCALE_PATHS
    try:
        settings.LOCALE_PATHS = [str(locale_root)]
        call_command("makemessages", locale=list(LOCALES.values()), domain=domain, ignore_patterns=IGNORE,
                     no_obsolete=True, add_location="file", verbosity=0,
                     extensions=["html", "txt", "py"] if domain == "django" else ["js"])
    finally:
        settings.LOCALE_PATHS = old
        os.chdir(here)


def _scratch_sources(tmp: Path) -> Path:
    """A copy of platform/ without its catalogs: makemessages writes into a `locale` folder above the files it
    reads whenever there is one, so the check runs where the real catalogs are out of its reach."""
    copy = tmp / "platform"
    shutil.copytree(PLATFORM, copy, ignore=shutil.ignore_patterns("locale", "__pycache__", "*.mo"))
    return copy


def narration_template(out: Path) -> Path:
    """The narration's template (.pot) from the narrators' marked strings."""
    pot = out / "narration.pot"
    subprocess.run(["xgettext", "--language=Python", "--from-code=UTF-8", "--add-comments=Translators",
                    "--no-wrap", "--sort-by-file", *NARRATION_KEYWORDS, "-o", str(pot), *NARRATION_SOURCES],
                   cwd=ROOT, check=True)
    return pot


def _update_narration(locale_root: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        pot = narration_template(Path(tmp))
        for locale in LOCALES.values():
            po = locale_root / locale / "LC_MESSAGES" / "narration.po"
            po.parent.mkdir(parents=True, exist_ok=True)
            if po.exists():
                subprocess.run(["msgmerge", "--quiet", "--no-wrap", "--no-fuzzy-matching", "--update", "--backup=none",
                                str(po), str(pot)], check=True)
            else:
                subprocess.run(["msginit", "--no-translator", "--no-wrap", f"--locale={locale}.UTF-8",
                                "-i", str(pot), "-o", str(po)], check=True, capture_output=True)


#: each language's plural rule (gettext's): Portuguese as Brazil counts (0 and 1 singular), Chinese without plurals
PLURAL_FORMS = {"pt_BR": "nplurals=2; plural=(n > 1);", "zh_Hans": "nplurals=1; plural=0;"}


def _fix_header(po: Path, locale: str) -> None:
    """A new catalog's header names the project, its language and its plural rule (msginit and makemessages leave
    placeholders that msgfmt --check refuses)."""
    text = po.read_text(encoding="utf-8")
    head, sep, rest = text.partition('msgid ""\n')
    # the header is complete once these lines are set: not fuzzy (msgfmt would drop a fuzzy header's charset and
    # plural rule), and its comment names the catalog
    head = (f"# Arena: {po.stem} messages in {locale} (platform/README.md, Translations).\n"
            if "SOME DESCRIPTIVE TITLE" in head or "#, fuzzy" in head else head)
    text = head + sep + rest
    fixed = []
    for line in text.split("\n"):
        if line.startswith('"Plural-Forms:'):
            line = f'"Plural-Forms: {PLURAL_FORMS[locale]}\\n"'
        elif line.startswith('"Project-Id-Version:'):
            line = '"Project-Id-Version: Arena\\n"'
        elif line.startswith('"Language:'):
            line = f'"Language: {locale}\\n"'
        elif line.startswith('"PO-Revision-Date: YEAR'):
            line = '"PO-Revision-Date: 2026-12-02 00:00+0000\\n"'
        elif line.startswith(('"Last-Translator: FULL NAME', '"Last-Translator: Automatically')):
            line = '"Last-Translator: Arena contributors (platform/README.md, Translations)\\n"'
        elif line.startswith(('"Language-Team: LANGUAGE', '"Language-Team: none')):
            line = f'"Language-Team: {locale}\\n"'
        elif line.startswith('"Content-Type:'):
            line = '"Content-Type: text/plain; charset=UTF-8\\n"'
        fixed.append(line)
    po.write_text("\n".join(fixed), encoding="utf-8")


def compile_all() -> None:
    for c in catalogs():
        if c.po.exists():
            _fix_header(c.po, c.locale)
            subprocess.run(["msgfmt", "--check", "-o", str(c.mo), str(c.po)], check=True)


def update() -> None:
    """Refresh every catalog from the marked strings, then compile them."""
    _makemessages(SITE_LOCALE, "django")
    _makemessages(SITE_LOCALE, "djangojs")
    _update_narration(ARENA_LOCALE)
    compile_all()


def _entries(po: Path) -> dict[tuple[str | None, str], tuple[list[str], bool]]:
    """(context, msgid) → (translations, fuzzy) of a .po file, the header left out (read with msgattrib's help: its
    output is the file's own, one entry at a time)."""
    entries: dict[tuple[str | None, str], tuple[list[str], bool]] = {}
    ctx: str | None = None
    msgid: str | None = None
    strs: list[str] = []
    fuzzy = False
    field: str | None = None

    def unquote(text: str) -> str:
        import ast

        return str(ast.literal_eval(text))

    def flush() -> None:
        nonlocal ctx, msgid, strs, fuzzy
        if msgid:  # the header's msgid is empty
            entries[(ctx, msgid)] = (strs, fuzzy)
        ctx, msgid, strs, fuzzy = None, None, [], False

    for raw in po.read_text(encoding="utf-8").splitlines() + [""]:
        line = raw.strip()
        if line.startswith("#~"):
            continue
        if not line:
            if msgid is not None:
                flush()
            field = None
            continue
        if line.startswith("#,") and "fuzzy" in line:
            fuzzy = True
        elif line.startswith("msgctxt "):
            ctx, field = unquote(line[8:]), "ctx"
        elif line.startswith("msgid "):
            msgid, field = unquote(line[6:]), "id"
        elif line.startswith("msgid_plural "):
            field = "plural"
        elif line.startswith("msgstr"):
            strs.append(unquote(line.split(" ", 1)[1]))
            field = "str"
        elif line.startswith('"'):
            if field == "ctx":
                ctx = (ctx or "") + unquote(line)
            elif field == "id":
                msgid = (msgid or "") + unquote(line)
            elif field == "str":
                strs[-1] += unquote(line)
    return entries


def _label(key: tuple[str | None, str]) -> str:
    ctx, msgid = key
    return repr(msgid) + (f" (context {ctx!r})" if ctx else "")


def problems() -> list[str]:
    """Everything that keeps the catalogs from being complete, one line each, naming the catalog and the message."""
    out: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp) / "locale"
        scratch.mkdir()
        sources = _scratch_sources(Path(tmp))
        _makemessages(scratch, "django", sources)
        _makemessages(scratch, "djangojs", sources)
        narration = Path(tmp) / "narration"
        narration.mkdir()
        pot = narration_template(narration)
        wanted: dict[str, set[tuple[str | None, str]]] = {
            "narration": set(_entries(pot))}
        for locale in LOCALES.values():
            for domain in ("django", "djangojs"):
                fresh = scratch / locale / "LC_MESSAGES" / f"{domain}.po"
                wanted[f"{domain}:{locale}"] = set(_entries(fresh)) if fresh.exists() else set()
    for c in catalogs():
        name = f"{c.po.relative_to(ROOT)}"
        if not c.po.exists():
            out.append(f"{name}: missing (run `manage.py translations`)")
            continue
        have = _entries(c.po)
        want = wanted["narration"] if c.domain == "narration" else wanted[f"{c.domain}:{c.locale}"]
        for key in sorted(want - set(have), key=_label):
            out.append(f"{name}: not in the catalog: {_label(key)} (run `manage.py translations`, then translate it)")
        for key, (strs, fuzzy) in sorted(have.items(), key=lambda kv: _label(kv[0])):
            if key not in want:
                continue
            if fuzzy:
                out.append(f"{name}: fuzzy: {_label(key)}")
            elif not strs or not all(s.strip() for s in strs):
                out.append(f"{name}: not translated: {_label(key)}")
        check = subprocess.run(["msgfmt", "--check", "-o", "/dev/null", str(c.po)], capture_output=True, text=True)
        if check.returncode:
            out.append(f"{name}: does not compile: {check.stderr.strip()}")
            continue
        with tempfile.TemporaryDirectory() as tmp:
            fresh_mo = Path(tmp) / "fresh.mo"
            subprocess.run(["msgfmt", "-o", str(fresh_mo), str(c.po)], check=True)
            if not c.mo.exists() or _catalog(c.mo) != _catalog(fresh_mo):
                out.append(f"{c.mo.relative_to(ROOT)}: stale: compile it (`manage.py translations`)")
    return out


def _catalog(mo: Path) -> dict[object, object]:
    with mo.open("rb") as f:
        return dict(gettext.GNUTranslations(f)._catalog)  # type: ignore[attr-defined]
