from django.core.management.base import BaseCommand

from ladders.services import ensure_ladders


class Command(BaseCommand):
    help = "Create the ladders of settings.ARENA_LADDERS for the installed games (existing ones are kept)."

    def handle(self, *args, **options):
        for ladder in ensure_ladders():
            self.stdout.write(f"ladder {ladder.slug}: {ladder.name}, {ladder.players} players, "
                              f"{ladder.decision_ms} ms a decision + {ladder.bank_ms} ms bank")
