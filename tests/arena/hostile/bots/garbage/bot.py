"""Hostile: serves the Bot service by hand and answers Decide with bytes that are no DecideResponse."""
import os
from concurrent import futures

import grpc

from arena.v1 import arena_pb2

handler = grpc.method_handlers_generic_handler("arena.v1.Bot", {
    "StartMatch": grpc.unary_unary_rpc_method_handler(
        lambda request, context: arena_pb2.StartMatchResponse(),
        request_deserializer=arena_pb2.StartMatchRequest.FromString,
        response_serializer=arena_pb2.StartMatchResponse.SerializeToString),
    "Decide": grpc.unary_unary_rpc_method_handler(
        lambda request, context: b"\xff\xff\xff\xff\x0f garbage, not a protobuf",
        request_deserializer=arena_pb2.DecideRequest.FromString, response_serializer=lambda b: b),
})
server = grpc.server(futures.ThreadPoolExecutor(max_workers=2))
server.add_generic_rpc_handlers((handler,))
server.add_insecure_port(f"unix:{os.environ['ARENA_SOCKET']}")
server.start()
server.wait_for_termination()
