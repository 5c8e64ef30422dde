"""Marks of life (issue 24): a Celery worker's main loop and beat's scheduler each rewrite a file that
docker-compose's healthchecks read (`health.py alive FILE`), so that a worker or a beat whose loop has stopped
turns unhealthy, and every failing check says why."""

from __future__ import annotations

import os
import time

from celery import Celery


def test_alive_fails_without_a_fresh_mark_and_says_why(tmp_path, capsys):
    from arena_site.health import ALIVE_STALE_SECONDS, alive_problem, main

    mark = tmp_path / "worker.alive"
    assert "no mark of life" in (alive_problem(mark) or "")
    assert main(["health.py", "alive", str(mark)]) == 1
    assert "unhealthy: no mark of life at" in capsys.readouterr().out
    mark.touch()
    assert alive_problem(mark) is None and main(["health.py", "alive", str(mark)]) == 0
    old = time.time() - ALIVE_STALE_SECONDS - 10
    os.utime(mark, (old, old))
    assert "its loop has stopped" in (alive_problem(mark) or "")
    assert main(["health.py", "alive", str(mark)]) == 1 and "s old (over 180 s)" in capsys.readouterr().out
    assert main(["health.py", "beat", str(mark)]) == 2 and main(["health.py"]) == 2  # usage


def test_the_web_check_says_why_it_fails(monkeypatch):
    from arena_site import health

    # nothing listens on the port it probes: the reason names the time it waited and the error
    monkeypatch.setattr(health, "web_request", lambda environ: health.urllib.request.Request(
        "http://127.0.0.1:9/healthz"))
    assert (health.web_problem({}) or "").startswith("/healthz did not answer within")


def test_beats_scheduler_marks_each_tick(tmp_path):
    """Celery's own scheduler, with an app of its own (nothing falls due, nothing is sent)."""
    from arena_site.beat import AliveScheduler

    app = Celery("liveness-test", set_as_current=False)
    app.conf.beat_schedule = {}
    scheduler = AliveScheduler(app=app, schedule_filename=str(tmp_path / "celerybeat-schedule"))
    try:
        mark = tmp_path / "celerybeat-schedule.alive"
        assert not mark.exists()
        assert scheduler.tick() > 0
        assert mark.is_file() and time.time() - mark.stat().st_mtime < 60
    finally:
        scheduler.close()


def test_a_running_worker_rewrites_its_mark(celery_worker, tmp_path):
    """A real worker (tests/platform/conftest.py's, on a queue and a var folder of its own, so that no task of
    the session's worker holds its solo loop meanwhile) marks <ARENA_VAR_DIR>/worker.alive at start, then every
    10 s."""
    from arena_site.worker_alive import MARK_SECONDS
    from tests.platform.conftest import WorkerProcess

    var = tmp_path / "var"
    worker = WorkerProcess({**celery_worker.env, "ARENA_VAR_DIR": str(var),
                            "ARENA_CELERY_QUEUE": f"{celery_worker.env['ARENA_CELERY_QUEUE']}-alive"}, tmp_path)
    worker.start()
    try:
        mark = var / "worker.alive"
        assert mark.is_file()  # marked at start
        first = mark.stat().st_mtime
        deadline = time.time() + 30 * MARK_SECONDS  # generous: a busy host delays the timer, never by minutes
        while mark.stat().st_mtime <= first:
            assert time.time() < deadline, f"the worker did not rewrite {mark} within {30 * MARK_SECONDS:.0f} s"
            time.sleep(0.5)
    finally:
        worker.stop()
