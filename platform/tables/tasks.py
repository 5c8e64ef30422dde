"""Periodic upkeep of tables, scheduled by Celery beat (settings.CELERY_BEAT_SCHEDULE)."""

from celery import shared_task

from tables import services


@shared_task(name="tables.tasks.expire_tables", ignore_result=True)
def expire_tables() -> int:
    """Close the open tables whose time is up (`tables.services.expire`)."""
    return services.expire()
