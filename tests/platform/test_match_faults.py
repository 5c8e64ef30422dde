"""Faults around a match's run (issue 12): a frozen worker's stale result, a worker known dead, a lost broker
message. Each drives `matches.services` on the real database as the worker task does."""

import logging
from datetime import timedelta

import pytest
from django.utils import timezone
from platform_helpers import make_bot, wait_for


@pytest.fixture
def ladder(db):
    from ladders.models import Ladder
    return Ladder.objects.create(slug="thebes-2p", name="Thebes 2p", game="thebes", players=2)


@pytest.fixture
def match(ladder, make_user):
    from matches.services import create_match

    a, b = make_bot(make_user(), "alpha"), make_bot(make_user(), "beta")
    return create_match(game="thebes", params={"players": 2}, time_control=ladder.time_control.to_dict(),
                        versions=[a.active_version_id, b.active_version_id], ladder=ladder, queue=False)


def result_for(match, ranks):
    return {"game": match.game, "params": match.params, "seed": match.seed, "engine_version": "thebes-1",
            "replay_path": "", "seats": [
                {"seat": seat, "name": f"s{seat}", "sha256": "0" * 64, "score": float(10 - rank), "rank": rank,
                 "disqualified": False, "faults": [], "time_ms": 12.5, "decisions": 30}
                for seat, rank in enumerate(ranks)]}


def replay_file(tmp_path, name):
    path = tmp_path / f"{name}.replay.json.gz"
    path.write_bytes(b"replay of " + name.encode())
    return path


def go_silent(match):
    """The claiming worker stops writing heartbeats (frozen: SIGSTOP, a VM paused) past the stale threshold."""
    from matches.models import Match
    Match.objects.filter(pk=match.pk).update(heartbeat_at=timezone.now() - timedelta(hours=1))


def test_a_frozen_workers_stale_result_after_the_rerun_claimed_the_match_is_discarded(
        match, tmp_path, caplog):
    from ladders.models import Rating
    from matches import services
    from matches.models import Match

    frozen = services.Run.of(services.claim(match.pk, "host-a:100"))
    go_silent(match)
    rerun = services.Run.of(services.claim(match.pk, "host-b:200"))  # the re-run takes the match over
    assert (rerun.worker, rerun.attempt) == ("host-b:200", 2)

    # The frozen worker wakes up and reports, the other way round from the re-run.
    stale_replay = replay_file(tmp_path, "frozen")
    with caplog.at_level(logging.WARNING, logger="arena.platform"):
        assert services.record_result(match.pk, result_for(match, [2, 1]), stale_replay, frozen) is False
        assert services.heartbeat(match.pk, frozen) is False
        assert services.fail(match.pk, "the frozen run's referee broke", frozen) is False
    assert "discarded the result of superseded run host-a:100 (attempt 1)" in caplog.text
    assert not stale_replay.exists()  # its files are not left behind
    current = Match.objects.get(pk=match.pk)
    assert (current.status, current.worker, current.attempts) == ("running", "host-b:200", 2)
    assert set(Rating.objects.values_list("games", flat=True)) == {0}

    assert services.record_result(match.pk, result_for(match, [1, 2]), replay_file(tmp_path, "rerun"), rerun)
    current.refresh_from_db()
    assert current.status == "finished"
    assert [p.rank for p in current.participants.order_by("seat")] == [1, 2]  # the re-run's result
    assert current.replay_file.read_bytes() == b"replay of rerun"


def test_a_rerun_on_the_same_worker_process_supersedes_its_earlier_attempt(match):
    """Worker + attempt: the same worker id claiming again (a redelivery after it went silent) is a new run."""
    from matches import services

    first = services.Run.of(services.claim(match.pk, "host-a:100"))
    go_silent(match)
    second = services.Run.of(services.claim(match.pk, "host-a:100"))
    assert second.attempt == first.attempt + 1
    assert services.record_result(match.pk, result_for(match, [1, 2]), run=first) is False
    assert services.record_result(match.pk, result_for(match, [1, 2]), run=second) is True


def test_the_claim_holder_records_even_after_going_silent_when_nobody_took_over(match):
    """A slow heartbeat alone supersedes nothing: only another claim does."""
    from matches import services

    run = services.Run.of(services.claim(match.pk, "host-a:100"))
    go_silent(match)
    assert services.record_result(match.pk, result_for(match, [1, 2]), run=run) is True


def dead_worker_here() -> str:
    """The id of a worker process on this host that has exited (as a SIGKILLed pool process has)."""
    import subprocess
    import sys

    from matches.services import process_space

    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return f"{process_space()}:{child.pid}"


