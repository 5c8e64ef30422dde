"""Periodic matchmaking, scheduled by Celery beat (settings.CELERY_BEAT_SCHEDULE)."""

from celery import shared_task

from matchmaking import services


@shared_task(name="matchmaking.tasks.matchmake", ignore_result=True)
def matchmake() -> list[int]:
    """Keep every active ladder busy: queue the next matches (see matchmaking.rules for the rules)."""
    return services.matchmake()
