"""Report what the Python runtime offers inside the sandbox."""
import json
import sys

import arena_bot
import google.protobuf
import grpc

from arena.v1 import arena_pb2

print("RESULT " + json.dumps({"executable": sys.executable, "prefix": sys.prefix, "grpc": grpc.__version__,
                              "protobuf": google.protobuf.__version__, "sdk": arena_bot.__file__,
                              "protocol": arena_pb2.__file__,
                              "decide_fields": sorted(arena_pb2.DecideRequest.DESCRIPTOR.fields_by_name)}),
      flush=True)
