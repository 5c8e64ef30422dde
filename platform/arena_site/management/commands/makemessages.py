"""Django's makemessages without msgmerge's fuzzy matching: a new string arrives empty, to be translated, never
with a guess copied from a similar one (a guess reads as translated to anyone who skims the catalog)."""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    msgmerge_options = [*makemessages.Command.msgmerge_options, "--no-fuzzy-matching"]
