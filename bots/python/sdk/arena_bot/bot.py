"""The `Bot` base class and the server that runs it."""

from __future__ import annotations

import json
import os
import random
import signal
import sys
import traceback
from concurrent import futures
from typing import Any

import grpc

from arena.v1 import arena_pb2, arena_pb2_grpc


class Bot:
    """Override `decide`; optionally `start` and `end` (call super() in `start` to keep the attributes below).

    After StartMatch: `self.game` (e.g. "thebes"), `self.params` (dict, e.g. {"players": 4}), `self.seat`,
    `self.players` (names in seat order), `self.time_control`, and `self.rng`, a `random.Random` seeded by the
    referee's bot seed so a replayed match makes the same choices.

    Debugging: whatever the bot prints (stdout or stderr) is kept by decision and shown to its owner beside the
    turn in the replay viewer; `self.annotate(text)` inside `decide` attaches a short note (at most 256
    characters, e.g. the evaluation or plan) to this decision's answer (`DecideResponse.annotation`). An
    exception in `decide` prints its traceback (to the same log) before the referee counts the fault.
    """

    def __init__(self) -> None:
        self.game = ""
        self.params: dict[str, Any] = {}
        self.seat = -1
        self.players: list[str] = []
        self.time_control = None
        self.rng = random.Random(0)
        self._annotation = ""

    def annotate(self, text: str) -> None:
        """Attach `text` to the answer of the decision being decided (the last call wins; max 256
        characters, the referee cuts longer ones)."""
        self._annotation = str(text)[:256]

    def start(self, request: arena_pb2.StartMatchRequest) -> None:
        self.game = request.game
        self.params = json.loads(request.params_json or "{}")
        self.seat = request.seat
        self.players = [p.name for p in request.players]
        self.time_control = request.time_control
        self.rng = random.Random(request.bot_seed)

    def decide(self, request: arena_pb2.DecideRequest) -> int | str:
        """Return the index of a legal action in `request.legal_actions` (or its text)."""
        raise NotImplementedError

    def end(self, request: arena_pb2.EndMatchRequest) -> None:
        """The match is over: `request.seats` has every seat's score and rank."""


def observation_dict(request: arena_pb2.DecideRequest) -> dict[str, Any]:
    """The request's observation as a plain dict with the .proto's field names (slower than the message)."""
    from google.protobuf import (
        json_format,  # imported here: it costs ~15 ms of every bot's start
    )

    which = request.WhichOneof("observation")
    if which is None:
        return {}
    return json_format.MessageToDict(getattr(request, which), preserving_proto_field_name=True,
                                     always_print_fields_with_no_presence=True)


class _Servicer(arena_pb2_grpc.BotServicer):
    def __init__(self, bot: Bot):
        self.bot = bot

    def StartMatch(self, request, context):
        self.bot.start(request)
        return arena_pb2.StartMatchResponse()

    def Decide(self, request, context):
        self.bot._annotation = ""
        try:
            choice = self.bot.decide(request)
        except Exception as exc:
            # gRPC would answer only "Exception calling application: <message>": print where it happened
            traceback.print_exc()
            sys.stderr.flush()
            context.abort(grpc.StatusCode.UNKNOWN,
                          f"decide raised {type(exc).__name__}: {exc} (the traceback is in the bot's log)"[:500])
        # set only when given: a bot may bring its own arena.v1 made from an older .proto without the field
        note = {"annotation": self.bot._annotation} if self.bot._annotation else {}
        if isinstance(choice, str):
            return arena_pb2.DecideResponse(text=choice, **note)
        if isinstance(choice, arena_pb2.LegalAction):
            return arena_pb2.DecideResponse(index=choice.index, **note)
        return arena_pb2.DecideResponse(index=int(choice), **note)

    def EndMatch(self, request, context):
        self.bot.end(request)
        return arena_pb2.EndMatchResponse()


def serve(bot: Bot, socket_path: str | None = None) -> grpc.Server:
    """Start serving `bot` on the unix socket (default: $ARENA_SOCKET); returns the started server."""
    path = socket_path or os.environ.get("ARENA_SOCKET")
    if not path:
        raise SystemExit("ARENA_SOCKET is not set: the referee starts a bot with the path of its socket there")
    # Two workers: the referee asks one question at a time; the second lets a new question in while a
    # timed-out answer is still being computed.
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=2))
    arena_pb2_grpc.add_BotServicer_to_server(_Servicer(bot), server)
    server.add_insecure_port(f"unix:{path}")
    server.start()
    return server


def run(bot: Bot, socket_path: str | None = None) -> None:
    """Serve `bot` until the referee stops the process."""
    server = serve(bot, socket_path)
    signal.signal(signal.SIGTERM, lambda *_: server.stop(0))
    try:
        server.wait_for_termination()
    except KeyboardInterrupt:
        server.stop(0)
    sys.exit(0)
