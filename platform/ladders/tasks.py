"""Periodic ladder work, scheduled by Celery beat (settings.CELERY_BEAT_SCHEDULE)."""

from celery import shared_task


@shared_task(name="ladders.tasks.matchmake", ignore_result=True)
def matchmake() -> list[int]:
    """Keep every active ladder busy: queue the next matches (see ladders.matchmaking for the rules)."""
    from ladders.services import matchmake as run
    return run()
