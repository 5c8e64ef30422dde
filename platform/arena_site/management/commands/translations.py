"""`manage.py translations`: refresh every catalog from the marked strings and compile them; `--check`: only list
what is missing, untranslated or fuzzy (exit status 1 if anything is). See arena_site.translations."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from arena_site import translations


class Command(BaseCommand):
    help = "Update and compile the translation catalogs (pt-BR, zh-Hans); --check lists what is left to translate."

    def add_arguments(self, parser):
        parser.add_argument("--check", action="store_true", help="change nothing; list the problems")

    def handle(self, *args, check: bool = False, **options):
        if not check:
            translations.update()
        found = translations.problems()
        for line in found:
            self.stdout.write(line)
        if found:
            raise CommandError(f"{len(found)} translation problem(s): translate them in the .po files named above, "
                               "then run `manage.py translations` again to compile")
        self.stdout.write("every catalog is complete")
