"""Watching a running match live: the server-sent events of its spectator's view (`matches.live`).

`GET /matches/<id>/live/` is an event stream (text/event-stream, read by the browser's EventSource, which
reconnects by itself and sends `Last-Event-ID`, so a spectator who lost the connection resumes at the next
decision they have not seen): an event `frame` per decision (the public view, `State.public_observation`),
then `end` once the match is over (the page then shows the replay). Each connection lasts at most `STREAM_S`
and is then resumed by the browser, so a web worker is never held for good.

Each web process reads Redis once for all its watchers (`web.watchers`) and serves at most
`settings.ARENA_LIVE_STREAMS` streams (503 with Retry-After beyond); a stream gives its database connection back
before it starts.

`?seat=N` streams seat N's own view instead (what its bot was shown), to those who may play that seat's bot
(its owner, its team's members: `botregistry.ownership.can_play`), never to anyone else, staff included: the
deal stays hidden until the match is over, as in the finished replay's seat views.
A seat a person plays (`Match.people`) is that person's only; its stream also carries their turns (event `turn`:
the decision asked, its actions in words, `web.play.in_words`), each only while it is still the one asked.

Who may watch: anyone, while no other match with the same deal is queued or running (a duplicate set's or a
version test's sibling would be shown its future draws: `matches.seeds`), staff always. A finished match answers
204 (EventSource then stops): its replay is on the page.
"""

from __future__ import annotations

import json
import queue
import re
import socket
import time
from collections.abc import Iterator

import redis
from django import db
from django.db.models import Prefetch, QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, StreamingHttpResponse
from django.shortcuts import get_object_or_404
from django.utils import translation
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from botregistry.ownership import can_play
from matches import live, people
from matches.models import Match, Participant
from matches.seeds import is_staff
from web import watchers
from web.play import in_words

#: How long one connection streams before the browser resumes it.
STREAM_S = 120.0
#: What a browser told "too many live views here" waits before it asks again (503's Retry-After).
RETRY_S = 10
_STREAM_ID = re.compile(r"^(0|\d{1,20}-\d{1,20})$")


def deal_in_play_elsewhere(match: Match) -> bool:
    """Another match dealt the same (same seed) is queued or running."""
    return Match.objects.filter(seed=match.seed, status__in=[Match.Status.QUEUED, Match.Status.RUNNING]).exclude(
        pk=match.pk).exists()


def live_now(matches: QuerySet[Match], n: int = 8) -> list[Match]:
    """The newest running matches of `matches` (the "Live now" lists of the home, ladder and tournament pages),
    with their seats' bots, newest first."""
    return list(matches.filter(status=Match.Status.RUNNING).order_by("-started_at", "-id")
                .prefetch_related(Prefetch("participants", queryset=Participant.objects.select_related("bot")
                                           .order_by("seat")))[:n])


_event = watchers.sse


@require_GET
def live_events(request, match_id: int):
    m = get_object_or_404(Match, pk=match_id)
    if m.done:
        return HttpResponse(status=204)
    if deal_in_play_elsewhere(m) and not is_staff(request.user):
        return HttpResponse(_("this match's deal is still being played in another match: watch it once that is "
                              "over"), status=403, content_type="text/plain")
    seat = None
    seated = {str(s): uid for s, uid in (m.people or {}).items()}  # the seats people play
    if "seat" in request.GET and request.GET["seat"] in seated:
        # a seat a person plays: its view is that person's only (web.play), never another's
        if not request.user.is_authenticated or seated[request.GET["seat"]] != request.user.pk:
            return HttpResponse(_("only the person who plays this seat may watch its view"), status=403,
                                content_type="text/plain")
        seat = int(request.GET["seat"])
    elif "seat" in request.GET:
        part = m.participants.select_related("bot").filter(seat=request.GET["seat"]).first() \
            if request.GET["seat"].isdigit() else None
        if part is None:
            return HttpResponseBadRequest(_("no such seat in this match"), content_type="text/plain")
        if not can_play(request.user, part.bot):
            return HttpResponse(_("only the owner of this seat's bot may watch its view"), status=403,
                                content_type="text/plain")
        seat = part.seat
    after = request.headers.get("Last-Event-ID") or request.GET.get("after") or "0"
    if not _STREAM_ID.match(after):
        return HttpResponseBadRequest(_("Last-Event-ID must be a stream id such as 1700000000000-0"),
                                      content_type="text/plain")
    key = live.key(m.pk, seat)
    try:
        subscribed = watchers.hub().subscribe(key, after, m.pk, live.wanted_key(m.pk, seat) if seat is not None
                                              else None)
    except (redis.RedisError, OSError):
        subscribed = None
        busy = _("the live view is unavailable for now: try again in a moment")
    else:
        busy = _("too many live views are open on this server: try again in a moment")
    if subscribed is None:
        refused = HttpResponse(busy, status=503, content_type="text/plain")
        refused["Retry-After"] = str(RETRY_S)
        return refused
    # the stream may last minutes: this thread's database connection is not held meanwhile (a connection per
    # thread of every process would pass the server's max_connections)
    _release()
    with_turns = seat is not None and str(seat) in seated
    resp = StreamingHttpResponse(_stream(m.pk, m.game, seat, with_turns, subscribed, get_language() or "en",
                                         _direct_socket(request)), content_type="text/event-stream")
    resp["Cache-Control"] = "no-store"
    resp["X-Accel-Buffering"] = "no"  # a proxy must pass each event on at once
    return resp


