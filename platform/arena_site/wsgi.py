"""WSGI entry point for production servers: `gunicorn --chdir platform arena_site.wsgi`."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arena_site.settings")

application = get_wsgi_application()

# The web's own working folder: what a killed web process left in its upload staging goes (matches.storage).
from matches.storage import sweep_at_web_start  # noqa: E402  (after Django is set up)

sweep_at_web_start()
