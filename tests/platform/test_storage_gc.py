"""A deleted account's bot code leaves storage (matches.storage_gc): its archives go, and each package goes once no
live version of anyone references its hash — an identical upload by someone else keeps it; replays stay. Run on
the local folder storage and on a real HTTP S3 endpoint (moto's server mode), on real PostgreSQL, with a real
concurrent validation for the race between storing a package and collecting it."""

from __future__ import annotations

import io
import shutil
import threading
import time

import pytest
from django.core.management import call_command
from object_storage import use_s3
from platform_helpers import PYTHON_RANDOM_BOT

LATER = 3 * 3600.0  # the collection's clock this far ahead: every object is past the grace period


@pytest.fixture(params=["folder", "s3"])
def storage(request, settings, tmp_path):
    """The "arena" storage as this test's own folder or its own bucket; returns a function listing every name."""
    from arena_site import objects

    settings.STORAGE_DIR = tmp_path / "storage"
    settings.ARENA_LOCAL_DIR = tmp_path / "local"
    if request.param == "s3":
        endpoint = request.getfixturevalue("s3_endpoint")
        use_s3(settings, endpoint, endpoint.bucket())
    return lambda: sorted(name for name, _ in objects.listing(""))


def package_folder(tmp_path, name: str, padding: bytes):
    folder = tmp_path / name
    shutil.copytree(PYTHON_RANDOM_BOT, folder, ignore=shutil.ignore_patterns("__pycache__"))
    (folder / "padding.bin").write_bytes(padding)
    return folder


def uploaded(bot, number: int, package_sha: str = ""):
    """A version of `bot` as an upload leaves it: its archive in storage, its package's hash recorded."""
    from arena_site import objects
    from botregistry.models import BotVersion

    name = f"bots/{bot.pk}/{number}/archive.zip"
    objects.put_bytes(name, f"archive of {bot.name} v{number}".encode())
    return BotVersion.objects.create(bot=bot, number=number, sha256=f"{number:064x}", archive_path=name,
                                     package_hash=package_sha, status=BotVersion.Status.READY)


def test_a_deleted_accounts_archives_and_own_packages_go_shared_ones_and_replays_stay(storage, make_user, tmp_path):
    from accounts.deletion import delete_account
    from arena_site import objects
    from botregistry.models import Bot
    from botregistry.package_cache import object_name, store_package
    from matches.storage_gc import collect

    shared = store_package(package_folder(tmp_path, "shared", b"same bytes"))  # alice and bob uploaded the same
    alices = store_package(package_folder(tmp_path, "alices", b"only alice's"))
    gone = store_package(package_folder(tmp_path, "gone", b"a deleted bot's"))
    alice, bob = make_user("alice"), make_user("bob")
    a = Bot.objects.create(owner=alice, name="a", game="thebes")
    b = Bot.objects.create(owner=bob, name="b", game="thebes")
    c = Bot.objects.create(owner=bob, name="c", game="thebes")
    uploaded(a, 1, shared), uploaded(a, 2, alices), uploaded(b, 1, shared), uploaded(c, 1, gone)
    objects.put_bytes("replays/0000/7.replay.json.gz", b"a replay")
    objects.put_bytes("replays/0000/7.logs.json.gz", b"its logs")
    c_id = c.pk
    c.delete()  # a deleted bot: its versions' rows are gone
    everything = storage()

    # Nothing is young enough to be kept: what just changed still waits out the grace period.
    assert collect(now=time.time()).removed == [] and storage() == everything

    # A deleted bot's code goes; alice's, still live, stays.
    assert sorted(collect(now=time.time() + LATER).removed) == sorted([f"bots/{c_id}/1/archive.zip",
                                                                       object_name(gone)])

    delete_account(alice)
    planned = collect(dry_run=True, now=time.time() + LATER)
    assert sorted(planned.removed) == sorted([f"bots/{a.pk}/1/archive.zip", f"bots/{a.pk}/2/archive.zip",
                                              object_name(alices)])
    assert len(storage()) == len(everything) - 2  # a dry run removes nothing

    assert sorted(collect(now=time.time() + LATER).removed) == sorted(planned.removed)
    assert storage() == sorted([f"bots/{b.pk}/1/archive.zip", object_name(shared),
                                "replays/0000/7.logs.json.gz", "replays/0000/7.replay.json.gz"])
    with objects.opened(object_name(shared)) as f:  # bob's package, shared with alice's upload, is whole
        assert f.read()[:2] == b"\x1f\x8b"
    assert collect(now=time.time() + LATER).removed == []  # nothing more to do


