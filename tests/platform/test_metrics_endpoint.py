"""`GET /metrics`: Prometheus's text format, computed from the database at scrape time (so what Celery workers
recorded shows on the web's endpoint), readable only with the bearer token or a staff log-in."""

from datetime import timedelta

import pytest
from django.test import Client, override_settings
from django.utils import timezone
from platform_helpers import make_bot
from prometheus_client.parser import text_string_to_metric_families

TOKEN = "s3cret-metrics-token"


def scrape(client: Client, **headers) -> dict:
    """{(sample name, frozenset of labels): value} of one scrape."""
    response = client.get("/metrics", **headers)
    assert response.status_code == 200, response.content
    assert response["Content-Type"].startswith("text/plain; version=")
    return {(s.name, frozenset(s.labels.items())): s.value
            for family in text_string_to_metric_families(response.content.decode())
            for s in family.samples}


@pytest.fixture(autouse=True)
def no_sealed_totals():
    """The totals of sealed matches are kept in the cache (monitoring.collector.finished_totals): each test's
    database starts empty, so must they."""
    from django.core.cache import cache

    from monitoring import collector

    cache.clear()
    collector._sealed_here.clear()
    yield
    cache.clear()
    collector._sealed_here.clear()


def seat(match, bot, n, **fields):
    from matches.models import Participant
    return Participant.objects.create(match=match, seat=n, bot=bot, version=bot.active_version, **fields)


@pytest.fixture
def rows(make_user):
    """Two finished matches (60 s and 200 s), a failed one, two running, one queued tournament match; faults of
    two kinds on three seats; versions ready, failed and pending."""
    from matches.models import Match

    owner = make_user()
    a, b = make_bot(owner, "alpha"), make_bot(owner, "beta")
    make_bot(owner, "broken", status="failed")
    make_bot(owner, "fresh", status="pending")
    now = timezone.now()

    def match(status, kind="ladder", seconds=None):
        m = Match.objects.create(game="thebes", seed=1, status=status, kind=kind, params={"players": 2})
        if seconds is not None:
            Match.objects.filter(pk=m.pk).update(started_at=now - timedelta(seconds=seconds), finished_at=now)
        return m

    quick, slow = match("finished", seconds=60), match("finished", seconds=200)
    seat(quick, a, 0, decisions=10, time_ms=200.0,  # 20 ms a decision
         faults=[{"kind": "timeout", "message": "", "decision": 3}, {"kind": "timeout", "message": "", "decision": 4}])
    seat(quick, b, 1, decisions=10, time_ms=3000.0)  # 300 ms a decision
    seat(slow, a, 0, decisions=4, time_ms=2.0, faults=[{"kind": "crash", "message": "", "decision": 1}])
    seat(slow, b, 1, decisions=0, time_ms=0.0)  # never asked: no mean to count
    failed = match("failed", seconds=5)  # ended: `finished_at` is set whichever way a match ends
    seat(failed, b, 0, faults=[{"kind": "timeout", "message": "", "decision": 0}])
    match("running"), match("running"), match("queued", kind="tournament")


@override_settings(ARENA_METRICS_TOKEN=TOKEN)
def test_scrape_counts_the_rows_in_the_database(rows):
    from matches.services import waiting_messages

    waiting = waiting_messages()
    got = scrape(Client(), HTTP_AUTHORIZATION=f"Bearer {TOKEN}")

    def value(name, **labels):
        return got[(name, frozenset(labels.items()))]

    assert value("arena_matches", status="finished", kind="ladder") == 2
    assert value("arena_matches", status="running", kind="ladder") == 2
    assert value("arena_matches", status="failed", kind="ladder") == 1
    assert value("arena_matches", status="queued", kind="tournament") == 1
    assert value("arena_matches", status="queued", kind="ladder") == 0  # every pair is present, zeros included
    assert value("arena_matches_ended_total", status="finished", kind="ladder") == 2
    assert value("arena_matches_ended_total", status="failed", kind="ladder") == 1
    assert ("arena_matches_ended_total", frozenset({"status": "running", "kind": "ladder"})) not in got

    assert value("arena_match_duration_seconds_count") == 2
    assert value("arena_match_duration_seconds_sum") == pytest.approx(260.0)
    assert value("arena_match_duration_seconds_bucket", le="30.0") == 0
    assert value("arena_match_duration_seconds_bucket", le="60.0") == 1
    assert value("arena_match_duration_seconds_bucket", le="300.0") == 2
    assert value("arena_match_duration_seconds_bucket", le="+Inf") == 2

    # seats of finished matches that decided: 20 ms, 300 ms and 0.5 ms a decision
    assert value("arena_decision_duration_seconds_count") == 3
    assert value("arena_decision_duration_seconds_sum") == pytest.approx(0.02 + 0.3 + 0.0005)
    assert value("arena_decision_duration_seconds_bucket", le="0.001") == 1
    assert value("arena_decision_duration_seconds_bucket", le="0.05") == 2
    assert value("arena_decision_duration_seconds_bucket", le="0.5") == 3
    assert value("arena_decisions_total") == 24
    assert value("arena_decision_seconds_total") == pytest.approx(3.202)

    assert value("arena_faults_total", kind="timeout") == 3  # the failed match's seat counts too
    assert value("arena_faults_total", kind="crash") == 1

    assert value("arena_bot_versions", status="ready") == 2
    assert value("arena_bot_versions", status="failed") == 1
    assert value("arena_bot_versions", status="pending") == 1
    assert value("arena_bot_versions", status="suspended") == 0

    assert value("arena_broker_up") == 1  # the real Redis of the test run, asked with kombu's passive declare
    assert value("arena_queue_messages") == waiting


