"""A version test from its first pair to its verdict, with match results recorded as a worker records them and
the after-match hook advancing the test (no worker process: the hook is called as Celery would call it)."""

from __future__ import annotations

import random

import pytest

pytestmark = pytest.mark.django_db


def _start(s, **kw):
    from versiontests import services
    return services.create(owner=s.owner, version_a=s.va, version_b=s.vb, ladder=s.ladder,
                           rng=random.Random(1), **kw)


def _play_pending(test, finish, winner):
    """Finish every pending pair: winner(pair) → ("a" | "b" | None for a draw, for the tested seat in match A,
    likewise in match B)."""
    from matches.models import Match
    from matches.signals import match_ended

    for pair in list(test.pair_set.filter(score__isnull=True, void=False).select_related("match_a", "match_b")):
        for match, outcome in zip((pair.match_a, pair.match_b), winner(pair)):
            match.refresh_from_db()
            if match.done:  # cancelled when the pair before it settled the test
                continue
            other = 1 - pair.seat
            finish(match, None if outcome == "draw" else pair.seat if outcome == "win" else other)
            match_ended.send(sender=Match, match_id=match.pk)
    test.refresh_from_db()


def test_b_winning_every_deal_that_a_loses_is_accepted(setup, finish, client):
    from matches.models import Match

    test = _start(setup, elo0=0, elo1=100, max_pairs=100)
    rounds = 0
    while test.status == "running":
        _play_pending(test, finish, lambda p: ("loss", "win"))
        rounds += 1
        assert rounds < 30
    assert test.status == "accepted", test.status_reason
    assert test.llr > test.result["stop_upper"] and "upper bound" in test.status_reason  # overshoot-corrected
    assert test.counts[-1] == test.pairs and test.result["los"] > 0.99 and test.result["elo"] is None  # +inf
    assert test.finished_at is not None
    # what was still queued when the verdict came is cancelled, not played
    left = [m for p in test.pair_set.filter(score__isnull=True) for m in (p.match_a, p.match_b)]
    assert all(m.status in (Match.Status.CANCELLED, Match.Status.FINISHED) for m in left)
    page = client.get(f"/bots/{setup.bot.pk}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Version tests" in html and "accepted" in html and "v2 vs v1" in html


def test_b_losing_is_rejected(setup, finish):
    test = _start(setup, elo0=0, elo1=100, max_pairs=100)
    while test.status == "running":
        _play_pending(test, finish, lambda p: ("draw", "loss"))
    assert test.status == "rejected" and test.llr < test.result["stop_lower"]
    # B scoring nothing where A draws is −∞ head to head (JSON null), not the pair scale's finite −191
    assert test.result["score"] == 0.25 and test.result["elo"] is None and test.result["los"] < 0.01


def test_no_verdict_stops_at_max_pairs(setup, finish):
    test = _start(setup, elo0=0, elo1=5, max_pairs=3)
    while test.status == "running":
        _play_pending(test, finish, lambda p: ("loss", "win") if p.number % 2 else ("win", "loss"))
    assert test.status == "stopped" and test.pairs == 3 and "maximum of 3 pairs" in test.status_reason
    assert test.pair_set.count() == 3  # no pair was queued past the maximum


def test_a_failed_match_voids_its_pair_and_another_is_queued(setup, finish):
    from matches.models import Match
    from matches.services import fail
    from matches.signals import match_ended

    test = _start(setup, elo0=0, elo1=100, max_pairs=10)
    first = test.pair_set.get(number=1)
    finish(first.match_a, first.seat)
    fail(first.match_b.pk, "the worker gave up")
    match_ended.send(sender=Match, match_id=first.match_b.pk)
    test.refresh_from_db()
    first.refresh_from_db()
    assert first.void and first.score is None
    assert test.void_pairs == 1 and test.pairs == 0 and test.status == "running"
    assert test.pair_set.filter(score__isnull=True, void=False).count() == 2  # topped up again


def test_advancing_twice_changes_nothing(setup, finish):
    from versiontests import services

    test = _start(setup, elo0=0, elo1=100, max_pairs=10)
    pair = test.pair_set.get(number=1)
    finish(pair.match_a, 1 - pair.seat)
    finish(pair.match_b, pair.seat)
    services.advance(test.pk)
    test.refresh_from_db()
    state = (test.pairs, test.counts, test.llr, test.pair_set.count())
    services.advance(test.pk)
    test.refresh_from_db()
    assert (test.pairs, test.counts, test.llr, test.pair_set.count()) == state
    assert test.pairs == 1 and test.counts == [0, 0, 0, 0, 1]


def test_the_two_games_of_a_pair_never_run_at_once(setup, finish, django_capture_on_commit_callbacks):
    """A pair's games are one deal (issue 22, 1): B's game is sent, and may be started by a worker, only once A's
    has ended, as a duplicate set's rotations are (tournaments/test_duplicate_chain.py)."""
    from matches import services as matches
    from matches.models import Match

    with django_capture_on_commit_callbacks(execute=True):
        test = _start(setup, elo0=0, elo1=100, max_pairs=100)
    pair = test.pair_set.select_related("match_a", "match_b").first()
    a, b = pair.match_a, pair.match_b
    assert a.seed == b.seed and b.after_id == a.pk and a.after_id is None
    assert a.sent_at is not None and b.sent_at is None  # only A went to the broker
    assert matches.claim(b.pk, "worker-b") is None  # a duplicate message of B starts nothing
    assert matches.claim(a.pk, "worker-a") is not None and matches.claim(b.pk, "worker-b") is None
    with django_capture_on_commit_callbacks(execute=True):
        finish(Match.objects.get(pk=a.pk), pair.seat)
    assert Match.objects.get(pk=b.pk).sent_at is not None  # sent when A ended
    assert matches.claim(b.pk, "worker-b") is not None
