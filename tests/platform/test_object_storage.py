"""Bot archives, packages and replays in S3-compatible object storage (arena_site.objects, botregistry.package_cache),
against a real HTTP S3 endpoint (moto's server mode, started by the `s3_endpoint` fixture): nothing here reads a
file another process wrote to a shared disk."""

from __future__ import annotations

import gzip
import io
import json
import shutil
import tarfile

import pytest
from object_storage import use_s3
from platform_helpers import PYTHON_RANDOM_BOT, bot_files, make_bot, upload, zip_bytes


@pytest.fixture
def s3(settings, s3_endpoint, tmp_path):
    """This test's own bucket as the "arena" storage; this process's working folder under tmp_path."""
    bucket = s3_endpoint.bucket()
    use_s3(settings, s3_endpoint, bucket)
    settings.STORAGE_DIR = tmp_path / "not-shared"  # nothing may be found here: everything goes to the bucket
    settings.ARENA_LOCAL_DIR = tmp_path / "local"
    settings.ARENA_PACKAGE_CACHE_DIR = None
    return bucket


def package_copy(tmp_path, name: str, extra: bytes = b""):
    folder = tmp_path / name
    shutil.copytree(PYTHON_RANDOM_BOT, folder, ignore=shutil.ignore_patterns("__pycache__"))
    (folder / "padding.bin").write_bytes(extra)
    return folder


def test_an_upload_goes_to_the_bucket_and_validation_fetches_it_by_hash(s3, s3_endpoint, client_for, make_user,
                                                                         settings, tmp_path):
    from arena.botpkg import package_sha256
    from botregistry.models import BotVersion
    from botregistry.package_cache import PackageRefused, working_copy

    settings.ARENA_SANDBOX = "worker"  # the web accepts; validation (not run here) is the workers' business
    client = client_for(make_user())
    bot = client.post("/api/bots/", {"name": "s3bot", "game": "thebes"}, format="json").json()
    response = upload(client, bot["id"], zip_bytes(bot_files(name="s3bot")))
    assert response.status_code == 201, response.content
    version = BotVersion.objects.get(pk=response.json()["id"])
    assert s3_endpoint.keys(s3) == [version.archive_path]  # a name of this upload's own, stored before the row
    assert version.archive_path.startswith(f"bots/{bot['id']}/uploads/") and version.archive_path.endswith("/archive.zip")
    assert version.package_dir == "" and version.package_path is None  # the web kept no folder of it
    assert not (tmp_path / "not-shared").exists() and not list((tmp_path / "local").rglob("bot.toml"))

    with working_copy(version) as folder:  # what the validating worker does
        assert package_sha256(folder) == version.sha256 and (folder / "bot.toml").is_file()
    assert not folder.exists()  # removed after the validation

    # Someone changes the stored archive: the validation refuses it instead of running what it now holds.
    files = bot_files(name="s3bot")
    files["bot.py"] += b"\n# changed behind Arena's back\n"
    s3_endpoint.client().put_object(Bucket=s3, Key=version.archive_path, Body=zip_bytes(files))
    with pytest.raises(PackageRefused, match="not the one uploaded"), working_copy(version):
        pass


def test_the_package_cache_verifies_unpacks_and_evicts_the_least_recently_used(s3, s3_endpoint, tmp_path, settings):
    from botregistry.package_cache import PackageCache, object_name, store_package

    one = store_package(package_copy(tmp_path, "one", b"1" * 200_000))
    two = store_package(package_copy(tmp_path, "two", b"2" * 200_000))
    assert store_package(package_copy(tmp_path, "one-again", b"1" * 200_000)) == one  # same files, same object
    assert s3_endpoint.keys(s3, "packages/") == sorted([object_name(one), object_name(two)])

    cache = PackageCache(tmp_path / "cache", max_bytes=300_000)  # room for one of them
    with cache.use(one) as folder:
        assert (folder / "bot.toml").is_file() and (folder / "padding.bin").stat().st_size == 200_000
        assert oct((folder / "bot.py").stat().st_mode & 0o777) == "0o644"
        with cache.use(two) as other:  # both held (one match seating both): both stay while the bots run
            assert {sha for _, sha, _ in cache.entries()} == {one, two} and (other / "bot.toml").is_file()
        # two released, one still held: over the cap, the held one stays although it is the least recently used
        assert [sha for _, sha, _ in cache.entries()] == [one]
        assert (folder / "bot.toml").is_file()
    with cache.use(two):  # one released: the least recently used goes, down to the cap
        pass
    assert [sha for _, sha, _ in cache.entries()] == [two]
    assert not list((tmp_path / "cache" / ".tmp").iterdir())  # no download or eviction left behind


