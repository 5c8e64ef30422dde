"""Watching a running match live (matches.live → web.watch → web/viewer/watch.js): the events carry, in order,
the spectator's view after every decision, told in words (a secret choice told as secret), and nothing hidden
(checked on the wire), a reconnecting browser
resumes after the last event it got, and the deal of a match still played elsewhere is not shown.

The stream is fed by the same `Broadcast` the match task uses, over the real Redis, from a real game."""

from __future__ import annotations

import json
import random
import re
import time

import pytest

from arena import games

CARD = re.compile(r'"(I{1,2}-\d\d#\d)"')


@pytest.fixture
def running(world):
    """A running 2-player Minos match between two of the world's bots (made for Minos)."""
    from botregistry.models import Bot, BotVersion
    from matches.models import Match, Participant

    match = Match.objects.create(kind=Match.Kind.CHALLENGE, rated=False, game="minos", params={"players": 2},
                                 seed=424242, status=Match.Status.RUNNING)
    for i, owner in enumerate(world["owners"][:2]):
        bot = Bot.objects.create(owner=owner, name=f"watched{i}", game="minos")
        v = BotVersion.objects.create(bot=bot, number=1, status=BotVersion.Status.READY, sha256="c" * 64,
                                      package_dir="x")
        Participant.objects.create(match=match, seat=i, bot=bot, version=v)
    return match


def broadcast_game(match_id: int, seed: int, players: int = 2, limit: int | None = None, pause_s: float = 0.0):
    """Play a random Minos game, publishing it as the match task does; returns the states after each decision
    (index 0: the start) and the seat that made each decision."""
    from matches import live

    state = games.load("minos", players=players).new_state(seed)
    out = live.Broadcast(match_id, names=[f"seat{s}" for s in range(players)])
    out.start(state)
    states, actors = [state.clone()], [None]
    pick = random.Random(seed)
    i = 0
    while not state.is_terminal() and (limit is None or i < limit):
        actors.append(state.current_player())
        action = pick.choice(state.legal_actions())
        events = state.apply(action)
        out.recorded(i, {"seat": actors[-1], "action": str(action), "events": events, "fault": None,
                         "substitute": False})  # as the referee tells the match task (`on_decision`)
        out.decided(i, state)
        states.append(state.clone())
        time.sleep(pause_s)  # (a bot's decision takes time; in-process decisions come faster than any match)
        i += 1
    out.end()  # the run is over (cut short with `limit`: as a lost worker's run)
    return states, actors


def events_of(body: str) -> list[dict]:
    out = []
    for block in body.split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line and not line.startswith(":"))
        if "event" in fields:
            out.append(fields)
    return out


def hidden_cards(state) -> set[str]:
    """Card ids no spectator may see now: hand cards the other seats do not know, the setup draw, decks and
    discards."""
    omni = state.observation(None)
    hidden = set(omni["hidden"]["deck_i"] + omni["hidden"]["deck_ii"] + omni["hidden"]["discard_i"]
                 + omni["hidden"]["discard_ii"])
    for s, p in enumerate(omni["player_states"]):
        others = state.observation((s + 1) % state.game.players)["player_states"][s]
        hidden |= set(p["hand"]) - set(others["hand"])
        hidden |= set(p["setup_drawn"])  # (`pending` choices are hidden choices, not hidden cards: checked apart)
    return {c for c in hidden if CARD.fullmatch(f'"{c}"')}


def test_spectators_get_every_decision_in_order_and_nothing_hidden_on_the_wire(running, anon):
    states, actors = broadcast_game(running.pk, seed=5)
    resp = anon.get(f"/matches/{running.pk}/live/")
    assert resp.status_code == 200 and resp["Content-Type"] == "text/event-stream"
    body = b"".join(resp.streaming_content).decode()
    events = events_of(body)
    frames = [e for e in events if e["event"] == "frame"]
    assert events[-1]["event"] == "end"
    assert [json.loads(f["data"])["index"] for f in frames] == list(range(len(states)))
    checked = hidden_told = 0
    for i, (f, state, actor) in enumerate(zip(frames, states, actors, strict=True)):
        data = json.loads(f["data"])
        assert data["seat"] == actor and data["observation"] == state.public_observation()
        # the decision in words for the log, in every language, and the scores for the chart
        assert set(data["story"]) == {"en", "pt-br", "zh-hans"} and len(data["scores"]) >= 2
        if i and states[i - 1].decision() in states[i - 1].HIDDEN_DECISIONS:
            # a secret choice: told as one, in no words that would give it away
            assert data["story"]["en"]["text"].endswith("(hidden in this view)."), data["story"]["en"]
            hidden_told += 1
        secret = hidden_cards(state)
        assert not secret & set(CARD.findall(f["data"])), f"frame {data['index']} shows a hidden card"
        assert all(p["pending"] == [] for p in data["observation"]["player_states"])  # nobody's secret choice
        checked += bool(secret)
    assert checked > len(frames) // 2  # there was something to hide in most frames
    assert hidden_told >= 4  # (the keep and palace choices of both seats at least)
    assert '"hidden":{' not in body  # the omniscient view's piles (a covered sea tile reads "hidden")