def test_a_version_still_to_play_a_match_keeps_its_code_until_played(storage, make_user, tmp_path):
    from accounts.deletion import delete_account
    from botregistry.models import Bot
    from botregistry.package_cache import object_name, store_package
    from matches.models import Match, Participant
    from matches.storage_gc import collect

    sha = store_package(package_folder(tmp_path, "p", b"drawn for a tournament game"))
    carol = make_user()
    bot = Bot.objects.create(owner=carol, name="c", game="thebes")
    version = uploaded(bot, 1, sha)
    match = Match.objects.create(game="thebes", seed=1, kind=Match.Kind.TOURNAMENT)  # plays out after deletion
    Participant.objects.create(match=match, seat=0, bot=bot, version=version)
    delete_account(carol)
    assert collect(now=time.time() + LATER).removed == []  # the queued game still launches this package
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED)
    assert sorted(collect(now=time.time() + LATER).removed) == sorted([f"bots/{bot.pk}/1/archive.zip",
                                                                       object_name(sha)])


@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(60)
def test_a_validation_storing_the_same_package_while_the_collection_runs_keeps_it(settings, tmp_path, make_user,
                                                                                 monkeypatch):
    """The validation has put the package (the same bytes as a deleted account's) and not yet recorded its hash
    when the collection, past the grace period, finds the hash unreferenced: the package hold makes the collection
    wait for the validation's commit, recount, and keep the object."""
    from django.db import connection

    from accounts.deletion import delete_account
    from arena_site import objects
    from botregistry import package_cache
    from botregistry.models import Bot, BotVersion
    from matches.storage_gc import collect

    settings.STORAGE_DIR = tmp_path / "storage"
    folder = package_folder(tmp_path, "same", b"identical uploads")
    sha = package_cache.store_package(folder)
    leaver, stayer = make_user(), make_user()
    uploaded(Bot.objects.create(owner=leaver, name="x", game="thebes"), 1, sha)
    delete_account(leaver)
    version = BotVersion.objects.create(bot=Bot.objects.create(owner=stayer, name="y", game="thebes"), number=1,
                                        sha256="1" * 64, package_dir=str(folder), validation_claim="run-1",
                                        status=BotVersion.Status.VALIDATING)

    stored, go = threading.Event(), threading.Event()
    real_put = objects.put_bytes

    def put_then_pause(name, data):
        real_put(name, data)
        stored.set()
        assert go.wait(30)

    monkeypatch.setattr(objects, "put_bytes", put_then_pause)
    results: dict[str, object] = {}

    def validation():
        try:
            results["kept"] = package_cache.keep_validated(version, "run-1")
        finally:
            connection.close()

    def collection():
        try:
            results["removed"] = collect(now=time.time() + LATER).removed
        finally:
            connection.close()

    validating = threading.Thread(target=validation)
    validating.start()
    assert stored.wait(30)
    collecting = threading.Thread(target=collection)
    collecting.start()
    collecting.join(1.5)  # a collection without the hold deletes the object now
    go.set()
    validating.join(30)
    collecting.join(30)
    assert results["kept"] is True and BotVersion.objects.get(pk=version.pk).package_hash == sha
    assert package_cache.object_name(sha) not in results["removed"]  # (the leaver's archive went)
    assert objects.exists(package_cache.object_name(sha))