def test_a_tampered_package_object_is_refused_and_its_match_fails_without_launching(
        s3, s3_endpoint, tmp_path, make_user, caplog):
    from botregistry.package_cache import PackageCache, PackageRefused, object_name, pack, store_package
    from ladders.models import Ladder
    from matches import tasks
    from matches.services import create_match

    sha = store_package(package_copy(tmp_path, "good"))
    evil = package_copy(tmp_path, "evil")
    (evil / "bot.py").write_text("import os\nos.system('echo owned')\n")
    s3_endpoint.client().put_object(Bucket=s3, Key=object_name(sha), Body=pack(evil))

    cache = PackageCache(tmp_path / "cache")
    with pytest.raises(PackageRefused, match="not the validated one"), cache.use(sha):
        pass
    assert cache.entries() == [] and not list((tmp_path / "cache" / ".tmp").iterdir())

    ladder = Ladder.objects.create(slug="thebes-2p", name="Thebes 2p", game="thebes", players=2)
    a, b = make_bot(make_user(), "alpha"), make_bot(make_user(), "beta")
    versions = type(a.active_version).objects
    versions.filter(pk=a.active_version_id).update(package_dir="", package_hash=sha)
    versions.filter(pk=b.active_version_id).update(package_dir=str(PYTHON_RANDOM_BOT))
    match = create_match(game="thebes", params={"players": 2}, time_control=ladder.time_control.to_dict(),
                         versions=[a.active_version_id, b.active_version_id], ladder=ladder, queue=False)
    with pytest.raises(tasks.MatchCannotRun, match="not the validated one"):
        tasks.play(match)
    assert not (tmp_path / "local" / "replays" / "tmp").exists() or not list(
        (tmp_path / "local" / "replays" / "tmp").iterdir())  # no bot ran: no replay was started


def test_a_replay_refused_by_s3_is_kept_and_uploaded_once_s3_is_back(s3, s3_endpoint, settings, tmp_path,
                                                                     make_user, anon):
    from object_storage import free_port

    from arena import replay as replays
    from ladders.models import Ladder
    from matches import services, storage
    from matches.models import Match
    from matches.services import create_match

    ladder = Ladder.objects.create(slug="thebes-2p", name="Thebes 2p", game="thebes", players=2)
    a, b = make_bot(make_user(), "alpha"), make_bot(make_user(), "beta")
    match = create_match(game="thebes", params={"players": 2}, time_control=ladder.time_control.to_dict(),
                         versions=[a.active_version_id, b.active_version_id], ladder=ladder, queue=False)
    run = services.Run.of(services.claim(match.pk, "host-a:1"))
    tmp = storage.temp_dir() / f"{match.pk}.1.replay.json.gz"
    tmp.parent.mkdir(parents=True)
    replay = {"format": replays.FORMAT, "version": replays.VERSION, "header": {"seed": match.seed}, "decisions": []}
    tmp.write_bytes(gzip.compress(json.dumps(replay).encode()))
    result = {"game": "thebes", "params": {"players": 2}, "seed": match.seed, "engine_version": "thebes-1",
              "replay_path": "", "seats": [
                  {"seat": s, "name": f"s{s}", "sha256": "0" * 64, "score": 1.0 * s, "rank": 2 - s,
                   "disqualified": False, "faults": [], "time_ms": 1.0, "decisions": 3} for s in (0, 1)]}

    live = settings.STORAGES["arena"]
    down = {**s3_endpoint.env(s3), "ARENA_S3_ENDPOINT_URL": f"http://127.0.0.1:{free_port()}",
            "ARENA_S3_TIMEOUT": "1"}
    from arena_site.settings import s3_storage
    settings.STORAGES = {**settings.STORAGES, "arena": s3_storage(down)}  # the endpoint is down
    assert services.record_result(match.pk, result, tmp, run)
    match.refresh_from_db()
    assert match.status == "finished" and match.replay_path == "" and match.replay_missing  # result kept
    assert gzip.decompress(bytes(match.unwritten_replay)) == json.dumps(replay).encode()
    assert not tmp.exists()
    assert storage.write_unwritten_replays() == []  # still down: kept, tried again later

    settings.STORAGES = {**settings.STORAGES, "arena": live}  # back
    assert storage.write_unwritten_replays() == [match.pk]
    match = Match.objects.get(pk=match.pk)
    assert match.replay_path == services.replay_relative(match.pk).as_posix() and match.unwritten_replay is None
    assert s3_endpoint.keys(s3, "replays/") == [match.replay_path]
    response = anon.get(f"/api/matches/{match.pk}/replay/")
    assert response.status_code == 200
    assert json.loads(gzip.decompress(b"".join(response.streaming_content))) == replay


def test_pack_is_reproducible_and_refuses_links(tmp_path):
    from botregistry.package_cache import pack

    folder = package_copy(tmp_path, "p")
    first = pack(folder)
    (folder / "bot.toml").touch()  # a newer time: the same bytes all the same
    assert pack(folder) == first
    members = tarfile.open(fileobj=io.BytesIO(first)).getmembers()
    assert "bot.toml" in [m.name for m in members]
    assert all(m.uid == 0 and m.mtime == 0 and m.mode in (0o644, 0o755) for m in members)
    (folder / "link").symlink_to("/etc/passwd")
    with pytest.raises(ValueError, match="link"):
        pack(folder)


