from django.core.management.base import BaseCommand

from ladders.services import ensure_ladders


class Command(BaseCommand):
    help = ("Create a ladder for every player count of the installed games: settings.ARENA_LADDERS playing, "
            "the others paused (existing ones are kept).")

    def handle(self, *args, **options):
        for ladder in ensure_ladders():
            self.stdout.write(f"ladder {ladder.slug}: {ladder.name}, {ladder.players} player{'s' if ladder.players != 1 else ''}, "
                              f"{ladder.decision_ms} ms a decision + {ladder.bank_ms} ms bank"
                              + ("" if ladder.active else " (paused)"))
