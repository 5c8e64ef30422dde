"""Settings for the type checker (mypy's Django plugin loads them: `[tool.django-stubs]` in pyproject.toml).

The real settings, read with a fixed stand-in secret so that `make lint` runs the same in any shell: without one,
embedded defaults would write a key into var/ and a shell with DATABASE_URL set (as for the tests) would stop at
the missing ARENA_SECRET_KEY. The plugin only reads the installed apps, the models and the settings' types."""

import os

os.environ.setdefault("ARENA_SECRET_KEY", "type-checking-only")

from arena_site.settings import *  # noqa: E402,F401,F403