def test_a_reconnecting_spectator_resumes_after_the_last_event_it_got(running, anon):
    broadcast_game(running.pk, seed=6, limit=12)
    first = events_of(b"".join(anon.get(f"/matches/{running.pk}/live/").streaming_content).decode())
    assert first[-1]["event"] == "end"  # the run over: the stream says so (the page then shows the replay)
    frames = [e for e in first if e["event"] == "frame"]
    assert len(frames) == 13
    again = anon.get(f"/matches/{running.pk}/live/", HTTP_LAST_EVENT_ID=frames[4]["id"])
    resumed = [json.loads(e["data"])["index"] for e in events_of(b"".join(again.streaming_content).decode())
               if e["event"] == "frame"]
    assert resumed == list(range(5, 13))


def test_forged_and_closed_streams(running, anon, world):
    from matches.models import Match

    assert anon.get(f"/matches/{running.pk}/live/", HTTP_LAST_EVENT_ID="0;DROP").status_code == 400
    # a sibling dealt the same (a duplicate set) still queued: its future draws are not shown
    sibling = Match.objects.create(kind=Match.Kind.TOURNAMENT, game="minos", params={"players": 2},
                                   seed=running.seed, status=Match.Status.QUEUED)
    assert anon.get(f"/matches/{running.pk}/live/").status_code == 403
    assert b"data-live-watch" not in anon.get(f"/matches/{running.pk}/").content
    sibling.delete()
    assert b"data-live-watch" in anon.get(f"/matches/{running.pk}/").content
    assert anon.get(f"/matches/{world['match'].pk}/live/").status_code == 204  # finished: the replay instead


def test_running_matches_are_listed_live_now_on_the_home_and_ladder_pages(running, anon, world):
    from matches.models import Match

    ladder_match = Match.objects.create(kind=Match.Kind.LADDER, ladder=world["ladder"], game="thebes",
                                        params={"players": 4}, seed=9, status=Match.Status.RUNNING)
    home = anon.get("/").content.decode()
    assert f'data-live-match="{running.pk}"' in home and f'data-live-match="{ladder_match.pk}"' in home
    ladder = anon.get(f"/ladders/{world['ladder'].slug}/").content.decode()
    assert f'data-live-match="{ladder_match.pk}"' in ladder and f'data-live-match="{running.pk}"' not in ladder
    Match.objects.filter(pk__in=[running.pk, ladder_match.pk]).update(status=Match.Status.FINISHED)
    assert "data-live-match" not in anon.get("/").content.decode()


def test_a_seats_owner_may_watch_that_seats_own_view_and_nobody_else_may(running, anon, world):
    from django.test import Client

    from matches import live

    # the owner is watching seat 0 (web.watch says so, as this does): the worker publishes that seat's view
    live.client().set(live.wanted_key(running.pk, 0), "1", ex=live.WANTED_S)
    states, _ = broadcast_game(running.pk, seed=8, limit=40, pause_s=0.05)
    owner, other = Client(), Client()
    owner.force_login(world["owners"][0])  # owns seat 0's bot
    other.force_login(world["owners"][2])  # owns no seat of this match
    body = b"".join(owner.get(f"/matches/{running.pk}/live/?seat=0").streaming_content).decode()
    frames = [json.loads(e["data"]) for e in events_of(body) if e["event"] == "frame"]
    indices = [f["index"] for f in frames]
    assert len(frames) >= 20 and indices == list(range(indices[0], 41))  # from when it was wanted, every one
    assert all(f["observation"] == states[f["index"]].observation(0) for f in frames)
    assert live.client().xlen(live.key(running.pk, 1)) == 1  # nobody watched seat 1: only its "end", no view
    assert owner.get(f"/matches/{running.pk}/live/?seat=1").status_code == 403  # the other seat: never
    assert other.get(f"/matches/{running.pk}/live/?seat=0").status_code == 403
    assert anon.get(f"/matches/{running.pk}/live/?seat=0").status_code == 403
    assert owner.get(f"/matches/{running.pk}/live/?seat=7").status_code == 400
    assert owner.get(f"/matches/{running.pk}/live/?seat=-1").status_code == 400
    page = owner.get(f"/matches/{running.pk}/").content.decode()
    assert "data-live-seat" in page and 'value="0"' in page and 'value="1"' not in page
    assert "data-live-seat" not in other.get(f"/matches/{running.pk}/").content.decode()


