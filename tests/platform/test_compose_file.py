"""docker-compose.yml and the Dockerfile describe the same service as `make up`, on PostgreSQL and Redis.
No Docker engine runs here, so the files' structure is checked against the code they start."""

import os
import re
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]


def compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def test_services_and_their_dependencies():
    services = compose()["services"]
    assert set(services) == {"db", "redis", "minio", "migrate", "web", "worker", "people", "notifier", "beat"}
    assert services["db"]["image"].startswith("postgres:")
    assert services["redis"]["image"].startswith("redis:")
    for name in ARENA_SERVICES:
        service = services[name]
        assert service["build"] == "."
        env = service["environment"]
        assert env["DATABASE_URL"].startswith("postgres://") and "@db:5432/" in env["DATABASE_URL"]
        assert env["CELERY_BROKER_URL"].startswith("redis://redis:6379/")
        assert env["ARENA_DEBUG"] == "0"
        assert service["depends_on"]["db"]["condition"] == "service_healthy"
        assert service["depends_on"]["redis"]["condition"] == "service_healthy"
        assert service["volumes"] == ["/data"]  # each container's own: they share only db, redis and minio
        assert service["depends_on"]["minio"]["condition"] == "service_healthy"
    # plain HTTP: for the TLS proxy on the host only (the port may be moved, never the address)
    assert services["web"]["ports"] == ["127.0.0.1:${ARENA_WEB_PORT:-8000}:8000"]
    # issue 24: least privilege for the sandbox, never `privileged: true` (refused where a capability is withheld)
    assert not [name for name, service in services.items() if service.get("privileged")]
    worker = services["worker"]
    assert worker["cap_drop"] == ["ALL"]
    assert set(worker["cap_add"]) == {"SYS_ADMIN", "SETUID", "SETGID", "CHOWN", "FOWNER", "DAC_OVERRIDE", "KILL"}
    assert "seccomp=unconfined" not in worker["security_opt"] and "seccomp:unconfined" not in worker["security_opt"]
    # the two services that run bots (the ladders' worker, the people's matches' worker) and no other
    assert [name for name, service in services.items() if service.get("cap_add")] == ["worker", "people"]
    assert [name for name, service in services.items() if service.get("user") == "root"] == ["worker", "people"]
    for key in ("cap_drop", "cap_add", "security_opt"):
        assert services["people"][key] == worker[key]
    assert set(compose()["volumes"]) == {"pgdata", "redisdata", "miniodata"}  # no volume shared by Arena's services


def test_commands_name_real_entry_points():
    from django.core.management import get_commands

    services = compose()["services"]
    web = services["web"]["command"]
    for command in re.findall(r"manage\.py (\w+)", web):
        assert command in get_commands(), command
    assert "arena_site.wsgi" in web
    import arena_site.wsgi  # noqa: F401  (importable)
    from arena_site.celery import app
    for name in ("worker", "beat"):
        command = services[name]["command"]
        if command[0] == "arena-worker-init":  # the worker's cgroups made writable first (scripts/worker-init)
            command = command[1:]
            assert "COPY scripts/worker-init /usr/local/bin/arena-worker-init" in (ROOT / "Dockerfile").read_text()
        assert command[:5] == ["celery", "--workdir", "platform", "-A", "arena_site"] and command[5] == name
        assert (ROOT / "platform" / "arena_site" / "celery.py").exists()
    # uploads' validations first (ARENA_VALIDATION_QUEUE), then matches, then beat's ticks
    assert services["worker"]["command"][services["worker"]["command"].index("-Q") + 1] == \
        "arena-validate,arena,arena-control"
    assert services["worker"]["environment"]["ARENA_VALIDATION_QUEUE"] == "arena-validate"
    assert app.conf.task_default_queue  # the queue the worker listens on is the default queue in production


