"""A person's seat played from the browser: the bridge between the referee's `Person` (arena.match.person) and the
web, through Redis.

The worker side (`BrowserPerson`, given to `run_match(people=...)`) publishes, for each decision the referee asks
of the seat, the key `turn_key(match, seat)`: what the seat's DecideRequest holds (the decision's index, the
seat's observation, the legal actions with their texts and kinds, the clock) and the id of the user who plays the
seat; it also appends it to the seat's own live stream (`live.key(match, seat)`: the turn is pushed to the person's
page over server-sent events, `web.watch`); then it blocks on the Redis list `answer_key(match, seat)` for at most the decision's time (the referee's
`wait_s`: the decision limit plus the bank). The web side (`web.play`) shows the turn only to that user and pushes
onto the list only an answer that user sent for the current decision with an action of its legal list
(`accept`); anything else is refused there, and checked again here (an answer for another decision is dropped).

A person may resign (`resign`, from the web): the key `resign_key(match, seat)` is set once (a second resignation
is refused) and a wake-up is pushed onto the answer list, so a decision being waited for ends at once;
`BrowserPerson.resigned()` tells the referee, which puts the seat out (arena.match.person).

Nothing else reaches the person: the turn is built from the DecideRequest alone, which the referee builds for a
bot in that seat. A person who leaves lets every decision time out; the referee counts the faults and
disqualifies the seat, as a bot's.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass, field
from typing import Any

import redis
from django.conf import settings
from google.protobuf.json_format import MessageToDict

from arena.v1 import arena_pb2
from matches import live

_KIND = re.compile(r"[ :]")  # an action's kind is its text's first word (Thebes: spaces; Minos: colons)
#: How long a turn key outlives its decision's time (a page that asks late still learns the turn is over).
SLACK_S = 5


def _base(match_id: int, seat: int) -> str:
    return f"{settings.CELERY_TASK_DEFAULT_QUEUE}:play:{match_id}:{seat}"


def turn_key(match_id: int, seat: int) -> str:
    """The current decision asked of the person in `seat` (JSON, see `turn`); absent when none is asked."""
    return _base(match_id, seat) + ":turn"


def answer_key(match_id: int, seat: int) -> str:
    """The list the web pushes the person's answers onto: JSON {"decision": i, "index": j}."""
    return _base(match_id, seat) + ":answer"


def answered_key(match_id: int, seat: int, decision: int) -> str:
    """Set once an answer for `decision` was accepted: a second one is refused (a double click, a replayed post)."""
    return _base(match_id, seat) + f":answered:{decision}"


def resign_key(match_id: int, seat: int) -> str:
    """Set when the person in `seat` resigned (kept a day at most: the match's end deletes it)."""
    return _base(match_id, seat) + ":resigned"


#: How long a resignation is kept: longer than any match of people lasts (the match's end deletes it sooner).
RESIGN_KEEP_S = 24 * 3600


def turn(request: arena_pb2.DecideRequest, user_id: int, deadline: float) -> dict[str, Any]:
    """What the person is shown of `request`: its decision, seat, observation, legal actions (index, canonical
    text, kind: the text's first word) and clock, with the seat's user and the wall-clock deadline."""
    which = request.WhichOneof("observation")
    return {
        "user": user_id,
        "decision": request.decision,
        "seat": request.seat,
        "legal": [{"index": a.index, "text": a.text, "kind": _KIND.split(a.text, 1)[0]} for a in request.legal_actions],
        "observation": MessageToDict(getattr(request, which), preserving_proto_field_name=True) if which else {},
        "time_left": {"decision_ms": request.time_left.decision_ms, "bank_ms": request.time_left.bank_ms},
        "deadline": deadline,
    }


