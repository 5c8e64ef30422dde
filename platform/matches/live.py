"""Live watching: what a running match shows spectators, decision by decision, through a Redis stream.

The worker playing a match appends one entry per decision to the stream `<queue>:live:<match id>` (Redis
streams keep the entries in order with ids that a reader resumes from, so a browser that reconnects with
`Last-Event-ID` gets every decision it missed, once); the web's event stream (`web.watch`) reads it. Each entry
of this public stream holds only the spectator's view (`State.public_observation`: what every seat knows), the decision's index and
the seat that decided, never an action's text (in Minos a decision can be secret until every seat committed;
its effects show in the later public views) nor a seat's own view. So nothing hidden reaches the stream while the
match runs; the full replay is shown once it is over. Beside it, each seat has a stream of its own view
(`State.observation(seat)`, what the seat's bot was shown), which `web.watch` serves only to those who may play
that seat's bot (its owner, its team).

Publishing never fails a match: a Redis that does not answer costs the spectators their view, not the game
(`Broadcast` stops publishing after its first failure and logs it). The stream is capped at `MAX_ENTRIES` and
expires `KEEP_S` after the match's end.
"""

from __future__ import annotations

import json
import logging
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


def frame(decision: int, seat: int | None, state: Any, view: int | None = None) -> dict[str, Any]:
    """A stream entry's content: the public view (or seat `view`'s own) after `decision` decisions (0: the
    start), made by `seat`."""
    return {"index": decision, "seat": seat, "to_move": state.current_player(),
            "observation": state.public_observation() if view is None else state.observation(view)}


class Broadcast:
    """The live stream of one run of one match. `start(state)` with the initial state, `decided(i, state)` after
    each decision (the referee's `progress`), `end()` when the run is over."""

    def __init__(self, match_id: int) -> None:
        self.match_id = match_id
        self.key = key(match_id)
        self.redis: redis.Redis | None = client()
        self.to_move: int | None = None
        self.players = 0

    def _add(self, fields: dict[str, str], stream: str | None = None) -> None:
        if self.redis is None:
            return
        try:
            self.redis.xadd(stream or self.key, fields, maxlen=MAX_ENTRIES,  # type: ignore[arg-type]
                            approximate=True)
        except (redis.RedisError, OSError) as exc:
            log.warning("match %s: live view not published (%s); the match goes on", self.match_id, exc)
            self.redis = None

    def start(self, state: Any) -> None:
        self.players = state.game.players
        if self.redis is not None:
            try:  # a re-run (a worker lost) starts its story again
                self.redis.delete(self.key, *(key(self.match_id, s) for s in range(self.players)))
            except (redis.RedisError, OSError):
                pass
        self.to_move = state.current_player()
        self._publish(0, None, state)

    def decided(self, decision: int, state: Any) -> None:
        actor, self.to_move = self.to_move, state.current_player()
        self._publish(decision + 1, actor, state)

    def _publish(self, index: int, actor: int | None, state: Any) -> None:
        self._add({"frame": json.dumps(frame(index, actor, state), separators=(",", ":"))})
        for s in range(self.players):  # each seat's own view, for its owner (web.watch checks who asks)
            self._add({"frame": json.dumps(frame(index, actor, state, s), separators=(",", ":"))},
                      key(self.match_id, s))

    def end(self) -> None:
        streams = [self.key, *(key(self.match_id, s) for s in range(self.players))]
        for stream in streams:
            self._add({"end": "1"}, stream)
        if self.redis is not None:
            try:
                for stream in streams:
                    self.redis.expire(stream, KEEP_S)
            except (redis.RedisError, OSError):
                pass


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
