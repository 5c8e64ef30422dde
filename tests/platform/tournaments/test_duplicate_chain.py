"""A duplicate set's rotations play one deal: they never run at the same time (issue 22, item 1). In the attack,
rotation 2's instance of a bot learned 30 cards of its own future draw pile from rotation 1's instance playing the
same deal at once; now each rotation's match is sent, and may be started by a worker, only once the rotation
before it has ended."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone


def test_the_rotations_of_a_duplicate_set_run_one_after_another(thebes_bots, finish,
                                                                 django_capture_on_commit_callbacks):
    from matches import services as matches
    from matches.models import Match
    from matches.seeds import seed_is_public
    from tournaments import services
    from tournaments.models import Entry, Game, Tournament

    t = Tournament.objects.create(name="Cup", game="thebes", players=2, duplicate=True, seed=9,
                                  starts_at=timezone.now() - timedelta(seconds=1))
    for bot in thebes_bots[:2]:
        Entry.objects.create(tournament=t, bot=bot)
    with django_capture_on_commit_callbacks(execute=True):
        assert services.start(t.pk)
    first, second = (g.match for g in Game.objects.filter(round__tournament=t).order_by("table"))
    assert first.seed == second.seed and second.after_id == first.pk
    assert first.sent_at is not None and second.sent_at is None  # only the first rotation went to the broker

    # the recovery of lost messages does not send it either, however long it has waited
    Match.objects.filter(pk__in=[first.pk, second.pk]).update(created_at=timezone.now() - timedelta(hours=1),
                                                              sent_at=None)
    assert second.pk not in matches.recover_stale()
    # a worker handed the second rotation early (a duplicate message) does not start it
    assert matches.claim(second.pk, "worker-b") is None
    assert Match.objects.get(pk=second.pk).status == "queued"
    running = matches.claim(first.pk, "worker-a")
    assert running is not None and matches.claim(second.pk, "worker-b") is None
    strength = {b.pk: i for i, b in enumerate(thebes_bots)}
    with django_capture_on_commit_callbacks(execute=True):
        finish(Match.objects.get(pk=first.pk), strength)
    assert Match.objects.get(pk=second.pk).sent_at is not None  # sent when the rotation before it ended
    assert not seed_is_public(Match.objects.get(pk=first.pk))  # the deal stays hidden: rotation 2 is to come
    assert matches.claim(second.pk, "worker-b") is not None  # and a worker may start it now
