"""A run that lost its claim stops at its next decision (matches.tasks.RunAbandoned): once another worker took its
match over (this one was frozen past the stale threshold), or the match was ended or deleted, whatever it would
record is discarded, so it must not go on holding the worker's slot, its bots' cores and their sandboxes until the
game's end. Real sandboxed bots, played in this process as the worker task plays them."""

import threading
import time

import pytest
from platform_helpers import slow_random_bot, wait_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.sandbox, pytest.mark.timeout(180)]


@pytest.fixture
def slow_bot_dir(tmp_path):
    return slow_random_bot(tmp_path, 0.25)  # 0.25 s a decision: a Thebes game of two takes over a minute


@pytest.mark.parametrize("how", ["taken over", "deleted"])
def test_a_run_that_lost_its_claim_stops_at_its_next_decision_and_records_nothing(make_user, slow_bot_dir,
                                                                                  settings, how):
    from datetime import timedelta

    from django.db import connection
    from django.utils import timezone

    from botregistry.models import Bot, BotVersion
    from ladders.models import Ladder, Rating
    from ladders.services import enroll
    from matches import services
    from matches.models import Match
    from matches.tasks import _play_and_record

    settings.ARENA_HEARTBEAT_SECONDS = 0.5
    ladder = Ladder.objects.create(slug="thebes-2p", name="Thebes 2p", game="thebes", players=2)
    versions = []
    for name in ("slow-a", "slow-b"):
        bot = Bot.objects.create(owner=make_user(), name=name, game="thebes")
        version = BotVersion.objects.create(bot=bot, number=1, sha256=name, package_dir=str(slow_bot_dir),
                                            status="ready", runtime="python")
        Bot.objects.filter(pk=bot.pk).update(active_version=version)
        enroll(bot)
        versions.append(version.pk)
    match = services.create_match(game="thebes", params={"players": 2}, time_control=ladder.time_control.to_dict(),
                                  versions=versions, ladder=ladder, queue=False)
    claimed = services.claim(match.pk, "host-a:100")
    run = services.Run.of(claimed)

    outcome: dict[str, object] = {}

    def play() -> None:
        try:
            outcome["said"] = _play_and_record(claimed, run)
        except BaseException as exc:  # the test's thread reports it
            outcome["raised"] = exc
        finally:
            outcome["at"] = time.monotonic()
            connection.close()

    thread = threading.Thread(target=play)
    thread.start()
    try:
        wait_for(lambda: Match.objects.get(pk=match.pk).decisions_played >= 3, 60, 0.1, "three decisions played")
        lost_at = time.monotonic()
        if how == "taken over":  # this worker froze past the stale threshold; another claimed the match
            Match.objects.filter(pk=match.pk).update(heartbeat_at=timezone.now() - timedelta(hours=1))
            assert services.claim(match.pk, "host-b:200") is not None
        else:  # ended by whoever may delete a match (an account's deletion, a test's teardown)
            Match.objects.filter(pk=match.pk).delete()
        thread.join(timeout=60)
        assert not thread.is_alive(), "the run played on after losing its claim"
    finally:
        thread.join()
    assert "raised" not in outcome, outcome.get("raised")
    assert str(outcome["said"]).startswith("abandoned"), outcome
    # within a few heartbeats and a decision of 0.25 s, not the game's remaining minute and more
    assert float(outcome["at"]) - lost_at < 15, float(outcome["at"]) - lost_at
    if how == "taken over":
        current = Match.objects.get(pk=match.pk)
        assert (current.status, current.worker, current.attempts) == ("running", "host-b:200", 2)
        assert set(Rating.objects.values_list("games", flat=True)) == {0}