def test_a_web_process_serves_at_most_its_cap_of_live_streams_then_says_when_to_come_back(running, anon):
    """Each live stream holds a server thread: beyond the process's cap (settings.ARENA_LIVE_STREAMS) a watcher
    is told 503 with Retry-After (EventSource tries again) and the process's pages keep their threads."""
    from web import watchers

    hub = watchers.hub()
    cap = hub.limit
    hub.limit = hub.count()
    try:
        resp = anon.get(f"/matches/{running.pk}/live/")
        assert resp.status_code == 503 and int(resp["Retry-After"]) > 0
        assert anon.get("/").status_code == 200  # the pages are served meanwhile
    finally:
        hub.limit = cap
    broadcast_game(running.pk, seed=9, limit=3)
    resp = anon.get(f"/matches/{running.pk}/live/")
    assert resp.status_code == 200 and b"event: end" in b"".join(resp.streaming_content)
    assert hub.count() == 0  # a stream that ended is no longer counted


def _deliveries(watcher, until, wait_s: float = 60.0) -> list:
    """The deliveries `watcher` gets until `until(all so far)` holds (a generous, clock-independent bound)."""
    import queue as queues

    got: list = []
    deadline = time.monotonic() + wait_s
    while not until(got):
        try:
            got.append(watcher.deliveries.get(timeout=max(0.1, deadline - time.monotonic())))
        except queues.Empty:
            raise AssertionError(f"no delivery within {wait_s} s; had {got}") from None
    return got


def test_the_reader_hands_every_watcher_the_same_bytes_for_a_fast_matchs_decisions_in_order(running):
    """A match publishing faster than the reader delivers: its watchers get the decisions gathered, in order,
    each once, as one block of bytes made once and shared (no per-watcher work beyond writing it)."""
    from matches import live
    from web import watchers

    hub = watchers.Hub(limit=10)
    stream = live.key(running.pk)
    first, missed_a = hub.subscribe(stream, "0", running.pk)
    second, missed_b = hub.subscribe(stream, "0", running.pk)
    assert missed_a.entries == missed_b.entries == ()
    states, _ = broadcast_game(running.pk, seed=11, limit=60)  # as fast as the engine goes: far over 20 a second

    def whole(got: list) -> bool:
        return bool(got) and got[-1].ended

    a, b = _deliveries(first, whole), _deliveries(second, whole)
    assert len(a) == len(b) and all(x.data is y.data for x, y in zip(a, b, strict=True))  # shared, not copied
    assert len(a) < len(states)  # gathered: fewer wake-ups than decisions
    frames = [e for d in a for e in events_of(d.data.decode())]
    assert [json.loads(f["data"])["index"] for f in frames if f["event"] == "frame"] == list(range(len(states)))
    assert frames[-1]["event"] == "end"
    ids = [f["id"] for f in frames]
    assert ids == sorted(ids, key=lambda i: tuple(map(int, i.split("-")))) and len(set(ids)) == len(ids)
    hub.unsubscribe(first)
    hub.unsubscribe(second)
    assert hub.count() == 0


