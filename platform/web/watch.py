"""Watching a running match live: the server-sent events of its spectator's view (`matches.live`).

`GET /matches/<id>/live/` is an event stream (text/event-stream, read by the browser's EventSource, which
reconnects by itself and sends `Last-Event-ID`, so a spectator who lost the connection resumes at the next
decision they have not seen): an event `frame` per decision (the public view, `State.public_observation`),
then `end` once the match is over (the page then shows the replay). Each connection lasts at most `STREAM_S`
and is then resumed by the browser, so a web worker is never held for good.

`?seat=N` streams seat N's own view instead (what its bot was shown), to those who may play that seat's bot
(its owner, its team's members: `botregistry.ownership.can_play`), never to anyone else, staff included: the
deal stays hidden until the match is over, as in the finished replay's seat views.

Who may watch: anyone, while no other match with the same deal is queued or running (a duplicate set's or a
version test's sibling would be shown its future draws: `matches.seeds`), staff always. A finished match answers
204 (EventSource then stops): its replay is on the page.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator

import redis
from django.db.models import Prefetch, QuerySet
from django.http import HttpResponse, HttpResponseBadRequest, StreamingHttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from botregistry.ownership import can_play
from matches import live
from matches.models import Match, Participant
from matches.seeds import is_staff

#: How long one connection streams before the browser resumes it.
STREAM_S = 120.0
#: How long a read waits for the next decision before a keep-alive line (proxies close silent connections).
BLOCK_MS = 10_000
DONE = [Match.Status.FINISHED, Match.Status.FAILED, Match.Status.CANCELLED]
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


def _event(name: str, data: str, entry_id: str | None = None) -> str:
    head = f"id: {entry_id}\n" if entry_id else ""
    return f"{head}event: {name}\ndata: {data}\n\n"


@require_GET
def live_events(request, match_id: int):
    m = get_object_or_404(Match, pk=match_id)
    if m.done:
        return HttpResponse(status=204)
    if deal_in_play_elsewhere(m) and not is_staff(request.user):
        return HttpResponse(_("this match's deal is still being played in another match: watch it once that is "
                              "over"), status=403, content_type="text/plain")
    seat = None
    people = {str(s): uid for s, uid in (m.people or {}).items()}
    if "seat" in request.GET and request.GET["seat"] in people:
        # a seat a person plays: its view is that person's only (web.play), never another's
        if not request.user.is_authenticated or people[request.GET["seat"]] != request.user.pk:
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
    resp = StreamingHttpResponse(_stream(m.pk, after, seat), content_type="text/event-stream")
    resp["Cache-Control"] = "no-store"
    resp["X-Accel-Buffering"] = "no"  # a proxy must pass each event on at once
    return resp


def _stream(match_id: int, after: str, seat: int | None) -> Iterator[str]:
    conn = live.client(timeout_s=BLOCK_MS / 1000 + 5)
    last = after
    deadline = time.monotonic() + STREAM_S
    yield "retry: 2000\n\n"
    try:
        while time.monotonic() < deadline:
            if seat is not None:  # the worker publishes this seat's view while someone watches it
                try:
                    conn.set(live.wanted_key(match_id, seat), "1", ex=live.WANTED_S)
                except (redis.RedisError, OSError):
                    pass
            try:
                entries = live.read(match_id, last, BLOCK_MS, conn, seat)
            except (redis.RedisError, OSError):
                yield ": the live view is unavailable for now\n\n"
                return  # the browser tries again after `retry`
            if not entries:
                if Match.objects.filter(pk=match_id, status__in=DONE).exists():
                    yield _event("end", "{}")
                    return
                yield ": keep-alive\n\n"
                continue
            for entry_id, fields in entries:
                last = entry_id
                if "end" in fields:
                    yield _event("end", "{}", entry_id)
                    return
                yield _event("frame", fields["frame"], entry_id)
    finally:
        conn.close()