def test_dockerfile_copies_what_exists_and_installs_the_deploy_extra():
    dockerfile = (ROOT / "Dockerfile").read_text()
    for source in re.findall(r"^COPY (.+?) \S+$", dockerfile, re.M):
        for path in source.split():
            assert (ROOT / path).exists(), path
    assert ".[deploy]" in dockerfile and "scripts/build-image" in dockerfile  # the runtimes and the bots
    assert "bubblewrap" in dockerfile
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert re.search(r"^deploy = \[", pyproject, re.M) and "gunicorn" in pyproject


# --- issue 12: a deployment that works on first start --------------------------------------------------------

ARENA_SERVICES = ("migrate", "web", "worker", "people", "notifier", "beat")
SOURCES = [ROOT / "platform" / "arena_site" / "settings.py", *sorted((ROOT / "arena").rglob("*.py"))]


def test_every_environment_variable_is_one_the_code_reads():
    """A misspelt name (ARENA_SANBOX) would be ignored silently: each name must appear, quoted, in the settings
    or the engine. (Compose's and the image's own, POSTGRES_*, belong to the postgres image.)"""
    code = "\n".join(path.read_text() for path in SOURCES)
    services = compose()["services"]
    for name in ARENA_SERVICES:
        for variable in services[name]["environment"]:
            assert f'"{variable}"' in code, f"{name}: {variable} is read nowhere"
    dockerfile = (ROOT / "Dockerfile").read_text()
    for variable in re.findall(r"\b(ARENA_\w+)=", dockerfile):
        assert f'"{variable}"' in code, variable


def test_web_accepts_uploads_and_the_worker_decides_the_sandbox():
    services = compose()["services"]
    assert services["web"]["environment"]["ARENA_SANDBOX"] == "worker"  # never probes its unprivileged self
    assert services["worker"]["environment"]["ARENA_SANDBOX"] in ("auto", "on")
    for name in ARENA_SERVICES:  # the rest of the environment is the same everywhere
        others = {k: v for k, v in services[name]["environment"].items() if k != "ARENA_SANDBOX"}
        assert others == {k: v for k, v in services["web"]["environment"].items() if k != "ARENA_SANDBOX"}


def test_migrations_run_once_before_web_worker_and_beat():
    from django.core.management import get_commands

    services = compose()["services"]
    migrate = services["migrate"]
    assert migrate["restart"] == "no"  # a one-shot: `unless-stopped` would run it again and again
    commands = re.findall(r"manage\.py (\w+)", migrate["command"])
    assert commands[0] == "migrate" and {"ensure_ladders", "register_builtin_bots"} <= set(commands)
    assert all(command in get_commands() for command in commands)
    for name in ("web", "worker", "people", "notifier", "beat"):
        assert services[name]["depends_on"]["migrate"] == {"condition": "service_completed_successfully"}
        command = services[name]["command"]
        assert "migrate" not in (command if isinstance(command, str) else " ".join(command))


def test_healthchecks_and_init():
    services = compose()["services"]
    # one init: the image's tini is pid 1 and reaps the bots' orphans; compose's `init: true` would add a second
    assert '["/usr/bin/tini", "--"' in (ROOT / "Dockerfile").read_text()
    for name, service in services.items():
        assert not service.get("init"), name
        # bounded logs (issue 24): Docker's default json-file keeps every line forever
        assert service["logging"] == {"driver": "json-file", "options": {"max-size": "10m", "max-file": "3"}}, name
    for name in ("db", "redis", "minio", "web", "worker", "people", "notifier", "beat"):
        check = services[name]["healthcheck"]
        assert check["test"][0] in ("CMD", "CMD-SHELL") and check["interval"] and check["retries"]
    web, beat = services["web"]["healthcheck"]["test"], services["beat"]["healthcheck"]["test"]
    assert web[1:] == ["python", "platform/arena_site/health.py", "web"]
    # beat's scheduler marks <schedule>.alive (arena_site/beat.py); the Celery workers mark /data/worker.alive
    schedule = services["beat"]["command"][services["beat"]["command"].index("--schedule") + 1]
    assert beat[1:] == ["python", "platform/arena_site/health.py", "alive", schedule + ".alive"]
    from arena_site.beat import AliveScheduler
    from arena_site.celery import app
    assert app.conf.beat_scheduler == "arena_site.beat:AliveScheduler" and AliveScheduler
    assert (ROOT / "platform" / "arena_site" / "health.py").is_file()
    for name in ("worker", "people", "notifier"):
        assert services[name]["environment"]["ARENA_VAR_DIR"] == "/data"
        assert services[name]["healthcheck"]["test"][1:] == ["python", "platform/arena_site/health.py", "alive",
                                                             "/data/worker.alive"], name
    from django.urls import resolve

    from arena_site.health import healthz
    assert resolve("/healthz").func is healthz


