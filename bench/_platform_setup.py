"""Shared set-up of the platform benchmarks: Django on a PostgreSQL database of their own (created if missing,
migrated), so a benchmark never touches the development or test databases."""

from __future__ import annotations

import os
import secrets
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

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


def enroll_house_bot(name: str, folder: Path, game: str = "thebes") -> None:
    """Register the bot package `folder` as a ready built-in Python bot called `name` and enroll it on the ladders
    of its game (the benches' stand-in for `register_builtin_bots`, without validating the version)."""
    from arena.botpkg import load_manifest, package_sha256
    from botregistry.models import Bot, BotVersion
    from botregistry.services import house_user, manifest_dict
    from ladders.services import enroll

    manifest, sha = load_manifest(folder), package_sha256(folder)
    bot = Bot.objects.create(owner=house_user(), name=name, game=game, builtin=True)
    version = BotVersion.objects.create(bot=bot, number=1, sha256=sha, package_dir=str(folder),
                                        status="ready", runtime="python", manifest=manifest_dict(manifest))
    Bot.objects.filter(pk=bot.pk).update(active_version=version)
    enroll(bot)


@contextmanager
def site_in_chromium(size: str = "1280,1000") -> Iterator[tuple[str, Any]]:
    """The configured Django site served over real HTTP on 127.0.0.1 (static files included) and a headless
    Chromium driven by Selenium (Debian's chromium + chromedriver): yields (base URL, driver); both stop after."""
    import threading
    from socketserver import ThreadingMixIn
    from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

    from django.contrib.staticfiles.handlers import StaticFilesHandler
    from django.core.wsgi import get_wsgi_application
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    class Quiet(WSGIRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

    class Server(ThreadingMixIn, WSGIServer):
        daemon_threads = True

    httpd = make_server("127.0.0.1", 0, StaticFilesHandler(get_wsgi_application()), server_class=Server,
                        handler_class=Quiet)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    opts = webdriver.ChromeOptions()
    opts.binary_location = "/usr/bin/chromium"
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", f"--window-size={size}", "--disable-dev-shm-usage"):
        opts.add_argument(flag)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=opts)
    try:
        yield f"http://127.0.0.1:{httpd.server_port}", driver
    finally:
        driver.quit()
        httpd.shutdown()
