"""The live streams' reader of one web process: one thread reads every watched match's stream from Redis (one
XREAD over all of them) and hands what it read to the watchers of that stream, each on a queue of its own.

A watcher costs its process one thread that sleeps on its queue, and per delivery one wake-up and one socket
write: the reader turns what one XREAD brought of a stream into one block of server-sent events, made once and
handed as the same bytes to every watcher of that stream (`Delivery.data`); it reads again no sooner than
`MIN_GAP_S` after a delivery, so a match played faster than that wakes its watchers at most 1/`MIN_GAP_S` times
a second, however many decisions a second it makes. Every `TICK_S` the reader, not each watcher, does the slow
chores: a keep-alive to the watchers of a stream that got nothing meanwhile (proxies close silent connections),
one database query for whether those streams' matches ended without saying so on the stream (a lost worker's
run: the watchers are told `end`), and renewing the "watched" marks of seats' own views (`live.wanted_key`).
Measured in bench/live_watchers.py. A process serves at most `settings.ARENA_LIVE_STREAMS` streams at once
(`subscribe` answers None beyond: the view answers 503 with Retry-After), so the threads it has keep serving
pages.

Order and resumption: `subscribe(stream, after)` registers the watcher at the reader's position `seen` in that
stream (every entry after it reaches the watcher's queue), and returns the entries between `after` and `seen`,
read once (XRANGE), as the first delivery; a browser ahead of this process's reader (`after` beyond `seen`: it
came from another process) is not given again what it had (`Watcher.had`).
"""

from __future__ import annotations

import functools
import logging
import queue
import socket
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import redis
from django.conf import settings

from matches import live

log = logging.getLogger("arena.platform")

#: How long the reader's XREAD blocks (a stream watched for the first time waits at most this for its next entry).
BLOCK_MS = 200
#: The least time between two deliveries of the reader: what a fast match's decisions are gathered over.
MIN_GAP_S = 0.05
#: How often the reader keeps idle streams alive, looks whether their matches ended, renews the seats' marks.
TICK_S = 10.0

Entry = tuple[str, dict[str, str]]


def sse(name: str, data: str, entry_id: str | None = None) -> str:
    """One server-sent event."""
    head = f"id: {entry_id}\n" if entry_id else ""
    return f"{head}event: {name}\ndata: {data}\n\n"


@dataclass(frozen=True)
class Delivery:
    """What a stream's watchers are handed at once: `entries` read in one go (ids growing), and `data`, their
    server-sent events as one block of bytes shared by every watcher — None when an entry needs each watcher's
    own work (a person's turn: `web.watch`). `ended`: the stream is over (its `end`, or the match found over);
    `lost`: the reader lost Redis (the watcher ends its response; the browser resumes)."""

    entries: tuple[Entry, ...] = ()
    data: bytes | None = b""
    ended: bool = False
    lost: bool = False
    #: bytes already framed for the socket (`Watcher.sock`), to be written as they are by the watcher's thread:
    #: what the reader could not write at once (the watcher's thread writes from then on)
    raw: bytes = b""

    @functools.cached_property
    def chunk(self) -> bytes:
        """`data` as one chunk of HTTP/1.1's chunked body (as gunicorn frames what a response yields)."""
        data = self.data or b""
        return b"%X\r\n%s\r\n" % (len(data), data) if data else b""

    @classmethod
    def of(cls, entries: Iterable[tuple[bytes | str, dict[Any, Any]]]) -> Delivery:
        """The delivery of stream entries as Redis gives them (ids and fields in bytes) or decoded."""
        told: list[Entry] = []
        blocks: list[bytes] | None = []
        ended = False
        for raw_id, fields in entries:
            entry_id = raw_id.decode() if isinstance(raw_id, bytes) else raw_id
            plain = {(k.decode() if isinstance(k, bytes) else k): (v.decode() if isinstance(v, bytes) else v)
                     for k, v in fields.items()}
            told.append((entry_id, plain))
            if "frame" in plain and blocks is not None:
                blocks.append(sse("frame", plain["frame"], entry_id).encode())
            elif "end" in plain:
                ended = True
                if blocks is not None:
                    blocks.append(sse("end", "{}", entry_id).encode())
                break  # (a re-run's entries after an end are not this run's)
            elif blocks is not None:
                blocks = None  # a turn: each watcher's own
        return cls(tuple(told), b"".join(blocks) if blocks is not None else None, ended)


KEEP_ALIVE = Delivery(data=b": keep-alive\n\n")
GONE = Delivery(lost=True)  # the browser went away (its socket refused a write)
LOST = Delivery(data=b": the live view is unavailable for now\n\n", lost=True)
ENDED = Delivery(data=sse("end", "{}").encode(), ended=True)


