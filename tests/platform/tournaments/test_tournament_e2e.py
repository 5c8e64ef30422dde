"""End to end on PostgreSQL, Redis, a real Celery worker and a real Celery beat: a tournament scheduled a few
seconds ahead starts by itself, its rounds are played by sandboxed built-in bots, and it ends with standings.
Nothing but the scheduler and the worker moves it."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import timedelta

import pytest
from django.utils import timezone
from platform_helpers import PLATFORM, ROOT, wait_for

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def beat(celery_worker, tmp_path):
    """`celery beat` on the worker's environment, ticking the tournaments every second."""
    env = {**celery_worker.env, "ARENA_TOURNAMENT_TICK_EVERY": "1", "ARENA_MATCHMAKE_EVERY": "3600",
           "ARENA_RECOVER_EVERY": "3600"}
    log = open(tmp_path / "beat.log", "wb")
    proc = subprocess.Popen([sys.executable, "-m", "celery", "-A", "arena_site", "beat", "--loglevel=INFO",
                             "-s", str(tmp_path / "beat-schedule")],
                            cwd=PLATFORM, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    yield proc
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, 9)
        proc.wait()


def test_a_scheduled_tournament_starts_plays_and_ends_by_itself(celery_worker, beat, client):
    from botregistry.services import register_builtin
    from ladders.models import Rating
    from matches.models import Match
    from tournaments.models import Entry, Tournament

    bots = [register_builtin(ROOT / "bots" / "python" / name)[0].bot for name in ("random", "greedy")]
    bots.append(register_builtin(ROOT / "bots" / "node" / "random")[0].bot)
    bots = [b for b in bots if b.game == "thebes"]
    t = Tournament.objects.create(name="E2E cup", game="thebes", players=2, format="round_robin",
                                  starts_at=timezone.now() + timedelta(seconds=3), seed=3,
                                  decision_ms=2000, bank_ms=20000)
    for b in bots:
        Entry.objects.create(tournament=t, bot=b)
    ratings_before = sorted(Rating.objects.values_list("bot_id", "elo", "games"))

    wait_for(lambda: Tournament.objects.get(pk=t.pk).status == "running", 20, what="the start")
    t.refresh_from_db()
    assert t.started_at >= t.starts_at
    try:
        wait_for(lambda: Tournament.objects.get(pk=t.pk).status == "finished", 150, interval=0.5,
                 what="the tournament's end")
    except AssertionError:
        print(celery_worker.log_text()[-4000:])
        raise
    t.refresh_from_db()
    matches = Match.objects.filter(tournament_game__round__tournament=t)
    assert t.current_round == 3 and matches.count() == 3
    assert all(m.status == "finished" and m.replay_path and not m.rated for m in matches), \
        [(m.status, m.status_reason) for m in matches]
    table = t.final_standings
    assert len(table) == 3 and sum(row["units"] for row in table) == 6
    assert sum(row["points"] for row in table) == pytest.approx(3.0)
    assert sorted(Rating.objects.values_list("bot_id", "elo", "games")) == ratings_before

    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert "Final table" in page and all(b.name in page for b in bots)
    m = matches.first()
    assert client.get(f"/matches/{m.pk}/frames.json?seat=0").status_code == 200