def test_a_match_whose_worker_is_known_dead_is_taken_over_at_once(match, settings, monkeypatch):
    """Celery re-queues a killed pool process's task at once (reject_on_worker_lost); the redelivery must not
    wait for the heartbeat to go stale when the claiming process is known to be gone."""
    from matches import services
    from matches.models import Match

    settings.ARENA_STALE_AFTER_SECONDS = 3600  # the heartbeat alone would make it wait an hour
    dead = dead_worker_here()
    assert services.claim(match.pk, dead) is not None

    sent = []
    monkeypatch.setattr(services, "send", sent.append)
    assert services.recover_stale() == [match.pk] and sent == [match.pk]  # beat on this host re-sends it
    taken = services.claim(match.pk, services.worker_id())  # and the redelivery takes it over at once
    assert (taken.worker, taken.attempts) == (services.worker_id(), 2)
    assert services.record_result(match.pk, result_for(match, [1, 2]), run=services.Run(dead, 1)) is False
    assert Match.objects.get(pk=match.pk).status == "running"


def test_a_live_worker_on_this_host_is_not_taken_for_dead(match, settings):
    import os

    from matches import services

    settings.ARENA_STALE_AFTER_SECONDS = 3600
    alive = f"{services.process_space()}:{os.getppid()}"  # our parent process: alive
    assert services.claim(match.pk, alive) is not None
    assert services.claim(match.pk, services.worker_id()) is None
    assert services.recover_stale() == []


def test_a_worker_on_another_host_is_judged_by_its_heartbeat_alone(match, settings):
    from matches import services

    settings.ARENA_STALE_AFTER_SECONDS = 3600
    assert services.claim(match.pk, "another-host:1") is not None  # pid 1 is no process of ours to judge
    assert services.claim(match.pk, f"{services.process_space()}x:999999") is None  # another pid namespace
    assert services.claim(match.pk, services.worker_id()) is None
    assert services.recover_stale() == []


def test_default_thresholds_bring_a_killed_workers_match_back_within_20_seconds():
    """The documented bound (platform/README.md): heartbeat stale + one recovery period ≤ 20 s, with several
    missed beats before a slow-but-alive worker counts as lost."""
    from arena_site import settings as defaults

    schedule = defaults.CELERY_BEAT_SCHEDULE["recover-stale-matches"]["schedule"]
    assert defaults.ARENA_STALE_AFTER_SECONDS + schedule <= 20
    assert defaults.ARENA_STALE_AFTER_SECONDS >= 4 * defaults.ARENA_HEARTBEAT_SECONDS


def _record_sends(monkeypatch, sent: list) -> None:
    """Collect the ids of the matches whose task is sent (by name, `matches.services.send`) instead of sending."""
    from arena_site.celery import app

    def send_task(name, args=(), **kwargs):
        assert name == "matches.tasks.run_match"
        sent.append(*args)

    monkeypatch.setattr(app, "send_task", send_task)


def test_a_queued_match_behind_a_backlog_is_resent_after_the_documented_delay_once(
        match, settings, monkeypatch):
    """Messages wait in the broker's queue, so the match's may be among them: it is sent again only after
    ARENA_RESEND_QUEUED_AFTER_SECONDS (90 s, not the 10 minutes it was), once per that delay, not every tick."""
    from matches import services
    from matches.models import Match

    assert settings.ARENA_RESEND_QUEUED_AFTER_SECONDS <= 120
    sent = []
    _record_sends(monkeypatch, sent)
    monkeypatch.setattr(services, "waiting_messages", lambda: 3)  # a backlog: it may be waiting its turn
    services.send(match.pk)  # the message the broker then loses
    assert sent == [match.pk] and services.recover_stale() == []  # just sent: nothing to recover

    delay = timedelta(seconds=settings.ARENA_RESEND_QUEUED_AFTER_SECONDS)
    Match.objects.filter(pk=match.pk).update(sent_at=timezone.now() - delay + timedelta(seconds=30))  # a loaded machine may stall
    assert services.recover_stale() == []  # not yet
    Match.objects.filter(pk=match.pk).update(sent_at=timezone.now() - delay - timedelta(seconds=1))
    assert services.recover_stale() == [match.pk] and sent == [match.pk, match.pk]
    assert services.recover_stale() == [] and len(sent) == 2  # the next tick does not send it again


def test_a_stale_running_match_is_resent_once_per_stale_period_not_every_tick(match, settings, monkeypatch):
    from matches import services

    settings.ARENA_STALE_AFTER_SECONDS = 10
    sent = []
    _record_sends(monkeypatch, sent)
    services.send(match.pk)
    services.claim(match.pk, "host-a:100")
    go_silent(match)
    assert services.recover_stale() == [match.pk]
    assert services.recover_stale() == []  # re-sent just now: no flood of duplicates while no worker is free
    assert len(sent) == 2