def test_the_image_builds_every_builtin_bot_that_needs_building(tmp_path):
    """The Dockerfile's build steps are scripts/build-image, which CI runs outside Docker (.ci/run): run here
    with a stand-in `arena` that records its calls, it installs the runtimes and builds exactly the built-in
    bots that have a build (C++, Go, Java), without the sandbox that `docker build` lacks."""
    import subprocess

    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "scripts/build-image" in re.search(r"^RUN .*?python3 -m venv .*?(?=^\S)", dockerfile, re.M | re.S).group(0)
    assert re.search(r"^COPY scripts/build-image ", dockerfile, re.M)
    assert "arena bot build" not in dockerfile  # one list of steps: the script's
    assert "ARENA=.venv/bin/arena scripts/build-image" in (ROOT / ".ci" / "run").read_text()
    calls = tmp_path / "calls"
    fake = tmp_path / "arena"
    fake.write_text(f'#!/bin/sh\necho "$*" >> {calls}\n')
    fake.chmod(0o755)
    subprocess.run([str(ROOT / "scripts" / "build-image")], env={**__import__("os").environ, "ARENA": str(fake)},
                   check=True, capture_output=True)
    lines = calls.read_text().splitlines()
    needs_build = {path.parent.relative_to(ROOT).as_posix() for path in (ROOT / "bots").glob("*/*/Makefile")
                   if (path.parent / "bot.toml").exists()}
    assert needs_build >= {"bots/cpp/random", "bots/go/random", "bots/java/random"}
    # the compiled game engines first (the referee's, and the runtime's build reads them), then the runtimes
    assert lines[:2] == ["engines build", "runtimes install"]
    assert sorted(lines[2:]) == sorted(f"bot build --no-sandbox --timeout 3600 {bot}" for bot in needs_build)


def test_the_projects_own_builds_are_not_held_to_the_limit_for_uploads(tmp_path):
    """A built-in bot whose build takes longer than ARENA_BUILD_TIMEOUT (the limit for strangers' uploads) still
    builds in the image (ARENA_TRUSTED_BUILD_TIMEOUT, default an hour), while the same build run the way an
    upload's is (no --timeout: the machine's ARENA_BUILD_TIMEOUT) is stopped: the real `arena bot build`, on a
    copy of scripts/build-image beside a bot whose build takes 3 s, with ARENA_BUILD_TIMEOUT=1."""
    import shutil
    import subprocess

    (tmp_path / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "build-image", tmp_path / "scripts" / "build-image")
    bot = tmp_path / "bots" / "x" / "slow"
    bot.mkdir(parents=True)
    (bot / "bot.toml").write_text(
        'name = "slow"\ngames = ["thebes"]\nruntime = "binary"\ncommand = ["build/bot"]\n'
        'build = ["sh", "-c", "sleep 3 && mkdir -p build && printf \'#!/bin/sh\\\\n\' > build/bot && chmod +x build/bot"]\n')
    arena = shutil.which("arena", path=str(Path(sys.executable).parent))
    # the runtimes are the set-up's (`arena runtimes install`): this copy runs the real command for the builds
    wrapper = tmp_path / "arena"
    # (and so are the compiled engines: `arena engines build` compiles this checkout's, not the copy's)
    wrapper.write_text(f'#!/bin/sh\ncase "$1" in runtimes|engines) exit 0;; esac\nexec {arena} "$@"\n')
    wrapper.chmod(0o755)
    env = {**os.environ, "ARENA": str(wrapper), "ARENA_BUILD_TIMEOUT": "1"}
    env.pop("ARENA_TRUSTED_BUILD_TIMEOUT", None)

    as_upload = subprocess.run([arena, "bot", "build", "--no-sandbox", str(bot)], env=env, capture_output=True,
                               text=True)
    assert as_upload.returncode != 0 and "took longer than 1 s" in as_upload.stderr
    image = subprocess.run([str(tmp_path / "scripts" / "build-image")], env=env, capture_output=True, text=True)
    assert image.returncode == 0, image.stderr
    assert (bot / "build" / "bot").is_file()