def test_storage_gc_command_dry_run_lists_and_removes_nothing(settings, tmp_path, make_user):
    import os

    from accounts.deletion import delete_account
    from arena_site import objects
    from botregistry.models import Bot

    settings.STORAGE_DIR = tmp_path / "storage"
    dave = make_user()
    bot = Bot.objects.create(owner=dave, name="d", game="thebes")
    uploaded(bot, 1)
    name = f"bots/{bot.pk}/1/archive.zip"
    old = time.time() - 2 * 3600
    os.utime(objects.storage().path(name), (old, old))
    delete_account(dave)
    out = io.StringIO()
    call_command("storage_gc", "--dry-run", stdout=out)
    assert f"would remove {name}" in out.getvalue() and objects.exists(name)
    call_command("storage_gc", stdout=out)
    assert f"removed {name}" in out.getvalue() and not objects.exists(name)
    assert not (tmp_path / "storage" / "bots").exists()  # the emptied folders go too


def test_the_delete_account_page_says_the_code_is_deleted(client, make_user):
    client.force_login(make_user())
    page = client.get("/me/delete/").content.decode()
    assert "code is deleted" in page and "removed from storage" in page


def test_beat_runs_the_collection_daily(settings, tmp_path, make_user):
    from arena_site.celery import app
    from matches.tasks import storage_gc

    entry = settings.CELERY_BEAT_SCHEDULE["storage-gc"]
    assert entry["task"] == "matches.tasks.storage_gc" and entry["schedule"] == 24 * 3600
    assert "matches.tasks.storage_gc" in app.tasks
    settings.STORAGE_DIR = tmp_path / "storage"
    assert storage_gc() == 0  # an empty storage: nothing to do, and no error


def test_what_a_discarded_run_or_a_killed_upload_left_goes_and_what_is_recorded_stays(storage, make_user):
    """Objects are put before the rows that reference them (issue 22, 11: no row lock across storage calls), so a
    run that lost its claim while uploading, an upload whose process died before its row committed, or a put that
    overran its deadline and finished late leaves an object nothing references: the collection removes it."""
    from arena_site import objects
    from botregistry.models import Bot, BotVersion
    from matches.models import Match
    from matches.storage_gc import collect

    bot = Bot.objects.create(owner=make_user(), name="live", game="thebes")
    kept_archive = f"bots/{bot.pk}/uploads/{'a' * 32}/archive.zip"
    orphan_archive = f"bots/{bot.pk}/uploads/{'b' * 32}/archive.zip"
    for name in (kept_archive, orphan_archive):
        objects.put_bytes(name, b"an archive")
    BotVersion.objects.create(bot=bot, number=1, sha256="1" * 64, archive_path=kept_archive,
                              status=BotVersion.Status.READY)
    match = Match.objects.create(game="thebes", seed=1, status=Match.Status.FINISHED,
                                 replay_path="replays/0000/5.0123456789abcdef.replay.json.gz")
    Match.objects.filter(pk=match.pk).update(id=5)
    recorded = ["replays/0000/5.0123456789abcdef.replay.json.gz", "replays/0000/5.0123456789abcdef.logs.json.gz"]
    discarded = ["replays/0000/5.fedcba9876543210.replay.json.gz", "replays/0000/5.fedcba9876543210.logs.json.gz"]
    unknown = ["replays/0000/6.00000000000000aa.replay.json.gz"]  # a match that is gone
    for name in recorded + discarded + unknown + ["replays/0000/9.replay.json.gz"]:
        objects.put_bytes(name, b"a replay")

    assert collect(now=time.time()).removed == []  # young: perhaps between its put and its commit
    assert sorted(collect(now=time.time() + LATER).removed) == sorted([orphan_archive] + discarded + unknown)
    assert set(recorded + [kept_archive, "replays/0000/9.replay.json.gz"]) <= set(storage())
