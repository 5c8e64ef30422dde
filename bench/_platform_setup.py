"""Shared set-up of the platform benchmarks: Django on a PostgreSQL database of their own (created if missing,
migrated), so a benchmark never touches the development or test databases."""

from __future__ import annotations

import os
import secrets
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def setup_django(default_db: str) -> None:
    os.environ.setdefault("DATABASE_URL", f"postgres://postgres@127.0.0.1:5432/{default_db}")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arena_site.settings")
    os.environ.setdefault("ARENA_LOG_LEVEL", "WARNING")
    # A database URL makes these deployment settings: they need a secret key, and benchmarks speak plain HTTP.
    os.environ.setdefault("ARENA_SECRET_KEY", secrets.token_urlsafe(50))
    os.environ.setdefault("ARENA_HTTPS", "0")
    os.environ.setdefault("ARENA_ALLOWED_HOSTS", "localhost,127.0.0.1,testserver")
    for path in (ROOT / "platform", ROOT):
        if str(path) not in sys.path:
            sys.path.insert(0, str(path))
    _create_database(os.environ["DATABASE_URL"])
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", interactive=False, verbosity=0)


def _create_database(url: str) -> None:
    import dj_database_url
    import psycopg

    cfg = dj_database_url.parse(url)
    if "postgresql" not in cfg["ENGINE"]:
        return
    admin = psycopg.connect(host=cfg["HOST"] or "127.0.0.1", port=cfg["PORT"] or 5432, user=cfg["USER"],
                            password=cfg["PASSWORD"] or None, dbname="postgres", autocommit=True)
    with admin:
        exists = admin.execute("select 1 from pg_database where datname = %s", [cfg["NAME"]]).fetchone()
        if not exists:
            admin.execute(f'create database "{cfg["NAME"]}"')


def reset_platform_tables() -> None:
    """Empty the platform's tables (fast: TRUNCATE … CASCADE)."""
    from django.db import connection

    tables = ["matches_participant", "matches_match", "ladders_rating", "ladders_ladder",
              "botregistry_botversion", "botregistry_bot"]
    with connection.cursor() as cursor:
        cursor.execute(f"truncate {', '.join(tables)} restart identity cascade")
