"""The referee's side of one bot's gRPC connection: calls with deadlines, every failure turned into a fault kind.

The channel is created only once the bot's socket exists: created earlier, gRPC's reconnect backoff adds 20-90 ms
to the first call (measured, shared/design/sandbox.md).
"""

from __future__ import annotations

from typing import Any

import grpc
from google.protobuf.message import Message

from arena.match.types import FaultKind
from arena.v1 import arena_pb2_grpc

#: The largest answer a bot may send. A DecideResponse is a few bytes; anything near this is an attack.
MAX_ANSWER_BYTES = 64 * 1024


class CallFailed(Exception):
    """A call that gave no usable answer. `kind`: TIMEOUT, CRASH (the bot stopped serving) or MALFORMED."""

    def __init__(self, kind: FaultKind, message: str):
        super().__init__(message)
        self.kind = kind
        self.message = message


def _detail(err: grpc.RpcError) -> str:
    try:
        return (err.details() or "").strip()
    except Exception:  # a non-call RpcError
        return str(err)


class BotClient:
    def __init__(self, socket_path: str):
        self.channel = grpc.insecure_channel(f"unix:{socket_path}", options=[
            ("grpc.max_receive_message_length", MAX_ANSWER_BYTES),
            ("grpc.enable_retries", 0),
            ("grpc.enable_http_proxy", 0),
        ])
        self.stub = arena_pb2_grpc.BotStub(self.channel)

    def call(self, method: str, request: Message, timeout_s: float, *, wait_for_ready: bool = False) -> Any:
        """Call `Bot.<method>`; returns its answer or raises CallFailed."""
        try:
            return getattr(self.stub, method)(request, timeout=max(timeout_s, 0.001), wait_for_ready=wait_for_ready)
        except grpc.RpcError as err:
            raise _fault(method, err, timeout_s) from None

    def start(self, method: str, request: Message, timeout_s: float, *, wait_for_ready: bool = False) -> Any:
        """Start `Bot.<method>` without waiting: a grpc.Future (`answer` takes its result)."""
        return getattr(self.stub, method).future(request, timeout=max(timeout_s, 0.001),
                                                 wait_for_ready=wait_for_ready)

    @staticmethod
    def answer(method: str, future: Any, wait_s: float) -> Any:
        """The answer of a call `start`ed, waiting up to `wait_s`; raises grpc.FutureTimeoutError when it has not
        come yet, CallFailed when the call failed."""
        try:
            return future.result(timeout=wait_s)
        except grpc.RpcError as err:
            raise _fault(method, err, 0.0) from None

    def close(self) -> None:
        self.channel.close()


def _fault(method: str, err: grpc.RpcError, timeout_s: float) -> CallFailed:
    code = err.code() if hasattr(err, "code") else grpc.StatusCode.UNKNOWN
    detail = _detail(err)
    if code == grpc.StatusCode.DEADLINE_EXCEEDED:
        return CallFailed(FaultKind.TIMEOUT, f"no answer to {method} within {timeout_s * 1000:.0f} ms")
    if code == grpc.StatusCode.UNAVAILABLE:
        return CallFailed(FaultKind.CRASH, f"stopped serving during {method} ({detail or 'connection lost'})")
    if code == grpc.StatusCode.RESOURCE_EXHAUSTED:
        return CallFailed(FaultKind.MALFORMED,
                          f"answer to {method} too large (limit {MAX_ANSWER_BYTES} bytes): {detail}")
    if code == grpc.StatusCode.UNIMPLEMENTED:
        return CallFailed(FaultKind.MALFORMED, f"the bot does not implement Bot.{method} of arena.v1")
    if code == grpc.StatusCode.INTERNAL and "deserializ" in detail.lower():
        return CallFailed(FaultKind.MALFORMED, f"answer to {method} is not a valid {method}Response message")
    return CallFailed(FaultKind.MALFORMED, f"{method} failed with {code.name}: {detail[:300]}")
