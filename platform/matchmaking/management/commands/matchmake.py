from django.core.management.base import BaseCommand

from matchmaking.services import matchmake


class Command(BaseCommand):
    help = "Queue the next ladder matches now (what the periodic Celery beat task does)."

    def handle(self, *args, **options):
        created = matchmake()
        self.stdout.write(f"queued {len(created)} matches: {created}")