def test_dockerignore_keeps_local_state_out_of_the_image():
    ignored = {line.strip() for line in (ROOT / ".dockerignore").read_text().splitlines()
               if line.strip() and not line.startswith("#")}
    assert {".git", ".venv", ".runtime", "var", "test-artifacts", ".cache", ".env", "bots/*/*/build"} <= ignored
    # the host's compiled engines are for the host's Python, not the image's (and their stamp would tell the
    # image's build that its engines are compiled; it also made every engine build on the host a cache miss)
    assert {"**/*.so", "arena/games/_engines.stamp"} <= ignored


def test_notifications_have_a_queue_and_an_unprivileged_worker_of_their_own():
    """A slow webhook never delays matches: notification tasks go to `<queue>-notify`, which only the notifier
    consumes (the worker that runs bots listens to the matches' queue alone), and `manage.py up` starts one too."""
    from django.conf import settings

    from arena_site.celery import app
    from notifications.tasks import deliver_webhook, send_email

    services = compose()["services"]
    worker, notifier = services["worker"]["command"], services["notifier"]["command"]
    validate, default, control = worker[worker.index("-Q") + 1].split(",")
    assert validate == services["worker"]["environment"]["ARENA_VALIDATION_QUEUE"] != default
    assert notifier[notifier.index("-Q") + 1].split(",") == [f"{default}-notify", control]
    assert notifier[:6] == ["celery", "--workdir", "platform", "-A", "arena_site", "worker"]
    assert not services["notifier"].get("privileged") and services["notifier"].get("user") is None
    for task in (deliver_webhook, send_email):
        assert app.amqp.router.route({}, task.name)["queue"].name == settings.ARENA_NOTIFY_QUEUE
    assert settings.ARENA_NOTIFY_QUEUE == f"{settings.CELERY_TASK_DEFAULT_QUEUE}-notify"
    up = (ROOT / "platform" / "arena_site" / "management" / "commands" / "up.py").read_text()
    assert '"-Q", settings.ARENA_NOTIFY_QUEUE' in up


def test_people_s_matches_have_a_queue_and_a_thread_pool_worker_of_their_own():
    """Issue 25: a match where a person plays goes to `<queue>-human`, consumed only by the `people` worker (a
    thread pool: its referees mostly wait for a person), never by the ladder's worker; `manage.py up` starts one."""
    from django.conf import settings

    services = compose()["services"]
    worker, people = services["worker"]["command"], services["people"]["command"]
    default = worker[worker.index("-Q") + 1].split(",")[1]
    assert people[people.index("-Q") + 1] == f"{default}-human"
    assert f"{default}-human" not in worker[worker.index("-Q") + 1].split(",")
    assert people[people.index("--pool") + 1] == "threads"
    assert services["people"]["cap_add"] == services["worker"]["cap_add"]  # it runs bots in the sandbox
    assert settings.ARENA_HUMAN_QUEUE == f"{settings.CELERY_TASK_DEFAULT_QUEUE}-human"
    up = (ROOT / "platform" / "arena_site" / "management" / "commands" / "up.py").read_text()
    assert '"-Q", settings.ARENA_HUMAN_QUEUE' in up


