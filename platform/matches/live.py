"""Live watching: what a running match shows spectators, decision by decision, through a Redis stream.

The worker playing a match appends one entry per decision to the stream `<queue>:live:<match id>` (Redis
streams keep the entries in order with ids that a reader resumes from, so a browser that reconnects with
`Last-Event-ID` gets every decision it missed, once); the web's event stream (`web.watch`) reads it. Each entry
of this public stream holds only the spectator's view (`State.public_observation`: what every seat knows), the decision's index and
the seat that decided, and the decision told for the log (`story`, in every language) with each seat's score
for the chart (`scores`): told by the game's narrator, on the writer's thread (not the referee's), from what a
spectator may know of it
(`State.redact_decision` for viewer -1: a Minos decision secret until every seat committed is told as "chooses
which cards to keep (hidden in this view)"), as the finished replay tells it from that view. The worker keeps a
copy of the game (`Broadcast.recorded` is told each decision's record; the copy redacts it, then plays it) — never
the action's raw text nor a seat's own view. So nothing hidden reaches the stream while the
match runs; the full replay is shown once it is over. Beside it, each seat has a stream of its own view
(`State.observation(seat)`, what the seat's bot was shown), which `web.watch` serves only to those who may play
that seat's bot (its owner, its team); it is published only while someone watches it (`wanted_key`), from the
decision after they came (the referee's thread computes the views it publishes: ~1 ms each).

Publishing never fails a match: a Redis that does not answer costs the spectators their view, not the game
(`Broadcast` stops publishing after its first failure and logs it). The stream is capped at `MAX_ENTRIES` and
expires `KEEP_S` after the match's end.
"""

from __future__ import annotations

import json
import logging
import queue
import threading
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import redis
from django.conf import settings

log = logging.getLogger("arena.platform")

#: Entries a stream keeps (a long Minos game has about 1,500 decisions).
MAX_ENTRIES = 5000
#: How long a finished match's stream stays readable (a spectator's page reloads to the replay meanwhile).
KEEP_S = 600
#: Redis waits of the publisher: a stuck Redis costs each decision at most this.
TIMEOUT_S = 1.0


def client(timeout_s: float | None = TIMEOUT_S) -> redis.Redis:
    """A connection to the broker's Redis (the embedded one over its unix socket under `make up`)."""
    url = settings.CELERY_BROKER_URL
    if url.startswith("redis+socket://"):
        return redis.Redis(unix_socket_path=url.removeprefix("redis+socket://").split("?")[0],
                           socket_timeout=timeout_s, socket_connect_timeout=TIMEOUT_S)
    return redis.Redis.from_url(url, socket_timeout=timeout_s, socket_connect_timeout=TIMEOUT_S)


def key(match_id: int, seat: int | None = None) -> str:
    """The match's public stream, or one seat's (`seat`), under the site's queue name (sites or test runs sharing
    a Redis never mix)."""
    base = f"{settings.CELERY_TASK_DEFAULT_QUEUE}:live:{match_id}"
    return base if seat is None else f"{base}:seat:{seat}"


def wanted_key(match_id: int, seat: int) -> str:
    """Set (with a short expiry) while someone watches seat `seat`'s own view: only then is it published."""
    return key(match_id, seat) + ":wanted"


#: How long a seat's view stays published after its watcher last said it watches (web.watch renews it).
WANTED_S = 30
#: How often the writer thread looks which seats' views are watched.
WANTED_EVERY_S = 1.0


def frame(decision: int, seat: int | None, state: Any, view: int | None = None) -> dict[str, Any]:
    """A stream entry's content: the public view (or seat `view`'s own) after `decision` decisions (0: the
    start), made by `seat`."""
    return {"index": decision, "seat": seat, "to_move": state.current_player(),
            "observation": state.public_observation() if view is None else state.observation(view)}


@dataclass(frozen=True)
class _Frames:
    """The views of one decision (`index`) the referee's thread made, and its record, to be told and written."""

    index: int
    views: list[int | None]
    frames: list[dict[str, Any]]
    record: dict[str, Any] | None


