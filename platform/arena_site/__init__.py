"""The Arena platform's Django project. Importing it loads the Celery app so `shared_task`s bind to it."""

from arena_site.celery import app as celery_app

__all__ = ["celery_app"]