# --- storage full or failing (matches.storage) ----------------------------------------------------------------

def played_result(match, tmp_path):
    """The match's result as the referee returns it when the disk is full: no replay path, the replay document
    in hand (`MatchResult.unwritten_replay`; the referee side is tests/arena/match/test_referee_storage_full.py)."""
    from arena.match.types import MatchResult

    typed = MatchResult.from_json(result_for(match, [1, 2]))
    typed.replay_path = None
    typed.unwritten_replay = {"format": "arena-replay", "version": 1, "header": {"seed": match.seed},
                              "decisions": [{"seat": 0, "action": "pass"}], "result": typed.to_json()}
    return typed


def test_a_played_match_keeps_its_result_when_the_referee_could_not_write_the_replay(match, tmp_path, settings):
    from arena import replay as replays
    from ladders.models import Rating
    from matches import services, storage
    from matches.models import Match

    typed = played_result(match, tmp_path)
    run = services.Run.of(services.claim(match.pk, "host-a:100"))
    missing = tmp_path / "never-written.replay.json.gz"
    assert services.record_result(match.pk, typed, missing, run) is True
    kept = Match.objects.get(pk=match.pk)
    assert kept.status == "finished" and kept.replay_missing and kept.replay_path == ""
    assert sorted(Rating.objects.values_list("games", flat=True)) == [1, 1]  # rated as any finished match

    settings.ARENA_STORAGE_MIN_FREE_MB = 10**9  # still full: nothing is tried
    assert storage.write_unwritten_replays() == []
    settings.ARENA_STORAGE_MIN_FREE_MB = 0  # storage is back
    assert storage.write_unwritten_replays() == [match.pk]
    kept.refresh_from_db()
    assert not kept.replay_missing and kept.unwritten_replay is None
    assert kept.replay_file.read_bytes() == replays.to_bytes(typed.unwritten_replay)  # exact, byte for byte


def test_a_replay_that_cannot_be_moved_into_storage_is_kept_in_the_database(match, tmp_path, monkeypatch):
    """The run's file exists but storage fails as it is put in place (ENOSPC making the folder, EIO)."""
    import errno

    from matches import services, storage
    from matches.models import Match

    run_file = storage.temp_dir() / f"{match.pk}.1.replay.json.gz"
    run_file.parent.mkdir(parents=True, exist_ok=True)
    run_file.write_bytes(b"the run's replay")

    def failing(*_a, **_k):
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(storage.os, "replace", failing)
    run = services.Run.of(services.claim(match.pk, "host-a:100"))
    assert services.record_result(match.pk, result_for(match, [1, 2]), run_file, run) is True
    monkeypatch.undo()
    kept = Match.objects.get(pk=match.pk)
    assert kept.status == "finished" and kept.replay_missing and bytes(kept.unwritten_replay) == b"the run's replay"
    assert not run_file.exists()  # no temporary file left behind
    assert storage.write_unwritten_replays() == [match.pk]
    assert Match.objects.get(pk=match.pk).replay_file.read_bytes() == b"the run's replay"


def test_matchmaking_pauses_while_storage_is_low_and_says_so(ladder, make_user, settings, caplog):
    from matches.models import Match
    from matchmaking.services import matchmake

    make_bot(make_user(), "alpha"), make_bot(make_user(), "beta")
    settings.ARENA_STORAGE_MIN_FREE_MB = 10**9
    with caplog.at_level(logging.WARNING, logger="arena.platform"):
        assert matchmake() == []
    assert "matchmaking paused: storage low" in caplog.text and not Match.objects.exists()
    settings.ARENA_STORAGE_MIN_FREE_MB = 0
    assert len(matchmake()) == 1


def test_temporary_files_of_runs_that_no_longer_hold_their_match_are_swept(match, make_user, ladder):
    import os
    import time

    from matches import services, storage

    services.claim(match.pk, "host-a:100")  # attempt 1 runs
    folder = storage.temp_dir()
    folder.mkdir(parents=True, exist_ok=True)
    old = time.time() - storage.TEMP_GRACE_SECONDS - 60
    files = {name: folder / name for name in (
        f"{match.pk}.1.replay.json.gz", f"{match.pk}.0.replay.json.gz.part", "999999.2.logs.json.gz",
        "stray.tmp", f"{match.pk}.5.replay.json.gz")}
    for name, path in files.items():
        path.write_bytes(b"x")
        if name != f"{match.pk}.5.replay.json.gz":  # this one is young: a run may be recording it now
            os.utime(path, (old, old))
    removed = {p.name for p in storage.sweep_temp_files()}
    assert removed == {f"{match.pk}.0.replay.json.gz.part", "999999.2.logs.json.gz", "stray.tmp"}
    assert files[f"{match.pk}.1.replay.json.gz"].exists()  # its run still holds the match
    assert files[f"{match.pk}.5.replay.json.gz"].exists()
    for path in files.values():
        path.unlink(missing_ok=True)


