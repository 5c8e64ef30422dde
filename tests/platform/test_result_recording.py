"""Recording a match result: once, with ratings in the same transaction; claiming a match for a worker."""

from datetime import timedelta

import pytest
from django.utils import timezone
from platform_helpers import make_bot


@pytest.fixture
def ladder(db):
    from ladders.models import Ladder
    return Ladder.objects.create(slug="thebes-2p", name="Thebes 2p", game="thebes", players=2)


@pytest.fixture
def table(ladder, make_user):
    from matches.services import create_match

    a, b = make_bot(make_user(), "alpha"), make_bot(make_user(), "beta")
    match = create_match(game="thebes", params={"players": 2}, time_control=ladder.time_control.to_dict(),
                         versions=[a.active_version_id, b.active_version_id], ladder=ladder, queue=False)
    return match, a, b


def result_for(match, ranks, faults=None):
    faults = faults or {}
    return {"game": match.game, "params": match.params, "seed": match.seed, "engine_version": "thebes-1",
            "replay_path": "/tmp/x", "seats": [
                {"seat": seat, "name": f"s{seat}", "sha256": "0" * 64, "score": float(10 - rank), "rank": rank,
                 "disqualified": False, "faults": faults.get(seat, []), "time_ms": 12.5, "decisions": 30}
                for seat, rank in enumerate(ranks)]}


def test_result_is_recorded_once_and_ratings_applied_once(table):
    from ladders.models import Rating
    from matches.models import Match
    from matches.services import record_result

    match, a, b = table
    winner_seat = 0
    assert record_result(match.pk, result_for(match, [1, 2])) is True
    after_first = {r.bot_id: (r.elo, r.mu, r.games, r.wins) for r in Rating.objects.all()}
    assert record_result(match.pk, result_for(match, [2, 1])) is False  # a re-run, even with another outcome
    assert {r.bot_id: (r.elo, r.mu, r.games, r.wins) for r in Rating.objects.all()} == after_first

    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.finished_at is not None
    assert match.engine_version == "thebes-1" and "replay_path" not in match.result
    seats = list(match.participants.order_by("seat"))
    win = seats[winner_seat]
    lose = seats[1 - winner_seat]
    assert (win.rank, lose.rank) == (1, 2) and win.decisions == 30 and win.time_ms == 12.5
    assert win.elo_before == lose.elo_before == 1500.0
    assert win.elo_after - win.elo_before == pytest.approx(16.0)
    assert win.elo_change == pytest.approx(-lose.elo_change)  # conservation
    assert win.mu_after > win.mu_before and win.sigma_after < win.sigma_before
    winner_rating = Rating.objects.get(bot=win.bot)
    assert (winner_rating.elo, winner_rating.games, winner_rating.wins) == (win.elo_after, 1, 1)
    assert Rating.objects.get(bot=lose.bot).wins == 0


def test_ratings_chain_in_finishing_order(table, ladder, make_user):
    from ladders.models import Rating
    from matches.services import create_match, record_result

    match, a, b = table
    second = create_match(game="thebes", params={"players": 2}, time_control={}, ladder=ladder, queue=False,
                          versions=[b.active_version_id, a.active_version_id])
    record_result(second.pk, result_for(second, [1, 2]))  # finishes first although created later
    record_result(match.pk, result_for(match, [1, 2]))
    p_second = second.participants.get(seat=0)
    p_first = match.participants.get(seat=1)
    assert p_second.bot_id == p_first.bot_id == b.pk
    assert p_first.elo_before == pytest.approx(p_second.elo_after)  # the later-finished match saw the update
    assert Rating.objects.get(bot=b).games == 2


def test_unrated_match_leaves_ratings_alone(ladder, make_user):
    from ladders.models import Rating
    from matches.services import create_match, record_result

    a, b = make_bot(make_user(), "a"), make_bot(make_user(), "b")
    match = create_match(game="thebes", params={"players": 2}, time_control={}, ladder=ladder, rated=False,
                         kind="challenge", versions=[a.active_version_id, b.active_version_id], queue=False)
    record_result(match.pk, result_for(match, [1, 2]))
    assert set(Rating.objects.values_list("games", flat=True)) == {0}
    assert match.participants.get(seat=0).elo_before is None


def test_cancelled_match_is_not_recorded(table):
    from matches.models import Match
    from matches.services import claim, record_result

    match, _, _ = table
    Match.objects.filter(pk=match.pk).update(status=Match.Status.CANCELLED)
    assert claim(match.pk, "w1") is None
    assert record_result(match.pk, result_for(match, [1, 2])) is False
    assert Match.objects.get(pk=match.pk).status == Match.Status.CANCELLED


def test_claim_refuses_a_duplicate_while_the_first_worker_is_alive(table, settings):
    from matches.models import Match
    from matches.services import claim

    settings.ARENA_STALE_AFTER_SECONDS = 30
    match, _, _ = table
    assert claim(match.pk, "w1").attempts == 1
    assert claim(match.pk, "w2") is None  # w1's heartbeat is fresh
    Match.objects.filter(pk=match.pk).update(heartbeat_at=timezone.now() - timedelta(seconds=31))
    taken = claim(match.pk, "w2")  # w1 went silent: w2 takes over
    assert (taken.worker, taken.attempts, taken.status) == ("w2", 2, "running")


