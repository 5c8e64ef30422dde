from django.core.management.base import BaseCommand

from teams.services import keep_days, sweep_invitations


class Command(BaseCommand):
    help = ("Delete team invitations that expired more than ARENA_TEAM_INVITATION_KEEP_DAYS days ago (what the "
            "daily Celery beat task does).")

    def handle(self, *args, **options):
        deleted = sweep_invitations()
        self.stdout.write(f"deleted {deleted} invitations expired more than {keep_days()} days ago")