def test_a_browser_ahead_of_the_reader_is_not_sent_again_what_it_had(running):
    """A browser resuming at an id this process's reader has not reached yet (it came from another process):
    the deliveries that follow hold entries it had; its stream sends only what follows them."""
    from matches import live
    from web import watch, watchers

    conn = live.client()
    stream = live.key(running.pk)
    ids = [conn.xadd(stream, {"frame": json.dumps({"index": i})}).decode() for i in range(9)]
    end = conn.xadd(stream, {"end": "1"}).decode()
    watcher = watchers.Watcher(stream, had=ids[3])  # as `Hub.subscribe` makes it when `after` is beyond its reader
    entries = conn.xrange(stream)
    watcher.deliveries.put(watchers.Delivery.of(entries[:5]))  # (the reader's deliveries: entries 0-4, then on)
    watcher.deliveries.put(watchers.Delivery.of(entries[5:]))
    body = b"".join(watch._stream(running.pk, "minos", None, False, (watcher, watchers.Delivery()), "en")).decode()
    events = events_of(body)
    assert [json.loads(e["data"])["index"] for e in events if e["event"] == "frame"] == [4, 5, 6, 7, 8]
    assert [e["id"] for e in events] == [*ids[4:], end] and events[-1]["event"] == "end"


@pytest.mark.django_db(transaction=True)
def test_the_reader_keeps_idle_streams_alive_renews_seat_marks_and_ends_a_match_over_without_saying_so():
    """Every tick the reader (not each watcher) sends a keep-alive to a stream with nothing new, renews a watched
    seat's mark, and tells the watchers `end` when the match is over in the database though its stream never
    said so (a lost worker's run), with one query for all its streams."""
    from matches import live
    from matches.models import Match
    from web import watchers

    match = Match.objects.create(kind=Match.Kind.CHALLENGE, rated=False, game="minos", params={"players": 2},
                                 seed=77, status=Match.Status.RUNNING)
    conn = live.client()
    asked: list[set[int]] = []

    def ended(ids: set[int]) -> set[int]:
        asked.append(set(ids))
        return watchers.ended_matches(ids)

    hub = watchers.Hub(limit=10, ended=ended, tick_s=0.3)
    mark = live.wanted_key(match.pk, 0)
    subscribed = hub.subscribe(live.key(match.pk, 0), "0", match.pk, wanted=mark)
    public = hub.subscribe(live.key(match.pk), "0", match.pk)
    assert subscribed is not None and public is not None and conn.get(mark) == b"1"
    watcher = subscribed[0]
    conn.delete(mark)
    _deliveries(watcher, lambda got: len(got) >= 2)  # two ticks idle: keep-alives
    assert all(d.data == watchers.KEEP_ALIVE.data and not d.ended for d in
               _deliveries(watcher, lambda got: len(got) >= 1))
    deadline = time.monotonic() + 60
    while conn.get(mark) is None and time.monotonic() < deadline:
        time.sleep(0.1)
    assert conn.get(mark) == b"1" and 0 < conn.ttl(mark) <= live.WANTED_S  # renewed by the reader
    assert asked and all(ids == {match.pk} for ids in asked)  # one query for both streams of the match
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FAILED)
    for w in (watcher, public[0]):
        got = _deliveries(w, lambda got: bool(got) and got[-1].ended)
        assert b"event: end" in got[-1].data
    assert hub.count() == 0
    conn.delete(mark)


def unchunked(raw: bytes) -> bytes:
    """An HTTP/1.1 chunked body's content (every chunk whole: a cut one fails)."""
    out, rest = [], raw
    while rest:
        size, _, rest = rest.partition(b"\r\n")
        n = int(size, 16)
        assert rest[n:n + 2] == b"\r\n", "a chunk is cut or misframed"
        out.append(rest[:n])
        rest = rest[n + 2:]
    return b"".join(out)


def test_the_reader_writes_a_caught_up_watchers_deliveries_to_its_socket_itself_framed_as_chunks(running):
    """Once a watcher is caught up, the reader sends each delivery on the client's socket itself (one send, no
    thread woken): the bytes are whole chunks holding every decision in order, and the watcher's thread is handed
    only the end."""
    import socket

    from matches import live
    from web import watchers

    hub = watchers.Hub(limit=5)
    subscribed = hub.subscribe(live.key(running.pk), "0", running.pk)
    assert subscribed is not None
    watcher, _missed = subscribed
    ours, theirs = socket.socketpair()
    assert hub.write_directly(watcher, ours)
    states, _ = broadcast_game(running.pk, seed=12, limit=30)
    handed = _deliveries(watcher, lambda got: bool(got) and got[-1].ended)
    assert len(handed) == 1 and not handed[0].data and not handed[0].raw  # only the end: the reader wrote the rest
    theirs.settimeout(5)
    raw = b""
    while not raw.endswith(b"event: end\ndata: {}\n\n\r\n"):
        raw += theirs.recv(1 << 20)
    events = events_of(unchunked(raw).decode())
    assert [json.loads(e["data"])["index"] for e in events if e["event"] == "frame"] == list(range(len(states)))
    assert events[-1]["event"] == "end"
    hub.unsubscribe(watcher)
    assert hub.count() == 0
    ours.close()
    theirs.close()


