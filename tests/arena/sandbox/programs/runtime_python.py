"""Report what the Python runtime offers inside the sandbox."""
import json
import sys

import google.protobuf
import grpc

import arena_bot

print("RESULT " + json.dumps({"executable": sys.executable, "prefix": sys.prefix, "grpc": grpc.__version__,
                              "protobuf": google.protobuf.__version__, "sdk": arena_bot.__file__}), flush=True)