@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(120)
def test_a_lost_message_is_resent_within_seconds_when_the_broker_holds_none(celery_worker, make_user):
    """A broker restart without persistence loses the queued matches' messages. On the real Redis and a real
    worker: once ARENA_LOST_MESSAGE_SECONDS have passed with nothing waiting in the queue, the match is sent
    again and a worker picks it up, so it holds its ladder's slots and its bots for seconds, not minutes."""
    from django.conf import settings

    from ladders.models import Ladder
    from matches import services
    from matches.models import Match

    ladder = Ladder.objects.create(slug="thebes-2p", name="Thebes 2p", game="thebes", players=2)
    a, b = make_bot(make_user(), "alpha"), make_bot(make_user(), "beta")
    lost = services.create_match(game="thebes", params={"players": 2}, time_control=ladder.time_control.to_dict(),
                                 versions=[a.active_version_id, b.active_version_id], ladder=ladder, queue=False)
    wait_for(lambda: services.waiting_messages() == 0, 30, 0.5, "the worker to drain the queue")
    grace = timedelta(seconds=settings.ARENA_LOST_MESSAGE_SECONDS)
    assert settings.ARENA_LOST_MESSAGE_SECONDS <= 30
    Match.objects.filter(pk=lost.pk).update(sent_at=timezone.now())  # the whole grace ahead, even on a loaded machine
    assert services.recover_stale() == []  # just sent: it may be on its way
    Match.objects.filter(pk=lost.pk).update(sent_at=timezone.now() - grace - timedelta(seconds=1))
    assert services.recover_stale() == [lost.pk]
    # a worker takes it (these bots have no package, so the run fails: what matters is that it was delivered)
    wait_for(lambda: Match.objects.get(pk=lost.pk).attempts == 1, 60, 0.5, "a worker to take the re-sent match")


def test_staff_see_that_matchmaking_is_paused_in_the_admin(admin_client, settings):
    settings.ARENA_STORAGE_MIN_FREE_MB = 10**9
    page = admin_client.get("/admin/matches/match/", follow=True)
    assert page.status_code == 200 and "Matchmaking is paused: storage low" in page.content.decode()
    settings.ARENA_STORAGE_MIN_FREE_MB = 0
    assert "Matchmaking is paused" not in admin_client.get("/admin/matches/match/").content.decode()


def test_the_bots_logs_are_kept_with_the_replay_while_object_storage_refuses(match, settings):
    """Issue 22, 14: an S3 endpoint that refuses connections (nothing listens on its port) lost the bots' own
    logs of 20 of 807 matches while their replays waited in the database; both wait now, and both are written."""
    from object_storage import CREDENTIALS, free_port

    from arena.botlogs import logs_path
    from arena_site import objects
    from arena_site.settings import s3_storage
    from matches import services, storage
    from matches.models import Match

    run_file = storage.temp_dir() / f"{match.pk}.1.replay.json.gz"
    run_file.parent.mkdir(parents=True, exist_ok=True)
    run_file.write_bytes(b"the run's replay")
    logs_path(run_file).write_bytes(b"the bots' own logs")
    local = settings.STORAGES
    settings.STORAGES = {**local, "arena": s3_storage(
        {**CREDENTIALS, "ARENA_S3_BUCKET": "arena", "ARENA_S3_ENDPOINT_URL": f"http://127.0.0.1:{free_port()}",
         "ARENA_S3_ADDRESSING_STYLE": "path", "ARENA_S3_TIMEOUT": "1"})}
    run = services.Run.of(services.claim(match.pk, "host-a:100"))
    assert services.record_result(match.pk, result_for(match, [1, 2]), run_file, run) is True
    kept = Match.objects.get(pk=match.pk)
    assert kept.replay_missing and bytes(kept.unwritten_logs) == b"the bots' own logs"
    assert not run_file.exists() and not logs_path(run_file).exists()

    settings.STORAGES = local  # storage is back
    assert storage.write_unwritten_replays() == [match.pk]
    written = Match.objects.get(pk=match.pk)
    assert written.unwritten_logs is None and written.unwritten_replay is None
    with objects.opened(logs_path(written.replay_path).as_posix()) as f:
        assert f.read() == b"the bots' own logs"