class Broadcast:
    """The live stream of one run of one match. `start(state)` with the initial state, `decided(i, state)` after
    each decision (the referee's `progress`), `end()` when the run is over."""

    def __init__(self, match_id: int, always: Iterable[int] = (), names: Sequence[str] = ()) -> None:
        self.match_id = match_id
        self.names = list(names)  # the seats' names, as the narration says them
        # the live narration (`recorded`): a copy of the game as it was before the decision being published (its
        # redaction of that decision for each view), each view's last observation and score parts
        self._mirror: Any = None
        self._record: tuple[int, dict[str, Any]] | None = None
        self._last: dict[int | None, tuple[int, dict[str, Any], list[dict[str, float]]]] = {}
        # seats whose own view is published from the start whoever watches: those people play (their page
        # draws their board from it; web.watch serves it to that person only)
        self.always = frozenset(always)
        self.key = key(match_id)
        self.redis: redis.Redis | None = client()
        self.to_move: int | None = None
        self.players = 0
        self.wanted: frozenset[int] = self.always  # the seats whose own view someone watches (`wanted_key`)
        self._looked = 0.0
        # the telling and the writes to Redis run on a thread of their own, in order: the referee's thread only
        # computes the views (the states change under it; the views are the state's copies), never tells a
        # decision nor waits for the network (bench/live_latency.py)
        self._outbox: queue.SimpleQueue[_Frames | tuple[list[tuple[str, dict[str, str]]], Sequence[str]] | None] \
            = queue.SimpleQueue()
        self._writer = threading.Thread(target=self._write, name=f"live-{match_id}", daemon=True)
        self._writer.start()

    def _add(self, entries: list[tuple[str, dict[str, str]]], expire: Sequence[str] = ()) -> None:
        """Queue `entries` ([(stream, fields)]) and the `expire` streams to expire, for one round trip."""
        if self.redis is not None:
            self._outbox.put((entries, expire))

    def _write(self) -> None:
        """The writer thread: everything queued so far in one round trip (it keeps up with any pace), in order,
        until `end`."""
        done = False
        while not done:
            batch = [self._outbox.get()]
            while not self._outbox.empty() and len(batch) < 500:
                batch.append(self._outbox.get())
            done = batch[-1] is None
            conn = self.redis
            if conn is None:
                continue  # after a failure: drained, not written
            try:
                pipe = conn.pipeline(transaction=False)
                for item in batch:
                    if item is None:
                        continue
                    entries, expire = (self._told(item), ()) if isinstance(item, _Frames) else item
                    for stream, fields in entries:
                        pipe.xadd(stream, fields, maxlen=MAX_ENTRIES, approximate=True)  # type: ignore[arg-type]
                    for stream in expire:
                        pipe.expire(stream, KEEP_S)
                if time.monotonic() - self._looked >= WANTED_EVERY_S:
                    self._looked = time.monotonic()
                    pipe.mget([wanted_key(self.match_id, s) for s in range(self.players)])
                answers = pipe.execute()
                if len(answers) and isinstance(answers[-1], list):
                    self.wanted = self.always | frozenset(s for s, v in enumerate(answers[-1]) if v)
            except (redis.RedisError, OSError) as exc:
                log.warning("match %s: live view not published (%s); the match goes on", self.match_id, exc)
                self.redis = None

    def start(self, state: Any) -> None:
        self.players = state.game.players
        conn = self.redis
        if conn is not None:
            try:  # a re-run (a worker lost) starts its story again
                conn.delete(self.key, *(key(self.match_id, s) for s in range(self.players)))
            except (redis.RedisError, OSError):
                pass
        self.to_move = state.current_player()
        self._mirror = state.clone()
        self._publish(0, None, state)

    def recorded(self, decision: int, record: dict[str, Any]) -> None:
        """The referee's record of decision `decision` (arena.match.referee's `on_decision`), told with the
        frame `decided` publishes next."""
        self._record = (decision, record)

    def decided(self, decision: int, state: Any) -> None:
        actor, self.to_move = self.to_move, state.current_player()
        self._publish(decision + 1, actor, state)

    def _publish(self, index: int, actor: int | None, state: Any) -> None:
        # the public view, and the own view of each seat someone watches (its owner: web.watch checks who asks)
        views: list[int | None] = [None, *sorted(self.wanted)]
        frames = [frame(index, actor, state, view) for view in views]
        record = self._record[1] if self._record is not None and self._record[0] == index - 1 else None
        self._record = None
        if self.redis is not None:
            self._outbox.put(_Frames(index, views, frames, record))

    def _told(self, item: _Frames) -> list[tuple[str, dict[str, str]]]:
        """The writer's thread: the frames of `item` told (`_narrate`) and made stream entries."""
        views, frames, record = item.views, item.frames, item.record
        if self._mirror is not None:
            try:
                for view, f in zip(views, frames, strict=True):
                    self._narrate(view, f, record)
                if record is not None and self._mirror is not None:
                    self._mirror.apply_text(record["action"])
            except Exception:  # the story is a courtesy: a narrator's bug costs the spectators it, never the match
                log.exception("match %s: the live narration stopped", self.match_id)
                self._mirror = None
        entries = [(self.key if view is None else key(self.match_id, view), f) for view, f in zip(views, frames)]
        return [(stream, {"frame": json.dumps(f, separators=(",", ":"))}) for stream, f in entries]

    def _narrate(self, view: int | None, published: dict[str, Any], record: dict[str, Any] | None) -> None:
        """Add to `published` (a frame of `view`: None is the spectators') its story in every language and each
        seat's score, told from what `view` may know of the decision (`State.redact_decision`, viewer -1 for the
        spectators), as its finished replay will tell it (`arena.replay.frames`, `arena.narration`)."""
        from arena import narration

        mirror = self._mirror
        observation = published["observation"]
        last = self._last.get(view)
        if last is not None and last[0] != published["index"] - 1:
            last = None  # a seat's view watched again after a pause: its last frame is not the one before
        if record is None and published["index"] > 0:
            self._mirror = None  # a decision it was not told of (a caller without `recorded`): no story from here
            return
        if record is None:
            told, parts = narration.live_turn(mirror.game.name, {"index": 0, "observation": observation}, None,
                                              None, self.names)
        else:
            actor, text, events, fault = record["seat"], record["action"], record["events"], record.get("fault")
            viewer = -1 if view is None else view
            if actor != viewer:
                text, events = mirror.redact_decision(actor, viewer, text, events)
                if text is None and fault:  # its message can quote the hidden answer
                    fault = {"kind": fault["kind"], "message": ""}
            before = last[1] if last is not None else (
                mirror.public_observation() if view is None else mirror.observation(view))
            told, parts = narration.live_turn(mirror.game.name, {
                "index": published["index"], "seat": actor, "action": text, "events": events, "fault": fault,
                "substitute": record.get("substitute"), "observation": observation},
                before, last[2] if last is not None else None, self.names)
        self._last[view] = (published["index"], observation, parts)
        published["story"] = told
        published["scores"] = [p.get("total", 0.0) for p in parts]

    def end(self, wait_s: float = 10.0) -> None:
        """The run is over: say so on every stream, and wait up to `wait_s` for the writes to be done."""
        streams = [self.key, *(key(self.match_id, s) for s in range(self.players))]
        self._add([(stream, {"end": "1"}) for stream in streams], expire=streams)
        self._outbox.put(None)
        self._writer.join(wait_s)
        conn = self.redis
        if conn is not None and not self._writer.is_alive():
            conn.close()  # the worker plays match after match: no connection left behind


def read(match_id: int, after: str, block_ms: int, conn: redis.Redis, seat: int | None = None
         ) -> list[tuple[str, dict[str, str]]]:
    """Entries of the public stream (or seat `seat`'s) after stream id `after` ("0": from the start), waiting up
    to `block_ms` for one: [(id, fields)]."""
    got: Any = conn.xread({key(match_id, seat): after}, count=200, block=block_ms)  # redis-py types it loosely
    out = []
    for _stream, entries in got or []:
        for entry_id, fields in entries:
            out.append((entry_id.decode(), {k.decode(): v.decode() for k, v in fields.items()}))
    return out
