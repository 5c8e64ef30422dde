"""docker-compose.yml and the Dockerfile describe the same service as `make up`, on PostgreSQL and Redis.
No Docker engine runs here, so the files' structure is checked against the code they start."""

import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]


def compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def test_services_and_their_dependencies():
    services = compose()["services"]
    assert set(services) == {"db", "redis", "web", "worker", "beat"}
    assert services["db"]["image"].startswith("postgres:")
    assert services["redis"]["image"].startswith("redis:")
    for name in ("web", "worker", "beat"):
        service = services[name]
        assert service["build"] == "."
        env = service["environment"]
        assert env["DATABASE_URL"].startswith("postgres://") and "@db:5432/" in env["DATABASE_URL"]
        assert env["CELERY_BROKER_URL"].startswith("redis://redis:6379/")
        assert env["ARENA_DEBUG"] == "0"
        assert service["depends_on"]["db"]["condition"] == "service_healthy"
        assert service["depends_on"]["redis"]["condition"] == "service_healthy"
        assert "storage:/data" in service["volumes"]  # web stores uploads that workers read
    assert services["web"]["ports"] == ["127.0.0.1:8000:8000"]  # plain HTTP: for the TLS proxy on the host only
    assert services["worker"]["privileged"] is True  # bubblewrap and cgroups for the bot sandbox
    assert {"pgdata", "redisdata", "storage"} <= set(compose()["volumes"])


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
        assert command[:5] == ["celery", "--workdir", "platform", "-A", "arena_site"] and command[5] == name
        assert (ROOT / "platform" / "arena_site" / "celery.py").exists()
    assert services["worker"]["command"][services["worker"]["command"].index("-Q") + 1] == "arena"
    assert app.conf.task_default_queue  # the queue the worker listens on is the default queue in production


def test_dockerfile_copies_what_exists_and_installs_the_deploy_extra():
    dockerfile = (ROOT / "Dockerfile").read_text()
    for source in re.findall(r"^COPY (.+?) \S+$", dockerfile, re.M):
        for path in source.split():
            assert (ROOT / path).exists(), path
    assert ".[deploy]" in dockerfile and "arena runtimes install" in dockerfile
    assert "bubblewrap" in dockerfile
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert re.search(r"^deploy = \[", pyproject, re.M) and "gunicorn" in pyproject