def test_ensure_bucket_makes_the_bucket_once(s3_endpoint, settings):
    import uuid

    from django.core.management import call_command

    bucket = f"made-{uuid.uuid4().hex[:8]}"
    use_s3(settings, s3_endpoint, bucket)
    out = io.StringIO()
    call_command("ensure_bucket", stdout=out)
    call_command("ensure_bucket", stdout=out)
    assert out.getvalue().splitlines() == [f"bucket {bucket} created", f"bucket {bucket} exists"]
    assert bucket in [b["Name"] for b in s3_endpoint.client().list_buckets()["Buckets"]]


def test_replays_piling_up_in_the_database_pause_matchmaking(settings, make_user, db):
    """An object store that refuses uploads has no free space to read: the replays it refused are the signal."""
    from ladders.models import Ladder
    from matches.models import Match
    from matches.services import create_match
    from matches.storage import storage_low

    settings.ARENA_UNWRITTEN_REPLAYS_PAUSE = 2
    settings.ARENA_STORAGE_MIN_FREE_MB = 0
    ladder = Ladder.objects.create(slug="thebes-2p", name="Thebes 2p", game="thebes", players=2)
    a, b = make_bot(make_user(), "alpha"), make_bot(make_user(), "beta")
    ids = [create_match(game="thebes", params={"players": 2}, time_control=ladder.time_control.to_dict(),
                        versions=[a.active_version_id, b.active_version_id], ladder=ladder, queue=False).pk
           for _ in range(2)]
    Match.objects.filter(pk=ids[0]).update(status="finished", unwritten_replay=b"kept")
    assert storage_low() is None
    Match.objects.filter(pk=ids[1]).update(status="finished", unwritten_replay=b"kept")
    assert "2 replays wait in the database" in storage_low()


def test_left_over_working_folders_are_swept_after_their_grace(settings, tmp_path):
    import os
    import time

    from matches.storage import sweep_work_folders

    settings.ARENA_LOCAL_DIR = tmp_path
    settings.ARENA_PACKAGE_CACHE_DIR = None
    old, fresh = tmp_path / "validation" / "old", tmp_path / "staging" / "fresh"
    part = tmp_path / "package-cache" / ".tmp" / "abc.tar.gz"
    for folder in (old, fresh, part.parent):
        folder.mkdir(parents=True)
    (old / "bot.toml").write_text("x")
    part.write_bytes(b"half a download")
    an_hour_ago = time.time() - 7200
    for path in (old, part):
        os.utime(path, (an_hour_ago, an_hour_ago))
    assert sorted(sweep_work_folders()) == sorted([old, part])
    assert fresh.exists() and not old.exists() and not part.exists()


def test_an_existing_local_install_moves_to_s3_and_keeps_its_rows_working(s3, s3_endpoint, settings, tmp_path,
                                                                          make_user, anon):
    from django.core.management import call_command

    from botregistry.models import BotVersion
    from botregistry.package_cache import local_package, object_name
    from ladders.models import Ladder
    from matches.models import Match
    from matches.services import create_match

    legacy = tmp_path / "legacy-storage"  # what an install before object storage kept in its folder
    settings.STORAGE_DIR = legacy
    shutil.copytree(PYTHON_RANDOM_BOT, legacy / "bots" / "1" / "1" / "package",
                    ignore=shutil.ignore_patterns("__pycache__"))
    (legacy / "bots" / "1" / "1" / "archive.zip").write_bytes(zip_bytes(bot_files()))
    ladder = Ladder.objects.create(slug="thebes-2p", name="Thebes 2p", game="thebes", players=2)
    a, b = make_bot(make_user(), "alpha"), make_bot(make_user(), "beta")
    BotVersion.objects.filter(pk=a.active_version_id).update(package_dir="bots/1/1/package",
                                                             archive_path="bots/1/1/archive.zip")
    match = create_match(game="thebes", params={"players": 2}, time_control=ladder.time_control.to_dict(),
                         versions=[a.active_version_id, b.active_version_id], ladder=ladder, queue=False)
    (legacy / "replays" / "0000").mkdir(parents=True)
    (legacy / "replays" / "0000" / f"{match.pk}.replay.json.gz").write_bytes(gzip.compress(b'{"a": 1}'))
    Match.objects.filter(pk=match.pk).update(status="finished",
                                             replay_path=f"replays/0000/{match.pk}.replay.json.gz")

    out = io.StringIO()
    call_command("storage_import_local", stdout=out)
    assert "copied 2 files, stored 1 packages" in out.getvalue()
    version = BotVersion.objects.get(pk=a.active_version_id)
    assert set(s3_endpoint.keys(s3)) == {"bots/1/1/archive.zip", f"replays/0000/{match.pk}.replay.json.gz",
                                         object_name(version.package_hash)}
    shutil.rmtree(legacy)  # the old folder is gone (another machine): everything is read from the bucket
    response = anon.get(f"/api/matches/{match.pk}/replay/")
    assert gzip.decompress(b"".join(response.streaming_content)) == b'{"a": 1}'
    with local_package(version) as folder:
        assert (folder / "bot.toml").is_file() and folder.is_relative_to(tmp_path / "local")
    call_command("storage_import_local", stdout=out)  # again: nothing more to do
    assert out.getvalue().splitlines()[-1].startswith("copied 0 files, stored 0 packages")
