"""A worker killed (SIGKILL) in the middle of a match loses nothing: another worker plays the match again, soon
(the documented bound: running again within ~20 s of the kill), and it is finished, and rated, exactly once."""

import time

import pytest
from platform_helpers import slow_random_bot, wait_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.sandbox, pytest.mark.timeout(180)]


@pytest.fixture
def slow_bot_dir(tmp_path):
    # slow enough that a match lasts seconds, so the test can kill its worker mid-game
    return slow_random_bot(tmp_path, 0.05)


def test_killed_worker_match_is_finished_once_by_another(celery_worker, make_user, slow_bot_dir, stale_after):
    from botregistry.models import Bot, BotVersion
    from ladders.models import Ladder, Rating
    from ladders.services import enroll
    from matches import services
    from matches.models import Match
    from matches.tasks import run_match

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
                                  versions=versions, ladder=ladder)

    wait_for(lambda: Match.objects.get(pk=match.pk).status == "running", 30, 0.1, "the match to start")
    first_worker = Match.objects.get(pk=match.pk).worker
    wait_for(lambda: Match.objects.get(pk=match.pk).heartbeat_at != Match.objects.get(pk=match.pk).started_at,
             10, 0.1, "a heartbeat")
    celery_worker.kill()
    killed_at = time.monotonic()
    assert Match.objects.get(pk=match.pk).status == "running"  # killed mid-match

    celery_worker.start()
    # Celery beat's recovery task re-sends it: at once here, the dead worker being a process of this host that
    # is gone (`services.known_dead`), else once its heartbeat is stale.
    resent = wait_for(lambda: services.recover_stale(), stale_after + 10, 0.5, "the match to be re-sent")
    assert match.pk in resent
    wait_for(lambda: Match.objects.get(pk=match.pk).attempts == 2, 60, 0.2, "the re-run to start")
    # The bound is ~20 s (stale threshold + recovery period, platform/README.md); the slack is for a loaded
    # machine restarting a worker, not a claim on speed.
    assert time.monotonic() - killed_at < 20 + 25
    wait_for(lambda: Match.objects.get(pk=match.pk).status == "finished", 90, 0.5, "the re-run to finish")

    match.refresh_from_db()
    assert match.attempts == 2 and match.worker != first_worker
    assert match.replay_file.exists()
    assert [r.games for r in Rating.objects.filter(ladder=ladder)] == [1, 1]
    before = list(Rating.objects.filter(ladder=ladder).values_list("elo", "games"))

    # Delivered once more (the killed worker's message coming back, say): nothing changes.
    assert run_match.apply(args=[match.pk]).get() == "nothing to do"
    assert list(Rating.objects.filter(ladder=ladder).values_list("elo", "games")) == before
    assert Match.objects.get(pk=match.pk).attempts == 2
