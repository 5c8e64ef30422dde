"""Redis stopped and paused (issue 22, 12 and 13), on a private `redis-server` the test stops or freezes: log-in
and every throttled request answer (limits still hold, counted per process, and the log says so) instead of
500s, `/metrics` answers and says which dependency is down instead of hanging, and every 500 is logged."""

from __future__ import annotations

import io
import logging

import pytest
from redis_helpers import private_redis  # noqa: F401  (a fixture)

# A hang is what some of these faults caused: the limit turns one into a failure instead of a stuck run.
pytestmark = pytest.mark.timeout(300)


@pytest.fixture
def redis_cache(settings, private_redis):  # noqa: F811
    """The deployment's cache (settings.py with a Redis broker) on the private Redis."""
    from arena_site import cache as fail_safe

    fail_safe._state.update(since=None, warned=0.0)
    settings.CACHES = {"default": {"BACKEND": "arena_site.cache.FailSafeRedisCache", "LOCATION": private_redis.url,
                                   "KEY_PREFIX": "arena-cache", "OPTIONS": {"socket_connect_timeout": 1.0,
                                                                            "socket_timeout": 1.0}}}
    yield private_redis
    fail_safe._state.update(since=None, warned=0.0)


@pytest.fixture
def login_rate(settings):
    def set_rate(rate: str) -> None:
        rates = dict.fromkeys(settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "100000/hour")
        settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK,
                                   "DEFAULT_THROTTLE_RATES": {**rates, "login.address": rate}}
    return set_rate


def _log_in(anon, name: str):
    return anon.post("/api/auth/login/", {"username": name, "password": "pw-123456789"}, format="json")


def test_log_in_with_redis_stopped_answers_and_the_limit_still_holds(redis_cache, login_rate, anon, make_user,
                                                                    client, caplog):
    make_user("rita")
    login_rate("3/hour")
    assert _log_in(anon, "rita").status_code == 200, "with Redis up"
    redis_cache.stop()
    caplog.set_level(logging.WARNING, logger="arena.platform")
    answers = [_log_in(anon, "rita").status_code for _ in range(4)]
    assert answers == [200, 200, 200, 429], "counted afresh in the process while Redis is away: the limit holds"
    assert "the cache (Redis) is unreachable" in caplog.text
    form = client.post("/login/", {"username": "rita", "password": "pw-123456789"})  # allauth's limits: the cache too
    assert form.status_code in (200, 302, 429) and form.status_code != 500


def test_log_in_with_redis_paused_answers(redis_cache, login_rate, anon, make_user):
    make_user("paula")
    login_rate("100/hour")
    with redis_cache.paused():
        assert _log_in(anon, "paula").status_code == 200


def test_metrics_with_redis_paused_answer_and_say_so(redis_cache, make_user, client, monkeypatch):
    """The broker is the private Redis too: the queue-length question must not hang the scrape."""
    from django.contrib.auth import get_user_model

    from arena_site.celery import app

    monkeypatch.setattr(app.conf, "broker_url", redis_cache.url)
    monkeypatch.setattr(app.conf, "broker_read_url", redis_cache.url)
    staff = make_user("watcher")
    get_user_model().objects.filter(pk=staff.pk).update(is_staff=True)
    client.force_login(get_user_model().objects.get(pk=staff.pk))
    healthy = client.get("/metrics").content.decode()
    assert "arena_broker_up 1.0" in healthy and "arena_cache_up 1.0" in healthy
    with redis_cache.paused():
        response = client.get("/metrics")
    assert response.status_code == 200
    text = response.content.decode()
    assert "arena_broker_up 0.0" in text and "arena_cache_up 0.0" in text
    assert "arena_matchmaking_paused 0.0" in text and "arena_unwritten_replays 0.0" in text
    assert "arena_storage_free_bytes" in text


def test_every_500_is_logged_with_its_traceback(make_user, monkeypatch, db):
    """The error page says "it has been logged": with DEBUG off (as deployed), Django's own console handler drops
    it, so Arena's logging configuration must send it somewhere."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    from monitoring import views

    handlers = [h for h in logging.getLogger("django.request").handlers if isinstance(h, logging.StreamHandler)]
    assert handlers, "django.request has a handler of its own"
    caught = io.StringIO()
    previous = [h.setStream(caught) for h in handlers]

    def broken(registry):
        raise RuntimeError("injected fault in the metrics")

    monkeypatch.setattr(views, "generate_latest", broken)
    staff = make_user("boss-of-metrics")
    get_user_model().objects.filter(pk=staff.pk).update(is_staff=True)
    browser = Client(raise_request_exception=False)
    browser.force_login(get_user_model().objects.get(pk=staff.pk))
    try:
        assert browser.get("/metrics").status_code == 500
    finally:
        for handler, stream in zip(handlers, previous):
            handler.setStream(stream)
    assert "Internal Server Error: /metrics" in caught.getvalue()
    assert "injected fault in the metrics" in caught.getvalue()


@pytest.fixture
def hanging_server():
    """An HTTP server on 127.0.0.1 that accepts every connection and never answers (a hanging S3 endpoint)."""
    import socket
    import threading

    listener = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(listener.accept()[0])
            except TimeoutError:
                continue
            except OSError:
                return

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    stop.set()
    thread.join(timeout=5)
    for conn in held:
        conn.close()
    listener.close()


def test_the_health_check_notices_a_paused_redis(redis_cache, client, db):
    assert client.get("/healthz").status_code == 200
    with redis_cache.paused():
        response = client.get("/healthz")
    assert response.status_code == 503 and response.content == b"cache unavailable\n"


def test_the_health_check_notices_a_hanging_storage_server(hanging_server, settings, client, db):
    """Issue 22, 11: with the S3 endpoint hanging, /healthz stayed 200 while pages took 85 s."""
    from object_storage import CREDENTIALS

    from arena_site.settings import s3_storage

    settings.STORAGES = {**settings.STORAGES, "arena": s3_storage(
        {**CREDENTIALS, "ARENA_S3_BUCKET": "arena", "ARENA_S3_ENDPOINT_URL": hanging_server,
         "ARENA_S3_ADDRESSING_STYLE": "path", "ARENA_S3_TIMEOUT": "1"})}
    response = client.get("/healthz")
    assert response.status_code == 503 and response.content == b"storage unavailable\n"
