"""Owners are told (platform/notifications): by email (Django's mail outbox here) and by a webhook, a signed JSON
POST delivered by a Celery task to a real HTTP server on 127.0.0.1, retried after a 5xx, bounded by a timeout;
only for the events the owner chose; never to the server's own private or loopback addresses unless allowed."""

from __future__ import annotations

import json
import socket
import threading
import time
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.utils import timezone
from platform_helpers import make_bot, wait_for
from rest_framework.test import APIClient

pytestmark = [pytest.mark.django_db, pytest.mark.timeout(120)]


class Receiver:
    """A webhook receiver on 127.0.0.1: answers each POST with the next status of `statuses` (then 200), or
    holds the answer until `release` is set when `hang`."""

    def __init__(self, statuses: list[int] | None = None, hang: bool = False):
        self.statuses = list(statuses or [])
        self.hang = hang
        self.release = threading.Event()
        self.requests: list[tuple[dict[str, str], bytes]] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 (http.server's name)
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                outer.requests.append(({k.lower(): v for k, v in self.headers.items()}, body))
                if outer.hang:
                    outer.release.wait(30)
                status = outer.statuses.pop(0) if outer.statuses else 200
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook?x=1"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.release.set()
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver():
    made: list[Receiver] = []

    def make(**kw) -> Receiver:
        made.append(Receiver(**kw))
        return made[-1]
    yield make
    for r in made:
        r.close()


@pytest.fixture
def eager():
    """Queued tasks run at once in this process (so Django's mail outbox sees the emails)."""
    from arena_site.celery import app

    before = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = before


def _client(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {user.api_key}")
    return client


def _fail_a_version(user, name="nb"):
    from botregistry.services import mark_validated

    bot = make_bot(user, name, status="validating")
    mark_validated(bot.active_version, False, "the build failed", "compiler said no")
    return bot


# --- preferences ----------------------------------------------------------------------------------------------

def test_preferences_api_reads_and_changes_each_event(make_user):
    from notifications.events import ALL

    user = make_user()
    client = _client(user)
    got = client.get("/api/auth/me/notifications/").json()
    assert got["events"] == dict.fromkeys(ALL, True) and got["email"] is True and got["webhook_url"] == ""
    secret = got["webhook_secret"]
    assert len(secret) >= 40 and client.get("/api/auth/me/notifications/").json()["webhook_secret"] == secret

    r = client.patch("/api/auth/me/notifications/", {"events": {"challenge_finished": False},
                                                     "email_address": "me@example.org"}, format="json")
    assert r.status_code == 200, r.content
    assert r.json()["events"]["challenge_finished"] is False and r.json()["events"]["version_failed"] is True
    assert r.json()["email_address"] == "me@example.org"
    rotated = client.patch("/api/auth/me/notifications/", {"rotate_secret": True}, format="json").json()
    assert rotated["webhook_secret"] != secret and rotated["events"]["challenge_finished"] is False

    assert client.patch("/api/auth/me/notifications/", {"events": {"everything": True}},
                        format="json").status_code == 400
    assert client.patch("/api/auth/me/notifications/", {"email_address": "not-an-address"},
                        format="json").status_code == 400
    assert APIClient().get("/api/auth/me/notifications/").status_code in (401, 403)


@pytest.mark.parametrize("url", ["http://127.0.0.1:9/hook", "http://localhost/", "http://10.0.0.7/",
                                 "http://169.254.169.254/latest/meta-data/", "http://[::1]/",
                                 "http://[::ffff:127.0.0.1]/", "http://0.0.0.0/", "ftp://example.org/",
                                 "file:///etc/passwd", "http://user:pw@example.org/", "javascript:alert(1)",
                                 # IPv4 inside IPv6: NAT64 of the metadata address, 6to4 and compatible loopback
                                 "http://[64:ff9b::a9fe:a9fe]/", "http://[2002:7f00:1::1]/", "http://[::7f00:1]/",
                                 # IPv6 outside global unicast that Python 3.11 counts as global (issue 22, 9)
                                 "http://[fec0::1]/", "http://[feff::1]/", "http://[4000::1]/"])
def test_a_webhook_on_the_servers_own_network_is_refused(make_user, settings, url):
    settings.ARENA_WEBHOOK = {**settings.ARENA_WEBHOOK, "allow_private": False}
    user = make_user()
    r = _client(user).patch("/api/auth/me/notifications/", {"webhook_url": url}, format="json")
    assert r.status_code == 400 and "webhook_url" in r.json(), r.content
    assert _client(user).get("/api/auth/me/notifications/").json()["webhook_url"] == ""


def test_a_url_saved_while_allowed_is_not_called_once_refused(make_user, settings, receiver):
    """The check runs again at delivery: a URL that is (or now resolves to) a private address gets nothing."""
    from notifications import services
    from notifications.tasks import deliver_webhook

    server = receiver()
    user = make_user()
    services.update(user, webhook_url=server.url)
    settings.ARENA_WEBHOOK = {**settings.ARENA_WEBHOOK, "allow_private": False}
    assert deliver_webhook.apply(args=(user.pk, "version_failed", "{}", "d1")).get() == "refused"
    assert server.requests == []


def test_an_event_turned_off_sends_nothing_and_one_on_sends_an_email(make_user, eager, mailoutbox,
                                                                     django_capture_on_commit_callbacks):
    from notifications import services

    user = make_user()
    services.update(user, email_address="owner@example.org", events={"version_failed": False})
    with django_capture_on_commit_callbacks(execute=True):
        _fail_a_version(user, "quiet")
    assert mailoutbox == []

    services.update(user, events={"version_failed": True})
    with django_capture_on_commit_callbacks(execute=True):
        bot = _fail_a_version(user, "loud")
    assert len(mailoutbox) == 1
    mail = mailoutbox[0]
    assert mail.to == ["owner@example.org"] and "loud version 1 failed validation" in mail.subject
    assert "the build failed" in mail.body and f"/bots/{bot.pk}/" in mail.body
    assert "compiler said no" not in mail.body  # the validation log is for the bot page, not for mail

    services.update(user, email=False)
    with django_capture_on_commit_callbacks(execute=True):
        _fail_a_version(user, "muted")
    assert len(mailoutbox) == 1


def test_a_suspension_a_challenge_and_a_tournament_are_told(make_user, eager, mailoutbox, settings,
                                                            django_capture_on_commit_callbacks):
    from botregistry.models import BotVersion
    from matches.models import Match
    from matches.services import cancel, create_match
    from matches.suspension import check_suspension
    from notifications import services
    from tournaments.models import Entry, Tournament
    from tournaments.services import start

    owner, other = make_user(), make_user()

    services.update(owner, email_address="owner@example.org")
    mine, theirs = make_bot(owner, "mine"), make_bot(other, "theirs")

    # suspended: by the rule itself (matches.suspension), here after one finished match with a crash
    settings.ARENA_SUSPENSION = {"window": 1, "min_matches": 1, "fault_share": 0.5}
    crashed = create_match(game="thebes", params={}, time_control={}, queue=False, rated=False,
                           versions=[mine.active_version_id, theirs.active_version_id])
    Match.objects.filter(pk=crashed.pk).update(status=Match.Status.FINISHED, finished_at=timezone.now())
    crashed.participants.filter(bot=mine).update(faults=[{"kind": "crash", "message": "boom"}])
    with django_capture_on_commit_callbacks(execute=True):
        assert check_suspension(BotVersion.objects.get(pk=mine.active_version_id))
    assert [m.subject for m in mailoutbox] == ["[Arena] mine version 1 was suspended"]
    BotVersion.objects.filter(pk=mine.active_version_id).update(status=BotVersion.Status.READY)

    # a challenge the owner asked for ends (here: cancelled); the opponent's owner asked nothing
    with django_capture_on_commit_callbacks(execute=True):
        m = create_match(game="thebes", params={}, time_control={}, versions=[mine.active_version_id,
                                                                              theirs.active_version_id],
                         kind=Match.Kind.CHALLENGE, rated=False, requested_by=owner, queue=False)
    with django_capture_on_commit_callbacks(execute=True):
        cancel([m.pk], "test")
    assert mailoutbox[-1].subject == f"[Arena] challenge match #{m.pk} cancelled"
    assert len(mailoutbox) == 2

    # a tournament with too few entries is cancelled at its start: an end
    t = Tournament.objects.create(name="Cup", game="thebes", players=4,
                                  starts_at=timezone.now() - timedelta(seconds=1), seed=9)
    Entry.objects.create(tournament=t, bot=mine)
    with django_capture_on_commit_callbacks(execute=True):
        assert start(t.pk) is False
    assert mailoutbox[-1].subject == "[Arena] tournament Cup cancelled" and len(mailoutbox) == 3

    # a version test stopped by its owner
    from ladders.models import Ladder
    from versiontests import services as tests
    from versiontests.models import VersionTest

    v2 = BotVersion.objects.create(bot=mine, number=2, sha256="v2", package_dir="/nonexistent/v2",
                                   status=BotVersion.Status.READY)
    vt = VersionTest.objects.create(owner=owner, bot=mine, version_a=mine.active_version, version_b=v2,
                                    ladder=Ladder.objects.filter(game="thebes").first()
                                    or Ladder.objects.create(slug="t2", name="T2", game="thebes", players=2))
    with django_capture_on_commit_callbacks(execute=True):
        assert tests.stop(vt.pk)
    assert mailoutbox[-1].subject == "[Arena] version test of mine v2 against v1: stopped"
    assert "stopped by its owner" in mailoutbox[-1].body and len(mailoutbox) == 4


# --- webhooks ---------------------------------------------------------------------------------------------------

def test_a_webhook_post_is_signed_and_bounded_by_its_timeout(receiver):
    from notifications import webhooks

    server = receiver()
    status = webhooks.post(server.url, "s3cret", b'{"a":1}', {"X-Arena-Event": "e"}, timeout=5)
    assert status == 200
    headers, body = server.requests[0]
    assert body == b'{"a":1}' and headers["x-arena-event"] == "e"
    assert webhooks.verify("s3cret", body, headers["x-arena-signature-256"])
    assert not webhooks.verify("other", body, headers["x-arena-signature-256"])
    assert headers["host"] == server.url.split("/")[2]

    hanging = receiver(hang=True)
    began = time.monotonic()
    with pytest.raises(webhooks.DeliveryFailed) as failed:
        webhooks.post(hanging.url, "s", b"{}", {}, timeout=0.5)
    assert failed.value.retry and time.monotonic() - began < 15  # 0.5 s, generous under load

    # a server that trickles its answer (a byte well within each wait) is cut off at the whole try's timeout
    trickler = socket.socket()
    trickler.bind(("127.0.0.1", 0))
    trickler.listen()
    stop = threading.Event()

    def trickle():
        conn, _ = trickler.accept()
        conn.sendall(b"HTTP/1.1 200 OK\r\nX-Slow: ")
        while not stop.is_set():
            try:
                conn.sendall(b"a")
            except OSError:
                break
            time.sleep(0.1)
        conn.close()
    threading.Thread(target=trickle, daemon=True).start()
    began = time.monotonic()
    try:
        with pytest.raises(webhooks.DeliveryFailed):
            webhooks.post(f"http://127.0.0.1:{trickler.getsockname()[1]}/", "s", b"{}", {}, timeout=1)
        assert time.monotonic() - began < 20  # 1 s, generous under load; unbounded without the deadline
    finally:
        stop.set()
        trickler.close()

    refusing = receiver(statuses=[404])
    with pytest.raises(webhooks.DeliveryFailed) as failed:
        webhooks.post(refusing.url, "s", b"{}", {}, timeout=5)
    assert not failed.value.retry  # the receiver's refusal is not tried again


def test_a_hanging_webhook_does_not_hold_up_what_sent_the_event(make_user, receiver,
                                                                django_capture_on_commit_callbacks, settings):
    """Notifying only queues a task: the match worker that announced the event goes on at once."""
    from notifications import services

    settings.ARENA_WEBHOOK = {**settings.ARENA_WEBHOOK, "timeout": 60}
    hanging = receiver(hang=True)
    user = make_user()
    services.update(user, webhook_url=hanging.url)
    began = time.monotonic()
    with django_capture_on_commit_callbacks(execute=True):
        _fail_a_version(user)
    assert time.monotonic() - began < 30  # a delivery in line would wait 60 s
    assert hanging.requests == []  # nothing was called in line


@pytest.mark.django_db(transaction=True)
def test_the_worker_delivers_a_signed_event_and_retries_after_a_500(celery_worker, make_user, receiver):
    from notifications import services, webhooks

    server = receiver(statuses=[500])
    user = make_user()
    prefs = services.update(user, webhook_url=server.url)
    bot = _fail_a_version(user, "hooked")  # commits (transactional test): the signal queues the delivery

    wait_for(lambda: len(server.requests) >= 2, 60, what="a retry after the 500")
    (first_headers, first_body), (headers, body) = server.requests[:2]
    assert webhooks.verify(prefs.webhook_secret, body, headers["x-arena-signature-256"])
    assert headers["x-arena-delivery"] == first_headers["x-arena-delivery"] and body == first_body
    event = json.loads(body)
    assert event["event"] == "version_failed" == headers["x-arena-event"]
    assert event["data"]["bot"] == bot.pk and event["data"]["reason"] == "the build failed"
    assert event["url"].endswith(f"/bots/{bot.pk}/")
    time.sleep(1)
    assert len(server.requests) == 2  # delivered: not sent again


# --- the owner's pages --------------------------------------------------------------------------------------------

def test_the_owner_page_form_saves_notification_choices(make_user, client, settings):
    from notifications import services

    user = make_user()
    client.force_login(user)
    page = client.get("/me/").content.decode()
    assert "Notifications" in page and 'name="event-version_failed"' in page
    r = client.post("/me/", {"action": "notifications", "event-version_failed": "on", "email": "on",
                             "email_address": "a@example.org", "webhook_url": ""})
    assert r.status_code == 302
    got = services.as_dict(user)
    assert got["events"]["version_failed"] and not got["events"]["tournament_started"] and got["email"]
    settings.ARENA_WEBHOOK = {**settings.ARENA_WEBHOOK, "allow_private": False}
    refused = client.post("/me/", {"action": "notifications", "webhook_url": "http://127.0.0.1/"})
    assert services.as_dict(user)["webhook_url"] == ""  # refused, nothing saved
    assert refused.status_code == 400 and "private, loopback" in refused.content.decode()


def test_the_bot_page_offers_validate_again_for_a_timed_out_build_to_its_owner(make_user, client):
    from arena.botcheck import BUILD_TIMED_OUT
    from botregistry.models import BotVersion

    owner, visitor = make_user(), make_user()
    bot = make_bot(owner, "slowbuild", status="failed")
    BotVersion.objects.filter(pk=bot.active_version_id).update(status_reason=BUILD_TIMED_OUT)
    other = make_bot(owner, "brokenbot", status="failed")
    BotVersion.objects.filter(pk=other.active_version_id).update(status_reason="the build failed")
    client.force_login(owner)
    page = client.get(f"/bots/{bot.pk}/").content.decode()
    assert f'data-json-post="/api/versions/{bot.active_version_id}/revalidate/"' in page
    assert "Validate v1 again" in page
    assert "revalidate" not in client.get(f"/bots/{other.pk}/").content.decode()
    client.force_login(visitor)
    assert "revalidate" not in client.get(f"/bots/{bot.pk}/").content.decode()


def test_host_trouble_points_at_validate_again_and_old_failures_can_still_be_validated_again(make_user):
    from botregistry.models import BotVersion
    from botregistry.services import HOST_TROUBLE, HOST_TROUBLE_BEFORE, failed_transiently

    assert "validate again" in HOST_TROUBLE and "upload again" not in HOST_TROUBLE
    bot = make_bot(make_user(), "olden", status="failed")
    BotVersion.objects.filter(pk=bot.active_version_id).update(status_reason=HOST_TROUBLE_BEFORE)
    assert failed_transiently(BotVersion.objects.get(pk=bot.active_version_id))
