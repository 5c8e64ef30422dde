"""A hanging object store stalls nothing but the call waiting on it (issue 22, 11): recording a match's result and
storing an upload put their objects in storage before they lock the match's or the bot's row, and every storage
call is bounded. Against moto's real S3 server behind a proxy that stops answering (`object_storage.HangingProxy`):
while the upload hangs, another transaction locks and updates the very row (NOWAIT: it would raise if the row were
held), and the match ends finished with its replay kept in the database, the upload with a clear 503."""

from __future__ import annotations

import gzip
import io
import json
import threading
import time

import pytest
from object_storage import HangingProxy
from platform_helpers import bot_files, make_bot, zip_bytes

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(300)]


@pytest.fixture
def hanging_s3(settings, s3_endpoint, tmp_path):
    """This test's bucket on moto, reached through a proxy the test makes hang; per-request timeouts of 1 s."""
    from arena_site.settings import s3_storage

    proxy = HangingProxy(s3_endpoint.port)
    bucket = s3_endpoint.bucket()
    settings.STORAGES = {**settings.STORAGES, "arena": s3_storage(
        {**s3_endpoint.env(bucket), "ARENA_S3_ENDPOINT_URL": proxy.url, "ARENA_S3_TIMEOUT": "1"})}
    settings.STORAGE_DIR = tmp_path / "not-shared"
    settings.ARENA_LOCAL_DIR = tmp_path / "local"
    proxy.bucket = bucket
    yield proxy
    proxy.stop()


class InThread(threading.Thread):
    """Runs `call` in a thread of its own (its own database connection), keeping its value or exception."""

    def __init__(self, call):
        super().__init__(daemon=True)
        self.call, self.value, self.error = call, None, None

    def run(self) -> None:
        from django.db import connection

        try:
            self.value = self.call()
        except BaseException as exc:  # read by the test
            self.error = exc
        finally:
            connection.close()


def _row_is_free(model, pk: int) -> None:
    """Lock the row without waiting (DatabaseError if another transaction holds it) and update it."""
    from django.db import transaction

    with transaction.atomic():
        model.objects.select_for_update(nowait=True).get(pk=pk)
        assert model.objects.filter(pk=pk).update(id=pk) == 1


