"""A match the referee sets aside as "void — host trouble" on a real Celery worker with sandboxed bots (issue 21):
it is queued again by the worker itself, played again, and counted once — one rated result, one game in each
rating, no start-up fault on any seat, no suspension — and a match void every time is given up after
ARENA_HOST_VOID_RETRIES, failed with the reason for staff, never rated.

The host trouble is made real: every seat's bot fails to start while a marker file sits in its folder (the same
for every seat: what a host too busy to start anyone, or a sandbox that starts nothing, looks like to the referee:
`arena.match.referee._check_someone_started`)."""

import shutil

import pytest
from platform_helpers import PYTHON_RANDOM_BOT, wait_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.sandbox, pytest.mark.timeout(300)]

START = '''
import os
import runpy
import sys

here = os.path.dirname(os.path.abspath(__file__))
if os.path.exists(os.path.join(here, "host-trouble")):
    sys.exit(3)  # nobody starts while the marker is there
sys.argv = [os.path.join(here, "bot.py")]
runpy.run_path(sys.argv[0], run_name="__main__")
'''


@pytest.fixture
def troubled_bot_dir(tmp_path):
    folder = tmp_path / "troubled"
    shutil.copytree(PYTHON_RANDOM_BOT, folder, ignore=shutil.ignore_patterns("__pycache__"))
    (folder / "start.py").write_text(START)
    toml = (folder / "bot.toml").read_text().replace('command = ["python", "bot.py"]',
                                                     'command = ["python", "start.py"]')
    assert "start.py" in toml
    (folder / "bot.toml").write_text(toml)
    (folder / "host-trouble").write_text("")
    folder.chmod(0o755)
    tmp_path.chmod(0o755)  # the sandboxed bot's uid must be able to read it
    return folder


def _match(make_user, folder, names):
    from botregistry.models import Bot, BotVersion
    from ladders.models import Ladder
    from ladders.services import enroll
    from matches import services

    ladder, _ = Ladder.objects.get_or_create(slug="thebes-2p", defaults={"name": "Thebes 2p", "game": "thebes",
                                                                         "players": 2})
    versions = []
    for name in names:
        bot = Bot.objects.create(owner=make_user(), name=name, game="thebes")
        version = BotVersion.objects.create(bot=bot, number=1, sha256=name, package_dir=str(folder),
                                            status="ready", runtime="python")
        Bot.objects.filter(pk=bot.pk).update(active_version=version)
        enroll(bot)
        versions.append(version.pk)
    return ladder, services.create_match(game="thebes", params={"players": 2},
                                         time_control=ladder.time_control.to_dict(), versions=versions, ladder=ladder)


def test_a_host_void_match_is_queued_again_played_and_counted_once(celery_worker, make_user, troubled_bot_dir):
    from botregistry.models import BotVersion
    from ladders.models import Rating
    from matches.models import Match

    ladder, match = _match(make_user, troubled_bot_dir, ("void-a", "void-b"))
    try:
        wait_for(lambda: Match.objects.get(pk=match.pk).host_voids >= 1, 120, 0.2, "the first run to be void")
    except AssertionError:
        print(celery_worker.log_text()[-4000:])
        raise
    (troubled_bot_dir / "host-trouble").unlink()  # the host is fine again
    wait_for(lambda: Match.objects.get(pk=match.pk).status in ("finished", "failed"), 180, 0.5,
             "the match to be played again and end")

    match.refresh_from_db()
    assert match.status == "finished", match.status_reason
    assert match.host_voids >= 1 and match.status_reason == ""
    assert match.attempts == 1  # a void run is not a lost worker: only the run that played counts
    seats = list(match.participants.order_by("seat"))
    assert all(p.rank is not None and not p.disqualified for p in seats)
    assert not any(f["kind"] == "startup" for p in seats for f in p.faults)  # the void runs left no fault
    assert [r.games for r in Rating.objects.filter(ladder=ladder).order_by("bot_id")] == [1, 1]  # rated once
    assert set(BotVersion.objects.filter(bot__name__in=("void-a", "void-b")).values_list("status", flat=True)) \
        == {"ready"}


def test_a_match_void_every_time_is_given_up_for_staff_and_never_rated(celery_worker, make_user, troubled_bot_dir,
                                                                      settings):
    from botregistry.models import BotVersion
    from ladders.models import Rating
    from matches.models import Match

    retries = settings.ARENA_HOST_VOID_RETRIES  # the worker's (the same environment)
    ladder, match = _match(make_user, troubled_bot_dir, ("void-c", "void-d"))
    wait_for(lambda: Match.objects.get(pk=match.pk).status == "failed", 240, 0.5, "the match to be given up")

    match.refresh_from_db()
    assert match.host_voids == retries  # queued again exactly ARENA_HOST_VOID_RETRIES times, then failed
    assert "void — host trouble: every seat failed to start" in match.status_reason
    assert f"void {retries + 1} times: given up" in match.status_reason
    assert match.attempts == 1  # the void runs gave their attempt back; the last one ended it
    assert all(p.rank is None and p.faults == [] for p in match.participants.all())  # nothing recorded
    assert not Rating.objects.filter(ladder=ladder, games__gt=0).exists()  # never rated
    assert set(BotVersion.objects.filter(bot__name__in=("void-c", "void-d")).values_list("status", flat=True)) \
        == {"ready"}  # host faults never suspend
