"""Serves the Bot service by hand and answers Decide with bytes that are no DecideResponse."""
import os
from concurrent import futures

import grpc

from arena.v1 import arena_pb2


def start(request, context):
    return arena_pb2.StartMatchResponse()


def decide(request, context):
    return b"\xff\xff\xff\xff not a protobuf"


handler = grpc.method_handlers_generic_handler("arena.v1.Bot", {
    "StartMatch": grpc.unary_unary_rpc_method_handler(
        start, request_deserializer=arena_pb2.StartMatchRequest.FromString,
        response_serializer=arena_pb2.StartMatchResponse.SerializeToString),
    "Decide": grpc.unary_unary_rpc_method_handler(
        decide, request_deserializer=arena_pb2.DecideRequest.FromString, response_serializer=lambda b: b),
})
server = grpc.server(futures.ThreadPoolExecutor(max_workers=2))
server.add_generic_rpc_handlers((handler,))
server.add_insecure_port(f"unix:{os.environ['ARENA_SOCKET']}")
server.start()
server.wait_for_termination()
