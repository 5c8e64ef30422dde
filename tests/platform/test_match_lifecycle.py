"""The life of a match as the layers above and below see it: one post-commit "match ended" hook, whichever way
a match ends, and the bot registry telling the ratings through signals instead of calling them."""

import pytest
from platform_helpers import make_bot


@pytest.fixture
def ladder(db):
    from ladders.models import Ladder
    return Ladder.objects.create(slug="thebes-2p", name="Thebes 2p", game="thebes", players=2)


@pytest.fixture
def heard():
    """The match ids `match_ended` announces while the test runs."""
    from matches.signals import match_ended

    ids: list[int] = []

    def listen(sender, match_id, **_):
        ids.append(match_id)

    match_ended.connect(listen, dispatch_uid="test-listener")
    yield ids
    match_ended.disconnect(dispatch_uid="test-listener")


def new_match(ladder, a, b):
    from matches.services import create_match
    return create_match(game="thebes", params={"players": 2}, time_control={}, ladder=ladder, queue=False,
                        versions=[a.active_version_id, b.active_version_id])


def result_for(match, ranks):
    return {"game": match.game, "params": match.params, "seed": match.seed, "engine_version": "thebes-1",
            "seats": [{"seat": seat, "name": f"s{seat}", "sha256": "0" * 64, "score": float(10 - rank),
                       "rank": rank, "disqualified": False, "faults": [], "time_ms": 1.0, "decisions": 3}
                      for seat, rank in enumerate(ranks)]}


def test_a_match_is_announced_once_its_result_commits_and_only_once(ladder, make_user, heard,
                                                                    django_capture_on_commit_callbacks):
    from django.db import transaction

    from matches.services import record_result

    a, b = make_bot(make_user(), "alpha"), make_bot(make_user(), "beta")
    match = new_match(ladder, a, b)
    with django_capture_on_commit_callbacks(execute=False) as pending:
        with transaction.atomic():
            assert record_result(match.pk, result_for(match, [1, 2]))
            assert heard == []  # not before the result is committed: a listener would not see it
    assert len(pending) == 1
    pending[0]()
    assert heard == [match.pk]
    with django_capture_on_commit_callbacks(execute=True):
        assert not record_result(match.pk, result_for(match, [2, 1]))  # a re-delivery: nothing ended now
    assert heard == [match.pk]


def test_a_rolled_back_ending_announces_nothing(ladder, make_user, heard, django_capture_on_commit_callbacks):
    from django.db import transaction

    from matches.models import Match
    from matches.services import fail

    match = new_match(ladder, make_bot(make_user(), "alpha"), make_bot(make_user(), "beta"))
    with django_capture_on_commit_callbacks(execute=True):
        with pytest.raises(RuntimeError):
            with transaction.atomic():
                assert fail(match.pk, "the host broke")
                raise RuntimeError("rolled back")
    assert heard == [] and Match.objects.get(pk=match.pk).status == Match.Status.QUEUED


def test_failed_given_up_and_cancelled_matches_are_announced_too(ladder, make_user, heard, settings,
                                                                 django_capture_on_commit_callbacks):
    from matches.models import Match
    from matches.services import cancel, claim, fail

    a, b = make_bot(make_user(), "alpha"), make_bot(make_user(), "beta")
    failed, gave_up, cancelled, running = (new_match(ladder, a, b) for _ in range(4))
    Match.objects.filter(pk=gave_up.pk).update(attempts=settings.ARENA_MATCH_MAX_ATTEMPTS)
    with django_capture_on_commit_callbacks(execute=True):
        assert fail(failed.pk, "the host broke")
        assert not fail(failed.pk, "again")  # already failed: no second announcement
        assert claim(gave_up.pk, "w1") is None
        assert claim(running.pk, "w1") is not None
        # a running match plays on: only the queued one is cancelled (and announced)
        assert cancel([cancelled.pk, running.pk], "cancelled by staff") == [cancelled.pk]
    assert heard == [failed.pk, gave_up.pk, cancelled.pk]
    assert Match.objects.get(pk=gave_up.pk).status == Match.Status.FAILED
    assert Match.objects.get(pk=running.pk).status == Match.Status.RUNNING


