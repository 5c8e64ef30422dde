"""A seat played by a person (or anything outside the referee that is not a bot process): the `Person` interface.

The referee treats a person's seat as it treats a bot's, through the same messages: it sends the person's side
exactly the `StartMatchRequest`, `DecideRequest` and `EndMatchRequest` a bot in that seat would get (built by the
same `Encoder` from the same `State.observation(seat)`), under the same time control — a decision limit plus the
bank, forced decisions applied without asking, a timeout, an illegal or a malformed answer is a fault and the
referee's substitute move is played, more than `max_faults` faults disqualify. So what a person is shown can never
be more than what a bot in the seat would have been shown: the referee hands a `Person` nothing else.

A person's clock is the wall clock (less the referee's own stalls, `arena.match.stalls`): there is no process to
charge CPU to, and the time a person's answer spends on the network is theirs, as a bot's time in gRPC is its own.
A person who leaves simply stops answering: each decision times out (the bank is emptied by the first), and after
`max_faults + 1` faults the seat is disqualified and played to the end by substitute moves.

A person may resign (lichess's and BGA's "resign"): once `resigned()` says so, the referee records a `resigned`
fault and disqualifies the seat, exactly as a bot's seat over its fault limit — it ranks last (after every seat
still playing and the game's own opponents, `arena.match.ranking`), its remaining decisions are the referee's
substitute moves (never asked), and the match ends normally for the others. The referee asks `resigned()` of
every person still playing before each decision (so a resignation made on another seat's turn takes effect at
the next decision) and again when `decide` came back without an answer (so `decide` may return None early once
its person resigned, rather than wait out the clock). A resignation after the last decision changes nothing.
"""

from __future__ import annotations

from typing import Protocol

from arena.v1 import arena_pb2


class Person(Protocol):
    """The referee's side of a person's seat. Implementations carry the messages to the person and back (the
    platform: through Redis to a browser). None of the methods may raise for anything the person does."""

    def start(self, request: arena_pb2.StartMatchRequest) -> None:
        """The match begins; `request` is the StartMatch a bot in the seat would get."""

    def decide(self, request: arena_pb2.DecideRequest, wait_s: float) -> arena_pb2.DecideResponse | None:
        """Ask for a decision and wait up to `wait_s` seconds for it; None when no answer came in time."""

    def resigned(self) -> bool:
        """True once the person has resigned their seat (and from then on)."""

    def end(self, request: arena_pb2.EndMatchRequest) -> None:
        """The match is over; `request` is the EndMatch a bot in the seat would get."""