@dataclass
class BrowserPerson:
    """The referee's side of seat `seat` of match `match_id`, played by user `user_id` from the browser."""

    match_id: int
    seat: int
    user_id: int
    _resigned: bool = False
    _probe: redis.Redis | None = field(default=None, repr=False)  # asked before every decision: kept open

    def _conn(self, timeout_s: float | None = live.TIMEOUT_S) -> redis.Redis:
        return live.client(timeout_s)

    def start(self, request: arena_pb2.StartMatchRequest) -> None:
        conn = self._conn()
        try:  # a re-run (a worker lost) starts afresh: no turn, no answer of the lost run left
            conn.delete(turn_key(self.match_id, self.seat), answer_key(self.match_id, self.seat))
        except (redis.RedisError, OSError):
            pass
        finally:
            conn.close()

    def decide(self, request: arena_pb2.DecideRequest, wait_s: float) -> arena_pb2.DecideResponse | None:
        """Publish the turn, then wait up to `wait_s` for an answer to this decision; None if none came (the
        referee counts a timeout). Redis failing is the same as no answer: the match goes on."""
        deadline = time.time() + wait_s
        end = time.monotonic() + wait_s
        tkey, akey = turn_key(self.match_id, self.seat), answer_key(self.match_id, self.seat)
        conn = self._conn(timeout_s=None)
        try:
            if self._resigned_in(conn):
                return None  # never asked again: the referee puts the seat out
            asked = json.dumps(turn(request, self.user_id, deadline), separators=(",", ":"))
            pipe = conn.pipeline()
            pipe.delete(akey)
            pipe.set(tkey, asked, ex=max(1, int(wait_s) + SLACK_S))
            # pushed to the person's page on the seat's own live stream (web.watch serves it to them only);
            # the key above stays the truth a page asks for when it (re)connects
            pipe.xadd(live.key(self.match_id, self.seat), {"turn": asked}, maxlen=live.MAX_ENTRIES,
                      approximate=True)
            pipe.execute()
            while (left := end - time.monotonic()) > 0:
                got: Any = conn.blpop([akey], timeout=max(left, 0.01))
                if got is None:
                    break
                try:
                    answer = json.loads(got[1])
                    if answer.get("resign") and self._resigned_in(conn):
                        return None
                    if answer.get("decision") == request.decision and isinstance(answer.get("index"), int):
                        return arena_pb2.DecideResponse(index=answer["index"])
                except (ValueError, AttributeError):
                    pass  # the web checks answers; a bad one here is dropped and the wait goes on
            return None
        except (redis.RedisError, OSError):
            time.sleep(max(0.0, end - time.monotonic()))  # the person cannot answer: the decision times out
            return None
        finally:
            try:
                conn.delete(tkey)
            except (redis.RedisError, OSError):
                pass
            conn.close()

    def _resigned_in(self, conn: redis.Redis) -> bool:
        if not self._resigned:
            self._resigned = bool(conn.exists(resign_key(self.match_id, self.seat)))
        return self._resigned

    def resigned(self) -> bool:
        """Whether the person resigned (once seen, for good). Redis failing is not a resignation."""
        if self._resigned:
            return True
        if self._probe is None:
            self._probe = self._conn()
        try:
            return self._resigned_in(self._probe)
        except (redis.RedisError, OSError):
            return False

    def end(self, request: arena_pb2.EndMatchRequest) -> None:
        conn = self._conn()
        try:
            conn.delete(turn_key(self.match_id, self.seat), answer_key(self.match_id, self.seat),
                        resign_key(self.match_id, self.seat))
        except (redis.RedisError, OSError):
            pass
        finally:
            conn.close()
            if self._probe is not None:
                self._probe.close()
                self._probe = None


class Refused(Exception):
    """An answer the web does not pass on: `status` is the HTTP status to answer with, the message says why."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def current(match_id: int, seat: int, conn: redis.Redis) -> dict[str, Any] | None:
    """The decision now asked of `seat`, or None."""
    raw = conn.get(turn_key(match_id, seat))
    return json.loads(raw) if raw else None


def resign(match_id: int, seat: int, conn: redis.Redis) -> bool:
    """Record that the person in `seat` resigned and wake the decision they may be asked; False if they already
    had (nothing changes then). The caller checks that the user plays the seat and the match is not over."""
    if not conn.set(resign_key(match_id, seat), "1", nx=True, ex=RESIGN_KEEP_S):
        return False
    conn.rpush(answer_key(match_id, seat), json.dumps({"resign": True}))
    return True


def accept(match_id: int, seat: int, user_id: int, decision: Any, action: Any, conn: redis.Redis,
           messages: dict[str, str]) -> int:
    """Pass user `user_id`'s answer (`action`, a legal action's canonical text, for decision `decision`) to the
    worker; the chosen index. Raises `Refused` unless the seat is asked a decision now, the user plays it, the
    decision is the current one, not yet answered, and the action is one of its legal actions. `messages` holds
    the (translated) reasons: "not_asked", "not_yours", "stale", "illegal", "answered"."""
    now = current(match_id, seat, conn)
    if now is None:
        raise Refused(409, messages["not_asked"])
    if now["user"] != user_id:
        raise Refused(403, messages["not_yours"])
    if not isinstance(decision, int) or isinstance(decision, bool) or decision != now["decision"]:
        raise Refused(409, messages["stale"])
    index = next((a["index"] for a in now["legal"] if a["text"] == action), None) if isinstance(action, str) \
        else None
    if index is None:
        raise Refused(400, messages["illegal"])
    if not conn.set(answered_key(match_id, seat, decision), "1", nx=True, ex=max(1, int(now["deadline"]
                                                                                     - time.time()) + SLACK_S)):
        raise Refused(409, messages["answered"])
    conn.rpush(answer_key(match_id, seat), json.dumps({"decision": decision, "index": index}))
    return index