@dataclass(eq=False)
class Watcher:
    """One watcher of one stream: its deliveries arrive on `deliveries`. `had`: the id of the last entry the
    browser already had, when that is beyond what the reader had read (None otherwise): entries up to it are
    not sent again."""

    stream: str
    had: str | None = None
    deliveries: queue.SimpleQueue[Delivery] = field(default_factory=queue.SimpleQueue)
    #: the client's socket, once the reader writes the deliveries to it itself (`Hub.write_directly`): the
    #: watcher's thread then only waits for the end
    sock: socket.socket | None = None


def newer(a: str, b: str) -> bool:
    """Stream id `a` is after `b` (ids "ms-seq"; "0" is before every entry)."""
    def parts(x: str) -> tuple[int, int]:
        ms, _, seq = x.partition("-")
        return int(ms or 0), int(seq or 0)
    return parts(a) > parts(b)


def ended_matches(match_ids: set[int]) -> set[int]:
    """Of `match_ids`, those over (the reader's thread: its database connection is closed after)."""
    from django import db

    from matches.models import Match

    try:
        return set(Match.objects.filter(pk__in=match_ids, status__in=[
            Match.Status.FINISHED, Match.Status.FAILED, Match.Status.CANCELLED]).values_list("pk", flat=True))
    finally:
        db.connection.close()


@dataclass
class _Stream:
    """The reader's state of one watched stream."""

    match_id: int
    seen: str  # the id of the last entry handed out
    wanted: str | None  # the mark to renew while it is watched (a seat's own view), if any
    watchers: set[Watcher] = field(default_factory=set)
    fed: float = field(default_factory=time.monotonic)  # when its watchers were last handed something


