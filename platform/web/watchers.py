"""The live streams' readers of one web process: one thread reads every watched match's stream from Redis (one
XREAD over all of them) and hands each entry to the watchers of that stream, each on a queue of its own.

A watcher per Redis connection (one blocking XREAD each) made 200 watchers cost ordinary pages several times
their time (bench/live_watchers.py); with one reader a process, a watcher's thread only waits on its queue. A
process serves at most `settings.ARENA_LIVE_STREAMS` streams at once (`subscribe` answers None beyond: the view
answers 503 with Retry-After), so the threads it has keep serving pages.

Order and resumption: `subscribe(stream, after)` registers the watcher at the reader's position `seen` in that
stream (every entry after it reaches the watcher's queue), and returns the entries between `after` and `seen`,
read once (XRANGE); the caller yields those first, then its queue's, skipping any it already gave (ids only
grow). A stream nobody watches any more is dropped from the reader's XREAD.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import redis
from django.conf import settings

from matches import live

log = logging.getLogger("arena.platform")

#: How long the reader's XREAD blocks (a stream watched for the first time waits at most this for its next entry).
BLOCK_MS = 200
#: A marker put on every queue when the reader lost Redis: the watchers end their response (the browser resumes).
LOST: tuple[str, dict[str, str]] = ("", {"lost": "1"})


#: The key of an entry's fields under which the reader puts the entry's server-sent event, ready to send.
SSE = "_sse"


def sse(name: str, data: str, entry_id: str | None = None) -> str:
    """One server-sent event."""
    head = f"id: {entry_id}\n" if entry_id else ""
    return f"{head}event: {name}\ndata: {data}\n\n"


@dataclass(eq=False)
class Watcher:
    """One watcher of one stream: its entries arrive on `entries` ((id, fields), or `LOST`)."""

    stream: str
    entries: queue.SimpleQueue[tuple[str, dict[str, str]]] = field(default_factory=queue.SimpleQueue)


def _newer(a: str, b: str) -> bool:
    """Stream id `a` is after `b` (ids "ms-seq"; "0" is before every entry)."""
    def parts(x: str) -> tuple[int, int]:
        ms, _, seq = x.partition("-")
        return int(ms or 0), int(seq or 0)
    return parts(a) > parts(b)


class Hub:
    """The reader of one process (`hub()`); `connect` makes its Redis connections."""

    def __init__(self, limit: int, connect: Callable[[float | None], redis.Redis] = live.client) -> None:
        self.limit = limit
        self._connect = connect
        self._lock = threading.Lock()
        self._watchers: dict[str, set[Watcher]] = {}
        self._seen: dict[str, str] = {}  # per stream, the id of the last entry handed out
        self._thread: threading.Thread | None = None

    def count(self) -> int:
        with self._lock:
            return sum(len(w) for w in self._watchers.values())

    def subscribe(self, stream: str, after: str) -> tuple[Watcher, list[tuple[str, dict[str, str]]]] | None:
        """Watch `stream` from after id `after`: the watcher and the entries it missed; None when the process
        serves `limit` streams already. Raises redis errors (the view answers that the view is unavailable)."""
        conn = self._connect(live.TIMEOUT_S * 5)
        try:
            with self._lock:
                if sum(len(w) for w in self._watchers.values()) >= self.limit:
                    return None
                known = self._seen.get(stream)
            if known is None:  # read by nobody yet: its newest entry is where the reader starts
                newest: Any = conn.xrevrange(stream, count=1)
                known = newest[0][0].decode() if newest else "0-0"
            watcher = Watcher(stream)
            with self._lock:
                if sum(len(w) for w in self._watchers.values()) >= self.limit:
                    return None
                seen = self._seen.setdefault(stream, known)
                self._watchers.setdefault(stream, set()).add(watcher)
                self._start()
            missed: list[tuple[str, dict[str, str]]] = []
            if _newer(seen, after):
                got: Any = conn.xrange(stream, min=after if after != "0" else "-", max=seen)
                missed = [(i.decode(), {k.decode(): v.decode() for k, v in f.items()}) for i, f in got
                          if _newer(i.decode(), after)]
            return watcher, missed
        except (redis.RedisError, OSError):
            self.unsubscribe_quietly(stream)
            raise
        finally:
            conn.close()

    def unsubscribe_quietly(self, stream: str) -> None:
        with self._lock:
            if not self._watchers.get(stream):
                self._watchers.pop(stream, None)
                self._seen.pop(stream, None)

    def unsubscribe(self, watcher: Watcher) -> None:
        with self._lock:
            mine = self._watchers.get(watcher.stream)
            if mine is not None:
                mine.discard(watcher)
                if not mine:
                    del self._watchers[watcher.stream]
                    self._seen.pop(watcher.stream, None)

    def _start(self) -> None:  # under the lock
        if self._thread is None or not self._thread.is_alive():
            self._thread = threading.Thread(target=self._read, name="live-hub", daemon=True)
            self._thread.start()

    def _read(self) -> None:
        conn: redis.Redis | None = None
        while True:
            with self._lock:
                if not self._watchers:
                    self._thread = None
                    break
                wanted = {stream: self._seen[stream] for stream in self._watchers}
            try:
                if conn is None:
                    conn = self._connect(BLOCK_MS / 1000 + live.TIMEOUT_S * 5)
                got: Any = conn.xread(wanted, count=500, block=BLOCK_MS)  # type: ignore[arg-type]
            except (redis.RedisError, OSError) as exc:
                log.warning("live streams: Redis read failed (%s); the watchers resume", exc)
                if conn is not None:
                    conn.close()
                conn = None
                with self._lock:
                    for watchers in self._watchers.values():
                        for w in watchers:
                            w.entries.put(LOST)
                    self._watchers.clear()
                    self._seen.clear()
                    self._thread = None
                break
            with self._lock:
                for raw_stream, entries in got or []:
                    stream = raw_stream.decode()
                    if stream not in self._watchers:
                        continue
                    for raw_id, fields in entries:
                        entry = (raw_id.decode(), {k.decode(): v.decode() for k, v in fields.items()})
                        if "frame" in entry[1]:  # the same bytes for every watcher: made once, here
                            entry[1][SSE] = sse("frame", entry[1]["frame"], entry[0])
                        self._seen[stream] = entry[0]
                        for w in self._watchers[stream]:
                            w.entries.put(entry)
        if conn is not None:
            conn.close()


_hub: Hub | None = None
_hub_lock = threading.Lock()


def hub() -> Hub:
    """This process's reader (made on first use; gunicorn forks before any request, so each process has its own)."""
    global _hub
    with _hub_lock:
        if _hub is None:
            _hub = Hub(settings.ARENA_LIVE_STREAMS)
        return _hub