def test_a_listener_that_raises_neither_stops_the_others_nor_undoes_the_result(
        ladder, make_user, heard, django_capture_on_commit_callbacks):
    from matches.models import Match
    from matches.services import record_result
    from matches.signals import match_ended

    def broken(sender, match_id, **_):
        raise RuntimeError("a listener's bug")

    def after(sender, match_id, **_):
        heard.append(-match_id)

    match_ended.connect(broken, dispatch_uid="test-broken")  # receivers run in the order they connected
    match_ended.connect(after, dispatch_uid="test-after-broken")
    try:
        match = new_match(ladder, make_bot(make_user(), "alpha"), make_bot(make_user(), "beta"))
        with django_capture_on_commit_callbacks(execute=True):
            assert record_result(match.pk, result_for(match, [1, 2]))
    finally:
        match_ended.disconnect(dispatch_uid="test-broken")
        match_ended.disconnect(dispatch_uid="test-after-broken")
    assert heard == [match.pk, -match.pk]
    assert Match.objects.get(pk=match.pk).status == Match.Status.FINISHED


def test_changing_the_active_version_is_a_signal_sent_once_per_change(make_user):
    from botregistry.models import BotVersion
    from botregistry.services import set_active_version
    from botregistry.signals import active_version_changed

    bot = make_bot(make_user(), "alpha")
    v1 = bot.active_version
    v2 = BotVersion.objects.create(bot=bot, number=2, sha256="alpha2", package_dir="/nonexistent/alpha2",
                                   status=BotVersion.Status.READY)
    changes = []

    def listen(sender, **kwargs):
        changes.append(kwargs)

    active_version_changed.connect(listen, dispatch_uid="test-changes")
    try:
        assert set_active_version(bot, v2)
        assert not set_active_version(bot, v2)  # the same version again: no change, no signal
        assert set_active_version(bot, v1)
    finally:
        active_version_changed.disconnect(dispatch_uid="test-changes")
    assert [(c["bot_id"], c["previous_version_id"], c["version_id"]) for c in changes] == [
        (bot.pk, v1.pk, v2.pk), (bot.pk, v2.pk, v1.pk)]


def test_a_version_that_becomes_ready_enrols_its_bot_through_the_ratings_listener(ladder, make_user):
    from botregistry.models import Bot, BotVersion
    from botregistry.services import mark_validated
    from ladders.models import Rating

    bot = Bot.objects.create(owner=make_user(), name="fresh", game="thebes")
    version = BotVersion.objects.create(bot=bot, number=1, sha256="fresh", package_dir="/nonexistent/fresh",
                                        status=BotVersion.Status.VALIDATING)
    mark_validated(version, False, "the build failed", "")
    assert not Rating.objects.filter(bot=bot).exists()  # a failed version enrols nothing
    version.status = BotVersion.Status.VALIDATING
    version.save()
    mark_validated(version, True, "", "smoke match played")
    assert list(Rating.objects.filter(bot=bot).values_list("ladder_id", flat=True)) == [ladder.pk]
    bot.refresh_from_db()
    assert bot.active_version_id == version.pk


def test_a_late_duplicate_validation_never_revives_a_suspended_version(ladder, make_user):
    """A re-sent validation task whose first delivery also ran reports after the version was decided (here:
    ready, then suspended for faults): its result is ignored, the suspension stands."""
    from botregistry.models import Bot, BotVersion
    from botregistry.services import mark_validated

    bot = Bot.objects.create(owner=make_user(), name="twice", game="thebes")
    version = BotVersion.objects.create(bot=bot, number=1, sha256="twice", package_dir="/nonexistent/twice",
                                        status=BotVersion.Status.VALIDATING)
    mark_validated(version, True, "", "smoke match played")
    BotVersion.objects.filter(pk=version.pk).update(status=BotVersion.Status.SUSPENDED,
                                                    status_reason="crashed in 6 of its last 10 matches")
    mark_validated(version, True, "", "the duplicate's smoke match")
    version.refresh_from_db()
    assert version.status == BotVersion.Status.SUSPENDED and version.validation_log == "smoke match played"


def test_a_name_that_reads_as_a_built_in_bot_is_refused_through_the_registered_source(make_user):
    """accounts.names knows built-in bots only through the source the bot registry registers at start-up."""
    from accounts.names import impersonation, protected_names
    from botregistry.models import Bot

    Bot.objects.create(owner=make_user(), name="python-greedy", game="thebes", builtin=True)
    assert "python-greedy" in protected_names()
    assert impersonation("Python_Greedy", protected_names())