def test_object_storage_is_a_minio_bucket_made_before_anything_uses_it():
    """Issue 12: uploads, packages and replays go to S3-compatible storage (MinIO here), so web and workers share
    no disk; the migrate service makes the bucket before web and workers start."""
    from arena_site.settings import s3_storage

    services = compose()["services"]
    minio = services["minio"]
    # pinned to a release that exists on MinIO's own registry (minio/minio left Docker Hub in 2026)
    assert re.fullmatch(r"quay\.io/minio/minio:RELEASE\.[0-9TZ:-]+", minio["image"]) and minio["command"][0] == "server"
    assert minio["volumes"] == ["miniodata:/data"] and not minio.get("ports")  # not published outside compose
    assert minio["healthcheck"]["test"] == ["CMD", "mc", "ready", "local"]
    env = services["web"]["environment"]
    assert env["ARENA_S3_ENDPOINT_URL"].endswith("http://minio:9000}") and env["ARENA_S3_ADDRESSING_STYLE"] == "path"
    # MinIO's root account is the one Arena signs in with
    assert minio["environment"]["MINIO_ROOT_USER"] == env["ARENA_S3_ACCESS_KEY_ID"]
    assert minio["environment"]["MINIO_ROOT_PASSWORD"] == env["ARENA_S3_SECRET_ACCESS_KEY"]
    commands = re.findall(r"manage\.py (\w+)", services["migrate"]["command"])
    assert commands.index("ensure_bucket") < commands.index("register_builtin_bots")
    resolved = {k: re.sub(r"\$\{\w+:-(.*)\}", r"\1", v) for k, v in env.items() if k.startswith("ARENA_S3_")}
    storage = s3_storage(resolved)
    assert storage["BACKEND"] == "storages.backends.s3.S3Storage"
    assert storage["OPTIONS"]["endpoint_url"] == "http://minio:9000" and storage["OPTIONS"]["bucket_name"] == "arena"
    assert storage["OPTIONS"]["addressing_style"] == "path" and storage["OPTIONS"]["default_acl"] is None


def test_beats_ticks_have_a_queue_that_no_match_can_hold_up():
    """In production (compose) a tick of beat — matchmaking, the recovery of a dead worker's match, refits —
    never waits behind queued matches or for a busy worker process: it goes to ARENA_CONTROL_QUEUE, which the
    notifier (threads, never busy with a match) and every worker consume. Read in a fresh process with the
    compose file's environment, as a container would."""
    import json
    import subprocess
    import sys

    services = compose()["services"]
    control = services["worker"]["environment"]["ARENA_CONTROL_QUEUE"]
    assert control in services["worker"]["command"][services["worker"]["command"].index("-Q") + 1].split(",")
    assert control in services["notifier"]["command"][services["notifier"]["command"].index("-Q") + 1].split(",")
    probe = ("import json, django; django.setup(); from django.conf import settings; "
             "from arena_site.celery import app; "
             "print(json.dumps({e['task']: app.amqp.router.route({}, e['task'])['queue'].name "
             "for e in settings.CELERY_BEAT_SCHEDULE.values()} | "
             "{'match': app.amqp.router.route({}, 'matches.tasks.run_match')['queue'].name}))")
    env = {**os.environ, "ARENA_CONTROL_QUEUE": control, "ARENA_CELERY_QUEUE": "arena",
           "DJANGO_SETTINGS_MODULE": "arena_site.test_settings",
           "PYTHONPATH": os.pathsep.join([str(ROOT / "platform"), str(ROOT)])}
    routes = json.loads(subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True,
                                       check=True, timeout=120).stdout)
    assert routes.pop("match") == "arena"
    assert {"matchmaking.tasks.matchmake", "matches.tasks.recover_stale_matches"} <= set(routes)
    assert set(routes.values()) == {control}, routes


