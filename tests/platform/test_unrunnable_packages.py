"""A "ready" version that no worker can run (issue 22, item 2): a package the workers' unpacker refuses never
becomes ready; one that is stored already is suspended by the first match it fails; and the matches it failed count
in matchmaking's order, so that it stops seeding every table."""

from __future__ import annotations

import shutil
from datetime import timedelta

import pytest
from platform_helpers import PYTHON_RANDOM_BOT, make_bot


@pytest.fixture(autouse=True)
def storage(settings, tmp_path):
    settings.STORAGE_DIR = tmp_path / "storage"
    settings.ARENA_LOCAL_DIR = tmp_path / "local"
    settings.ARENA_PACKAGE_CACHE_DIR = None
    return tmp_path / "storage"


def package_with(tmp_path, name: str, *, deep: bool = False, control: bool = False):
    """The random bot's package plus what makes a worker refuse it: 100 files each 45 folders deep (4,500 folders:
    more than a worker unpacks), or a file whose name holds a control character (as a build could leave it)."""
    folder = tmp_path / name
    shutil.copytree(PYTHON_RANDOM_BOT, folder, ignore=shutil.ignore_patterns("__pycache__"))
    if deep:
        for n in range(100):
            leaf = folder.joinpath(f"f{n}", *["d"] * 44)
            leaf.mkdir(parents=True)
            (leaf / "x").write_bytes(b"")
    if control:
        (folder / "bad\x07name").write_bytes(b"")
    return folder


@pytest.mark.parametrize("kind", ["deep", "control"])
def test_a_package_a_worker_would_refuse_never_becomes_ready(tmp_path, make_user, storage, kind):
    from botregistry import package_cache

    bot = make_bot(make_user(), "unrunnable")
    version = bot.active_version
    version.package_dir = str(package_with(tmp_path, "pkg", deep=kind == "deep", control=kind == "control"))
    with pytest.raises(package_cache.PackageRefused) as refused:
        package_cache.keep_validated(version)
    assert refused.value.unrunnable and "could not be unpacked" in str(refused.value)
    version.refresh_from_db()
    assert version.package_hash == "" and not (storage / "packages").exists()  # nothing stored, nothing to play


def test_a_stored_package_no_worker_unpacks_suspends_its_version_and_fails_the_match(tmp_path, make_user):
    from botregistry.models import BotVersion
    from botregistry.package_cache import store_package
    from ladders.models import Ladder
    from matches import tasks
    from matches.services import create_match

    sha = store_package(package_with(tmp_path, "deep", deep=True))  # ready before this check existed
    ladder = Ladder.objects.create(slug="thebes-2p", name="Thebes 2p", game="thebes", players=2)
    a, b = make_bot(make_user(), "alpha"), make_bot(make_user(), "beta")
    BotVersion.objects.filter(pk=a.active_version_id).update(package_dir="", package_hash=sha)
    BotVersion.objects.filter(pk=b.active_version_id).update(package_dir=str(PYTHON_RANDOM_BOT))
    match = create_match(game="thebes", params={"players": 2}, time_control=ladder.time_control.to_dict(),
                         versions=[a.active_version_id, b.active_version_id], ladder=ladder, queue=False)
    with pytest.raises(tasks.MatchCannotRun, match="could not be unpacked"):
        tasks.play(match)
    refused, fine = BotVersion.objects.get(pk=a.active_version_id), BotVersion.objects.get(pk=b.active_version_id)
    assert refused.status == "suspended" and "cannot be run" in refused.status_reason
    assert fine.status == "ready"  # the opponent did nothing wrong


def test_failed_ladder_matches_count_in_matchmakings_order(make_user):
    """The attack's bot failed 36 of 41 ladder matches while its 0 games made it the seed of every round."""
    from django.utils import timezone

    from ladders.models import Ladder, Rating
    from matches.models import Match
    from matches.services import create_match
    from matchmaking.rules import need_key
    from matchmaking.services import ready_candidates

    ladder = Ladder.objects.create(slug="thebes-2p", name="Thebes 2p", game="thebes", players=2)
    failing, *others = [make_bot(make_user(), name) for name in ("failing", "one", "two")]
    for bot in others:
        Rating.objects.filter(ladder=ladder, bot=bot).update(games=3, last_played_at=timezone.now()
                                                             - timedelta(hours=1))
    for _ in range(5):
        match = create_match(game="thebes", params={"players": 2}, time_control=ladder.time_control.to_dict(),
                             versions=[failing.active_version_id, others[0].active_version_id], ladder=ladder,
                             queue=False)
        Match.objects.filter(pk=match.pk).update(status=Match.Status.FAILED, finished_at=timezone.now())
    pool = ready_candidates(ladder)
    by_bot = {c.bot_id: c for c in pool}
    assert by_bot[failing.pk].failed == 5 and by_bot[others[1].pk].failed == 0
    assert min(pool, key=need_key).bot_id == others[1].pk  # fewest games, failures counted; then idle longest