def _release() -> None:
    """Give this thread's database connection back (not inside a transaction: a test's, which owns it)."""
    if not db.connection.in_atomic_block:
        db.connection.close()


def _turn(match_id: int, game: str, seat: int, fields: dict[str, str], language: str) -> str | None:
    """A person's turn pushed on their seat's stream, in words (web.play.in_words), while it is still the
    decision asked (a resumed stream does not offer a turn already answered or timed out); else None."""
    try:
        now = people.current(match_id, seat, watchers.hub().redis())
    except (redis.RedisError, OSError):
        return None
    asked = json.loads(fields["turn"])
    if now is None or now.get("decision") != asked.get("decision"):
        return None
    with translation.override(language):
        return json.dumps(in_words(asked, game, language), separators=(",", ":"))


def _stream(match_id: int, game: str, seat: int | None, with_turns: bool,
            subscribed: tuple[watchers.Watcher, watchers.Delivery], language: str,
            sock: socket.socket | None = None) -> Iterator[bytes]:
    """The events of one connection: the entries missed, then each delivery of the process's reader as it comes
    (the same bytes for every watcher of the stream); a person's seat (`with_turns`) also gets its turns. The
    reader keeps it alive and says when the match is over (`web.watchers`). `sock`: the client's socket when the
    server frames this response in chunks on it (`_direct_socket`): once caught up, the reader writes the
    deliveries to it itself and this thread only waits for the end (`Hub.write_directly`)."""
    hub = watchers.hub()
    watcher, delivery = subscribed
    had = watcher.had
    hand_over = sock is not None and had is None and not with_turns  # the writes, to the reader
    deadline = time.monotonic() + STREAM_S
    yield b"retry: 2000\n\n"  # (when this thread runs again, the server has sent the headers and this)
    try:
        while True:
            if delivery.raw and sock is not None:  # what the reader could not write at once: from here, this thread
                sock.sendall(delivery.raw)
            elif delivery.data is not None and had is None:
                if delivery.data:
                    yield delivery.data
            else:  # a turn to tell this watcher, or entries it had already: one by one
                for entry_id, fields in delivery.entries:
                    if had is not None and not watchers.newer(entry_id, had):
                        continue
                    if "end" in fields:
                        yield _event("end", "{}", entry_id).encode()
                    elif "frame" in fields:
                        yield _event("frame", fields["frame"], entry_id).encode()
                    elif "turn" in fields and with_turns and seat is not None and (turn := _turn(
                            match_id, game, seat, fields, language)):
                        yield _event("turn", turn, entry_id).encode()
                if had is not None and delivery.entries and watchers.newer(delivery.entries[-1][0], had):
                    had = None
                if delivery.data is not None and not delivery.entries:
                    yield delivery.data  # a keep-alive, or the end found by the reader
            if delivery.ended or delivery.lost or time.monotonic() >= deadline:
                return  # (lost: the browser tries again after `retry`)
            if delivery.raw:
                hand_over = False
            elif hand_over and sock is not None and hub.write_directly(watcher, sock):
                hand_over = False  # (done: so until the end, or a slow write)
            wait = deadline - time.monotonic() if watcher.sock is not None else watchers.TICK_S * 3
            try:
                delivery = watcher.deliveries.get(timeout=max(0.01, wait))
            except queue.Empty:  # the time of this connection is up, or (not this long without a keep-alive)
                return  # a stuck reader's fallback
    finally:
        hub.unsubscribe(watcher)


def _direct_socket(request: HttpRequest) -> socket.socket | None:
    """The client's socket when gunicorn serves this request over plain TCP and HTTP/1.1 (it then frames a
    streamed body in chunks, one a yielded block, as `Delivery.chunk` does) and the socket blocks (a send with
    MSG_DONTWAIT then never waits); else None (runserver under `make up`, TLS, HTTP/1.0: the thread writes)."""
    sock = request.META.get("gunicorn.socket")
    if type(sock) is not socket.socket or request.META.get("SERVER_PROTOCOL") != "HTTP/1.1" \
            or request.method != "GET" or sock.gettimeout() is not None:
        return None
    return sock