def test_claim_gives_up_after_max_attempts(table, settings):
    from matches.models import Match
    from matches.services import claim

    settings.ARENA_MATCH_MAX_ATTEMPTS = 2
    match, _, _ = table
    Match.objects.filter(pk=match.pk).update(attempts=2, status="running", worker="w9", heartbeat_at=None)
    assert claim(match.pk, "w1") is None
    match.refresh_from_db()
    assert match.status == "failed" and "gave up after 2 attempts" in match.status_reason


def test_recover_stale_resends_only_silent_running_matches(table, settings, monkeypatch):
    from matches import services
    from matches.models import Match

    settings.ARENA_STALE_AFTER_SECONDS = 10
    match, _, _ = table
    sent = []
    monkeypatch.setattr(services, "send", sent.append)
    assert services.recover_stale() == []  # queued just now
    Match.objects.filter(pk=match.pk).update(status="running", heartbeat_at=timezone.now())
    assert services.recover_stale() == []
    Match.objects.filter(pk=match.pk).update(heartbeat_at=timezone.now() - timedelta(seconds=11))
    assert services.recover_stale() == [match.pk] and sent == [match.pk]


def test_a_bot_that_keeps_crashing_is_suspended_with_a_reason(ladder, make_user, settings):
    from botregistry.models import BotVersion
    from matches.services import create_match, record_result

    settings.ARENA_SUSPENSION = {"window": 10, "min_matches": 5, "fault_share": 0.5}
    crashy, steady = make_bot(make_user(), "crashy"), make_bot(make_user(), "steady")
    crash = [{"kind": "crash", "message": "the bot exited with code 1: ZeroDivisionError", "decision": 3}]
    for i in range(6):
        m = create_match(game="thebes", params={"players": 2}, time_control={}, ladder=ladder, queue=False,
                         versions=[crashy.active_version_id, steady.active_version_id])
        record_result(m.pk, result_for(m, [2, 1], faults={0: crash if i % 3 else []}))
    version = BotVersion.objects.get(pk=crashy.active_version_id)
    assert version.status == BotVersion.Status.SUSPENDED
    assert version.status_reason.startswith("faulted in 3 of its last 5 matches (crashed in 3)")
    assert "most recent match" in version.status_reason and "/matches/" in version.status_reason
    assert not version.status_reason.startswith("suspended")  # shown as "is suspended: <reason>": said once
    assert "ZeroDivisionError" not in version.status_reason  # the bot's own output is not a public reason
    assert BotVersion.objects.get(pk=steady.active_version_id).status == BotVersion.Status.READY
    crashy.refresh_from_db()
    assert crashy.playing_version is None


@pytest.mark.django_db(transaction=True)
def test_two_workers_recording_at_once_apply_ratings_once(make_user):
    """Two deliveries of one match finishing at the same moment: the row lock lets exactly one record it."""
    import threading

    from django.db import connection

    from ladders.models import Ladder, Rating
    from matches.services import create_match, record_result

    ladder = Ladder.objects.create(slug="thebes-2p", name="Thebes 2p", game="thebes", players=2)
    a, b = make_bot(make_user(), "alpha"), make_bot(make_user(), "beta")
    match = create_match(game="thebes", params={"players": 2}, time_control={}, ladder=ladder, queue=False,
                         versions=[a.active_version_id, b.active_version_id])
    barrier, outcomes = threading.Barrier(4), []

    def deliver():
        try:
            barrier.wait()
            outcomes.append(record_result(match.pk, result_for(match, [1, 2])))
        finally:
            connection.close()

    threads = [threading.Thread(target=deliver) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == [False, False, False, True]
    assert sorted(Rating.objects.values_list("games", flat=True)) == [1, 1]
    assert sorted(round(e) for e in Rating.objects.values_list("elo", flat=True)) == [1484, 1516]


def test_lost_validations_are_resent_once_per_period(make_user, monkeypatch):
    from botregistry import services
    from botregistry.models import Bot, BotVersion

    bot = Bot.objects.create(owner=make_user(), name="b", game="thebes")
    old = timezone.now() - timedelta(minutes=11)
    stuck = [BotVersion.objects.create(bot=bot, number=n, sha256=str(n), package_dir="x", status=status,
                                       validation_queued_at=old)
             for n, status in enumerate(["pending", "validating", "ready", "failed"], start=1)]
    BotVersion.objects.create(bot=bot, number=9, sha256="9", package_dir="x", validation_queued_at=timezone.now())
    sent = []
    monkeypatch.setattr(services, "_queue_validation", sent.append)
    assert services.resend_lost_validations() == [stuck[0].pk, stuck[1].pk] == sent
    assert services.resend_lost_validations() == []  # not again within the period