def test_a_hanging_storage_holds_no_match_row_and_the_match_ends_with_its_replay_kept(hanging_s3, s3_endpoint,
                                                                                       make_user):
    from arena import replay as replays
    from ladders.models import Ladder
    from matches import services, storage
    from matches.models import Match

    ladder = Ladder.objects.create(slug="thebes-2p", name="Thebes 2p", game="thebes", players=2)
    a, b = make_bot(make_user(), "alpha"), make_bot(make_user(), "beta")
    match = services.create_match(game="thebes", params={"players": 2}, time_control=ladder.time_control.to_dict(),
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

    hanging_s3.hang()
    recording = InThread(lambda: services.record_result(match.pk, result, tmp, run))
    recording.start()
    assert hanging_s3.held.wait(120), "the result's upload never reached the storage server"
    assert recording.is_alive()  # the upload is under way, unanswered
    _row_is_free(Match, match.pk)  # another transaction (a heartbeat, recovery, a page) locks and updates the row
    recording.join(timeout=240)
    assert not recording.is_alive() and recording.error is None and recording.value is True

    match.refresh_from_db()
    assert match.status == "finished" and match.replay_missing and match.replay_path == ""
    assert gzip.decompress(bytes(match.unwritten_replay)) == json.dumps(replay).encode()
    assert [p.score for p in match.participants.order_by("seat")] == [0.0, 1.0]
    assert not tmp.exists()

    hanging_s3.resume()  # storage answers again: beat writes the kept replay out
    assert storage.write_unwritten_replays() == [match.pk]
    match.refresh_from_db()
    assert match.replay_path and match.unwritten_replay is None
    assert s3_endpoint.keys(hanging_s3.bucket, "replays/") == [match.replay_path]


def test_a_hanging_storage_holds_no_bot_row_during_an_upload_and_the_upload_is_a_clear_503(hanging_s3, settings,
                                                                                          s3_endpoint, make_user):
    from botregistry.models import Bot, BotVersion
    from botregistry.services import UploadRejected, create_version

    settings.ARENA_SANDBOX = "worker"
    bot = Bot.objects.create(owner=make_user(), name="hangbot", game="thebes")
    data = zip_bytes(bot_files(name="hangbot"))

    hanging_s3.hang()
    uploading = InThread(lambda: create_version(bot, io.BytesIO(data), size=len(data), filename="bot.zip"))
    uploading.start()
    assert hanging_s3.held.wait(120), "the archive's upload never reached the storage server"
    assert uploading.is_alive()
    _row_is_free(Bot, bot.pk)  # another upload, a rename or a transfer of the bot is not held up
    uploading.join(timeout=240)
    assert not uploading.is_alive()
    assert isinstance(uploading.error, UploadRejected) and uploading.error.status == 503
    assert "storage is unavailable" in str(uploading.error)
    assert not BotVersion.objects.filter(bot=bot).exists()

    hanging_s3.resume()  # and once storage answers, the same upload goes through, under a name of its own
    version = create_version(bot, io.BytesIO(data), size=len(data), filename="bot.zip")
    assert version.number == 1 and version.archive_path.startswith(f"bots/{bot.pk}/uploads/")
    assert version.archive_path in s3_endpoint.keys(hanging_s3.bucket, "bots/")


def test_every_storage_call_is_bounded_on_a_hung_file_system_too(settings, tmp_path):
    """A network file system that hangs blocks a write for ever: the call gives up at ARENA_STORAGE_CALL_SECONDS
    with StorageTimeout (an OSError: callers keep the replay in the database, refuse the upload with a 503)."""
    from arena_site import objects

    settings.STORAGE_DIR = tmp_path / "storage"
    settings.ARENA_STORAGE_CALL_SECONDS = 1
    release = threading.Event()
    original = objects.LocalStorage._save

    def hung_save(self, name, content):
        release.wait(120)
        return original(self, name, content)

    objects.LocalStorage._save = hung_save
    try:
        with pytest.raises(objects.StorageTimeout, match="did not answer within 1 s"):
            objects.put_bytes("replays/0000/1.replay.json.gz", b"x")
        assert isinstance(objects.StorageTimeout("x"), OSError)
    finally:
        release.set()
        objects.LocalStorage._save = original
    deadline = time.monotonic() + 60  # the abandoned write finishes once the file system is back: an orphan
    while not (tmp_path / "storage" / "replays" / "0000" / "1.replay.json.gz").exists():
        assert time.monotonic() < deadline
        time.sleep(0.05)
    objects.put_bytes("replays/0000/2.replay.json.gz", b"y")  # and calls work again
    assert (tmp_path / "storage" / "replays" / "0000" / "2.replay.json.gz").read_bytes() == b"y"


def test_a_run_that_loses_its_claim_while_uploading_overwrites_nothing_and_leaves_nothing(settings, tmp_path,
                                                                                          make_user, monkeypatch):
    """The replay is put before the match row is locked, so another worker may take the match over meanwhile (this
    one frozen past the stale threshold): the run's objects are under a name of its own bytes, its result is
    discarded, and what it put is removed again."""
    from django.db.models import F

    from arena_site import objects
    from ladders.models import Ladder
    from matches import services, storage
    from matches.models import Match

    settings.STORAGE_DIR = tmp_path / "storage"
    settings.ARENA_LOCAL_DIR = tmp_path / "local"
    ladder = Ladder.objects.create(slug="thebes-2p", name="Thebes 2p", game="thebes", players=2)
    a, b = make_bot(make_user(), "alpha"), make_bot(make_user(), "beta")
    match = services.create_match(game="thebes", params={"players": 2}, time_control=ladder.time_control.to_dict(),
                                  versions=[a.active_version_id, b.active_version_id], ladder=ladder, queue=False)
    run = services.Run.of(services.claim(match.pk, "host-a:1"))
    tmp = storage.temp_dir() / f"{match.pk}.1.replay.json.gz"
    tmp.parent.mkdir(parents=True)
    tmp.write_bytes(gzip.compress(b'{"decisions": []}'))
    (tmp.parent / f"{match.pk}.1.logs.json.gz").write_bytes(gzip.compress(b'{"seats": []}'))
    result = {"game": "thebes", "params": {"players": 2}, "seed": match.seed, "engine_version": "thebes-1",
              "replay_path": "", "seats": [
                  {"seat": s, "name": f"s{s}", "sha256": "0" * 64, "score": 1.0, "rank": 1,
                   "disqualified": False, "faults": [], "time_ms": 1.0, "decisions": 3} for s in (0, 1)]}
    real_put = objects.put_bytes

    def put_while_taken_over(name, data):
        real_put(name, data)
        Match.objects.filter(pk=match.pk).update(worker="host-b:2", attempts=F("attempts") + 1)

    monkeypatch.setattr(objects, "put_bytes", put_while_taken_over)
    assert services.record_result(match.pk, result, tmp, run) is False
    match.refresh_from_db()
    assert match.status == "running" and match.worker == "host-b:2" and match.replay_path == ""
    assert not list((tmp_path / "storage" / "replays").rglob("*.json.gz"))  # what it put is gone again
    assert not tmp.exists()