@override_settings(ARENA_METRICS_TOKEN=TOKEN)
def test_a_broker_that_cannot_answer_is_reported_not_a_500(rows, monkeypatch):
    import matches.services

    monkeypatch.setattr(matches.services, "waiting_messages", lambda: None)
    got = scrape(Client(), HTTP_AUTHORIZATION=f"Bearer {TOKEN}")
    assert got[("arena_broker_up", frozenset())] == 0
    assert ("arena_queue_messages", frozenset()) not in got


@pytest.mark.parametrize("authorization", [None, "Bearer wrong-token", f"Token {TOKEN}", "Bearer ", f"Basic {TOKEN}"])
@override_settings(ARENA_METRICS_TOKEN=TOKEN)
def test_without_the_token_metrics_are_refused(db, authorization):
    headers = {"HTTP_AUTHORIZATION": authorization} if authorization else {}
    response = Client().get("/metrics", **headers)
    assert response.status_code == 401
    assert response["WWW-Authenticate"].startswith("Bearer")
    assert b"arena_" not in response.content


@override_settings(ARENA_METRICS_TOKEN="")
def test_no_token_configured_means_staff_only_never_an_empty_bearer(db, make_user):
    assert Client().get("/metrics", HTTP_AUTHORIZATION="Bearer ").status_code == 401
    user = make_user()
    client = Client()
    client.force_login(user)
    assert client.get("/metrics").status_code == 401  # signed in is not enough
    user.is_staff = True
    user.save()
    assert "arena_matches" in {name for name, _ in scrape(client)}


@override_settings(ARENA_METRICS_TOKEN=TOKEN)
def test_totals_of_sealed_matches_are_kept_and_only_new_matches_are_read(make_user, monkeypatch):
    """Issue 22, 13: a scrape read every match and seat (2.7-3.9 s at 100,000 matches). Matches finished
    SEAL_AFTER_SECONDS ago are added up once and kept; each scrape adds the matches sealed since and reads the
    newest: the totals stay exact as matches finish, old and new, and a scrape reads no sealed match again."""
    from matches.models import Match
    from monitoring import collector

    owner = make_user()
    a = make_bot(owner, "alpha")
    now = timezone.now()

    def finished(ago: float, seconds: float, decisions: int, fault: str | None = None):
        m = Match.objects.create(game="thebes", seed=1, status="finished", params={"players": 2})
        Match.objects.filter(pk=m.pk).update(started_at=now - timedelta(seconds=ago + seconds),
                                             finished_at=now - timedelta(seconds=ago))
        seat(m, a, 0, decisions=decisions, time_ms=decisions * 10.0,
             faults=[{"kind": fault, "message": "", "decision": 0}] if fault else [])

    finished(3600, 50, 4, "timeout"), finished(1800, 100, 6), finished(10, 20, 2, "crash")
    windows = []
    real = collector.totals_between
    monkeypatch.setattr(collector, "totals_between", lambda since, until: windows.append((since, until)) or
                        real(since, until))

    def totals():
        got = scrape(Client(), HTTP_AUTHORIZATION=f"Bearer {TOKEN}")
        return (got[("arena_match_duration_seconds_count", frozenset())],
                got[("arena_match_duration_seconds_sum", frozenset())], got[("arena_decisions_total", frozenset())],
                got.get(("arena_faults_total", frozenset({"kind": "timeout"}.items())), 0),
                got.get(("arena_faults_total", frozenset({"kind": "crash"}.items())), 0))

    assert totals() == (3, pytest.approx(170.0), 12, 1, 1)
    assert windows[0][0] is None and windows[1][1] is None  # everything sealed once, then the newest
    windows.clear()
    finished(7200, 30, 8, "timeout")  # a match recorded late with an old time is not lost... if under the seal lag
    finished(5, 40, 3)
    got = totals()
    assert all(since is not None for since, _ in windows)  # no full read again: only the windows since the seal
    # the old match landed behind the seal after it was taken: the counters, which only grow, do not see it;
    # recording commits within seconds of `finished_at`, far inside SEAL_AFTER_SECONDS, so real matches never do
    assert got == (4, pytest.approx(210.0), 15, 1, 1)