def test_a_watcher_whose_socket_fills_up_gets_the_rest_from_its_own_thread_in_order(running):
    """A browser that does not read: the reader writes what the socket takes, hands the watcher's thread the
    remainder of the chunk (`raw`) and the deliveries after; nothing is lost or repeated."""
    import socket

    from matches import live
    from web import watchers

    hub = watchers.Hub(limit=5)
    subscribed = hub.subscribe(live.key(running.pk), "0", running.pk)
    assert subscribed is not None
    watcher, _missed = subscribed
    ours, theirs = socket.socketpair()
    ours.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)  # (full after a few frames)
    assert hub.write_directly(watcher, ours)
    states, _ = broadcast_game(running.pk, seed=13, limit=60)
    handed = _deliveries(watcher, lambda got: bool(got) and got[-1].ended)
    assert handed[0].raw and watcher.sock is None  # the socket was full: the thread writes from there
    theirs.settimeout(5)
    raw = b""

    def drain() -> None:
        nonlocal raw
        try:
            while True:
                raw += theirs.recv(1 << 20)
        except TimeoutError:
            pass

    reader = __import__("threading").Thread(target=drain)
    reader.start()
    for d in handed:  # as web.watch's thread does: the remainder as it is, then each delivery as a chunk
        if d.raw:
            ours.sendall(d.raw)
        elif d.data:
            ours.sendall(d.chunk)
    reader.join()
    events = events_of(unchunked(raw).decode())
    assert [json.loads(e["data"])["index"] for e in events if e["event"] == "frame"] == list(range(len(states)))
    assert events[-1]["event"] == "end"
    hub.unsubscribe(watcher)
    ours.close()
    theirs.close()


@pytest.mark.django_db(transaction=True)
def test_under_gunicorn_as_deployed_every_watcher_gets_every_decision_in_order(tmp_path, settings):
    """gunicorn (gthread, as docker-compose runs it) serving three watchers of one match: each gets the whole
    stream, well framed (the reader writes the caught-up watchers' chunks itself), every decision in order, the
    end, and the response closes."""
    import http.client

    from django.db import connection
    from platform_helpers import gunicorn_serving

    from matches.models import Match

    match = Match.objects.create(kind=Match.Kind.CHALLENGE, rated=False, game="minos", params={"players": 2},
                                 seed=4343, status=Match.Status.RUNNING)
    db = connection.settings_dict
    env = {"DJANGO_SETTINGS_MODULE": "arena_site.settings", "ARENA_SECRET_KEY": "x", "ARENA_HTTPS": "0",
           "ARENA_ALLOWED_HOSTS": "127.0.0.1", "ARENA_VAR_DIR": str(tmp_path), "ARENA_LOG_LEVEL": "WARNING",
           "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}",
           "CELERY_BROKER_URL": settings.CELERY_BROKER_URL, "ARENA_CELERY_QUEUE": settings.CELERY_TASK_DEFAULT_QUEUE}
    with gunicorn_serving(env, "--worker-class", "gthread", "--threads", "8") as (port, _):
        watching = []
        for _ in range(3):
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
            conn.request("GET", f"/matches/{match.pk}/live/", headers={"Accept": "text/event-stream"})
            resp = conn.getresponse()
            assert resp.status == 200 and resp.getheader("Transfer-Encoding") == "chunked"
            assert resp.read1(100).startswith(b"retry:")  # the stream is under way
            watching.append(resp)
        states, _ = broadcast_game(match.pk, seed=14, limit=50, pause_s=0.02)
        for resp in watching:
            events = events_of(resp.read().decode())  # (http.client takes the chunks apart: a misframed one fails)
            assert [json.loads(e["data"])["index"] for e in events if e["event"] == "frame"] == \
                list(range(len(states)))
            assert events[-1]["event"] == "end"
