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

    def end(self, request: arena_pb2.EndMatchRequest) -> None:
        """The match is over; `request` is the EndMatch a bot in the seat would get."""