class Hub:
    """The reader of one process (`hub()`); `connect` makes its Redis connections, `ended` says which matches
    are over, `tick_s` is how often it does its chores (`TICK_S`)."""

    def __init__(self, limit: int, connect: Callable[[float | None], redis.Redis] = live.client,
                 ended: Callable[[set[int]], set[int]] = ended_matches, tick_s: float = TICK_S) -> None:
        self.limit = limit
        self.tick_s = tick_s
        self._connect = connect
        self._ended = ended
        self._lock = threading.Lock()
        self._streams: dict[str, _Stream] = {}
        self._count = 0
        self._thread: threading.Thread | None = None
        self._shared: redis.Redis | None = None

    def redis(self) -> redis.Redis:
        """The process's shared client (a pool of connections) for short commands: subscribing, a person's turn."""
        with self._lock:
            if self._shared is None:
                self._shared = self._connect(live.TIMEOUT_S * 5)
            return self._shared

    def count(self) -> int:
        with self._lock:
            return self._count

    def subscribe(self, stream: str, after: str, match_id: int, wanted: str | None = None
                  ) -> tuple[Watcher, Delivery] | None:
        """Watch `stream` (of match `match_id`) from after id `after`: the watcher and the delivery of the entries
        it missed; None when the process serves `limit` streams already. `wanted`: a mark set now and renewed
        while the stream is watched. Raises redis errors (the view answers that the view is unavailable)."""
        conn = self.redis()
        watcher: Watcher | None = None
        with self._lock:
            if self._count >= self.limit:
                return None
            known = self._streams[stream].seen if stream in self._streams else None
        try:
            if wanted is not None:
                conn.set(wanted, "1", ex=live.WANTED_S)
            if known is None:  # read by nobody yet: its newest entry is where the reader starts
                newest: Any = conn.xrevrange(stream, count=1)
                known = newest[0][0].decode() if newest else "0-0"
            with self._lock:
                if self._count >= self.limit:
                    return None
                state = self._streams.setdefault(stream, _Stream(match_id, known, wanted))
                watcher = Watcher(stream, after if newer(after, state.seen) else None)
                state.watchers.add(watcher)
                self._count += 1
                seen = state.seen
                self._start()
            missed: Any = conn.xrange(stream, min=after if after != "0" else "-", max=seen) \
                if newer(seen, after) else []
        except (redis.RedisError, OSError):
            if watcher is not None:  # (it will not be served: not counted either)
                self.unsubscribe(watcher)
            raise
        return watcher, Delivery.of((i, f) for i, f in missed if newer(i.decode(), after))

    def unsubscribe(self, watcher: Watcher) -> None:
        with self._lock:
            state = self._streams.get(watcher.stream)
            if state is not None and watcher in state.watchers:
                state.watchers.discard(watcher)
                self._count -= 1
                if not state.watchers:
                    del self._streams[watcher.stream]

    def _start(self) -> None:  # under the lock
        if self._thread is None or not self._thread.is_alive():
            self._thread = threading.Thread(target=self._read, name="live-hub", daemon=True)
            self._thread.start()

    def write_directly(self, watcher: Watcher, sock: socket.socket) -> bool:
        """From now on the reader writes `watcher`'s deliveries to `sock` itself, framed as chunks of the response
        being sent on it (without waking the watcher's thread: one send a watcher a delivery, from one thread),
        unless deliveries wait on its queue (False: the thread hands those over first, then asks again). The
        thread is then handed only what ends the stream, or a `raw` remainder the reader could not write at once
        (it writes it, and the deliveries after, itself)."""
        with self._lock:
            if not watcher.deliveries.empty():
                return False
            watcher.sock = sock
            return True

    def _hand(self, state: _Stream, delivery: Delivery) -> None:  # under the lock
        state.fed = time.monotonic()
        for w in state.watchers:
            if w.sock is not None and delivery.data is not None:
                chunk = delivery.chunk
                try:
                    sent = w.sock.send(chunk, socket.MSG_DONTWAIT) if chunk else 0
                except BlockingIOError:
                    sent = 0
                except OSError:  # the browser went away
                    w.sock = None
                    w.deliveries.put(GONE)
                    continue
                if sent < len(chunk):  # a slow reader: its own thread writes, and waits, from here on
                    w.sock = None
                    w.deliveries.put(Delivery(data=None, raw=chunk[sent:], ended=delivery.ended,
                                              lost=delivery.lost))
                elif delivery.ended or delivery.lost:
                    w.deliveries.put(Delivery(ended=delivery.ended, lost=delivery.lost))  # (written: only the end)
                continue
            w.deliveries.put(delivery)

    def _read(self) -> None:
        conn: redis.Redis | None = None
        ticked = time.monotonic()
        delivered = 0.0
        try:
            while True:
                if time.monotonic() - ticked >= self.tick_s:
                    ticked = time.monotonic()
                    self._tick()
                if (rest := delivered + MIN_GAP_S - time.monotonic()) > 0:
                    time.sleep(rest)  # a fast match: what it publishes meanwhile is handed over at once
                with self._lock:
                    if not self._streams:
                        break
                    positions = {stream: state.seen for stream, state in self._streams.items()}
                if conn is None:
                    conn = self._connect(BLOCK_MS / 1000 + live.TIMEOUT_S * 5)
                got: Any = conn.xread(positions, count=500, block=BLOCK_MS)  # type: ignore[arg-type]
                if got:
                    delivered = time.monotonic()
                with self._lock:
                    for raw_stream, entries in got or []:
                        state = self._streams.get(raw_stream.decode())
                        if state is None or not entries:
                            continue
                        delivery = Delivery.of(entries)
                        state.seen = entries[-1][0].decode()
                        self._hand(state, delivery)
        except (redis.RedisError, OSError) as exc:
            log.warning("live streams: Redis read failed (%s); the watchers resume", exc)
            with self._lock:
                for state in self._streams.values():
                    for w in state.watchers:
                        w.deliveries.put(LOST)
                self._streams.clear()
                self._count = 0
        finally:
            with self._lock:
                self._thread = None
                if self._streams:  # (watchers came while it was leaving)
                    self._start()
            if conn is not None:
                conn.close()

    def _tick(self) -> None:
        """Keep the idle streams alive (or end those whose match is over) and renew the seats' marks."""
        now = time.monotonic()
        with self._lock:
            idle = {stream: state.match_id for stream, state in self._streams.items()
                    if now - state.fed >= self.tick_s}
            marks = [state.wanted for state in self._streams.values() if state.wanted]
        try:
            over = self._ended(set(idle.values())) if idle else set()
        except Exception:  # the database away: the streams go on (the browser resumes them at worst)
            log.exception("live streams: could not look whether the watched matches ended")
            over = set()
        if marks:
            pipe = self.redis().pipeline(transaction=False)
            for mark in marks:
                pipe.set(mark, "1", ex=live.WANTED_S)
            pipe.execute()
        with self._lock:
            for stream, match_id in idle.items():
                state = self._streams.get(stream)
                if state is None:
                    continue
                if match_id in over:
                    self._hand(state, ENDED)
                    self._count -= len(state.watchers)
                    del self._streams[stream]
                else:
                    self._hand(state, KEEP_ALIVE)


_hub: Hub | None = None
_hub_lock = threading.Lock()


def hub() -> Hub:
    """This process's reader (made on first use; gunicorn forks before any request, so each process has its own)."""
    global _hub
    with _hub_lock:
        if _hub is None:
            _hub = Hub(settings.ARENA_LIVE_STREAMS)
        return _hub