def test_the_build_trusts_an_extra_ca_for_one_step_and_keeps_nothing(tmp_path):
    """Issue 24: behind a TLS-inspecting proxy the image's registry steps trust the build secret `extra_ca`
    (scripts/with-build-ca): apt, pip and npm see one bundle, the system's certificates then the extra ones, for
    that step only; without the secret the command runs as it is."""
    import subprocess

    extra = tmp_path / "extra.pem"
    extra.write_text("-----BEGIN CERTIFICATE-----\nEXTRA\n-----END CERTIFICATE-----\n")
    script = str(ROOT / "scripts" / "with-build-ca")
    show = ("for v in PIP_CERT REQUESTS_CA_BUNDLE SSL_CERT_FILE NODE_EXTRA_CA_CERTS npm_config_cafile; do "
            "eval echo \\$$v; done; cat \"$APT_CONFIG\"; cat \"$PIP_CERT\" | tail -2 | head -1")
    out = subprocess.run([script, "sh", "-c", show], env={**os.environ, "ARENA_EXTRA_CA_FILE": str(extra)},
                         capture_output=True, text=True, check=True).stdout.splitlines()
    bundle = out[0]
    assert out[:5] == [bundle] * 5 and bundle.startswith("/tmp/build-ca.")
    assert out[5] == f'Acquire::https::CAInfo "{bundle}";' and out[6] == "EXTRA"
    assert not Path(bundle).exists(), "the bundle is gone once the step ended: no layer keeps it"
    failing = subprocess.run([script, "sh", "-c", "exit 3"], env={**os.environ, "ARENA_EXTRA_CA_FILE": str(extra)})
    assert failing.returncode == 3  # the step's own failure, not hidden
    plain = subprocess.run([script, "sh", "-c", "echo ${PIP_CERT:-none}"], capture_output=True, text=True,
                           env={**{k: v for k, v in os.environ.items() if k != "PIP_CERT"},
                                "ARENA_EXTRA_CA_FILE": str(tmp_path / "missing")}, check=True)
    assert plain.stdout.strip() == "none"
    dockerfile = (ROOT / "Dockerfile").read_text()
    steps = [line for line in dockerfile.splitlines() if line.startswith("RUN")]
    # every step that reaches a registry (apt, pip, npm through `arena runtimes install`) trusts it; no other
    assert [("apt-get" in s or "pip install" in s) for s in steps] == ["with-build-ca" in s for s in steps]
    assert not re.search(r"^(ENV|ARG|COPY).*extra_ca", dockerfile, re.M), "never an argument or a file of the image"


def test_built_in_bots_registered_by_the_platform_get_the_trusted_time_limit(monkeypatch, tmp_path):
    """Issue 24: `register_builtin_bots` builds a built-in bot that is not built yet with the project's own limit
    (ARENA_TRUSTED_BUILD_TIMEOUT, default an hour), never with the uploads' ARENA_BUILD_TIMEOUT."""
    from arena import botbuild
    from botregistry import services

    seen = {}
    monkeypatch.setattr(botbuild, "ensure_built", lambda folder, **kw: seen.update(kw))
    monkeypatch.setenv("ARENA_BUILD_TIMEOUT", "1")
    monkeypatch.delenv("ARENA_TRUSTED_BUILD_TIMEOUT", raising=False)
    services._build_builtin(tmp_path)
    assert seen["timeout"] == 3600
    monkeypatch.setenv("ARENA_TRUSTED_BUILD_TIMEOUT", "7200")
    services._build_builtin(tmp_path)
    assert seen["timeout"] == 7200


def test_the_database_takes_every_connection_the_stack_may_hold():
    """Each web thread keeps a connection (CONN_MAX_AGE), each Celery slot a task's and its heartbeat's: the sum,
    with 10 more worker containers and PostgreSQL's 3 superuser connections, fits the db's max_connections
    (PostgreSQL's default 100 did not: 3 x 64 web threads alone)."""
    services = compose()["services"]
    db = services["db"]["command"]
    assert db[0] == "postgres"
    max_connections = int(next(word.split("=", 1)[1] for word in db if word.startswith("max_connections=")))
    web = services["web"]["command"]
    web = web if isinstance(web, str) else " ".join(web)
    processes, threads = (int(re.search(rf"--{flag} (\d+)", web)[1]) for flag in ("workers", "threads"))

    def celery(name: str) -> int:
        command = services[name]["command"]
        concurrency = int(command[command.index("--concurrency") + 1])
        return 2 * concurrency + 2

    stack = processes * threads + sum(celery(name) for name in ("worker", "people", "notifier")) + 2 + 2  # beat, migrate
    more_workers = 10 * celery("worker")
    assert stack + more_workers + 3 <= max_connections, (stack, more_workers, max_connections)
