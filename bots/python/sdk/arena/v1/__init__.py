"""Generated gRPC/protobuf code of the Arena bot protocol (arena.v1), made by `python -m arena.protocol_gen`
from proto/arena/v1/*.proto. Do not edit: edit the .proto files and regenerate."""
