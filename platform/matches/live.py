"""Live watching: what a running match shows spectators, decision by decision, through a Redis stream.

The worker playing a match appends one entry per decision to the stream `<queue>:live:<match id>` (Redis
streams keep the entries in order with ids that a reader resumes from, so a browser that reconnects with
`Last-Event-ID` gets every decision it missed, once); the web's event stream (`web.live`) reads it. Each entry
holds only the spectator's view (`State.public_observation`: what every seat knows), the decision's index and
the seat that decided, never an action's text (in Minos a decision can be secret until every seat committed;
its effects show in the later public views) nor a seat's own view. So nothing hidden reaches the stream while the
match runs; the full replay is shown once it is over.

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


def key(match_id: int) -> str:
    """The match's stream, under the site's queue name (sites or test runs sharing a Redis never mix)."""
    return f"{settings.CELERY_TASK_DEFAULT_QUEUE}:live:{match_id}"


def frame(decision: int, seat: int | None, state: Any) -> dict[str, Any]:
    """A stream entry's content: the public view after `decision` decisions (0: the start), made by `seat`."""
    return {"index": decision, "seat": seat, "to_move": state.current_player(),
            "observation": state.public_observation()}


class Broadcast:
    """The live stream of one run of one match. `start(state)` with the initial state, `decided(i, state)` after
    each decision (the referee's `progress`), `end()` when the run is over."""

    def __init__(self, match_id: int) -> None:
        self.match_id = match_id
        self.key = key(match_id)
        self.redis: redis.Redis | None = client()
        self.to_move: int | None = None

    def _add(self, fields: dict[str, str]) -> None:
        if self.redis is None:
            return
        try:
            self.redis.xadd(self.key, fields, maxlen=MAX_ENTRIES, approximate=True)  # type: ignore[arg-type]
        except (redis.RedisError, OSError) as exc:
            log.warning("match %s: live view not published (%s); the match goes on", self.match_id, exc)
            self.redis = None

    def start(self, state: Any) -> None:
        if self.redis is not None:
            try:
                self.redis.delete(self.key)  # a re-run (a worker lost) starts its story again
            except (redis.RedisError, OSError):
                pass
        self.to_move = state.current_player()
        self._add({"frame": json.dumps(frame(0, None, state), separators=(",", ":"))})

    def decided(self, decision: int, state: Any) -> None:
        actor, self.to_move = self.to_move, state.current_player()
        self._add({"frame": json.dumps(frame(decision + 1, actor, state), separators=(",", ":"))})

    def end(self) -> None:
        self._add({"end": "1"})
        if self.redis is not None:
            try:
                self.redis.expire(self.key, KEEP_S)
            except (redis.RedisError, OSError):
                pass


def read(match_id: int, after: str, block_ms: int, conn: redis.Redis) -> list[tuple[str, dict[str, str]]]:
    """Entries after stream id `after` ("0": from the start), waiting up to `block_ms` for one: [(id, fields)]."""
    got: Any = conn.xread({key(match_id): after}, count=200, block=block_ms)  # redis-py types it loosely
    out = []
    for _stream, entries in got or []:
        for entry_id, fields in entries:
            out.append((entry_id.decode(), {k.decode(): v.decode() for k, v in fields.items()}))
    return out
