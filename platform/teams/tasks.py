"""Periodic upkeep of teams, scheduled by Celery beat (settings.CELERY_BEAT_SCHEDULE)."""

from celery import shared_task

from teams import services


@shared_task(name="teams.tasks.sweep_invitations", ignore_result=True)
def sweep_invitations() -> int:
    """Delete invitations long expired (`teams.services.sweep_invitations`)."""
    return services.sweep_invitations()
