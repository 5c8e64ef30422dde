"""WSGI entry point for production servers: `gunicorn --chdir platform arena_site.wsgi`."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arena_site.settings")

application = get_wsgi_application()
