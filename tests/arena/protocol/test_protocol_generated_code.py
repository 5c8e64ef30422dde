"""The committed generated code (arena/v1, the Python SDK's copy, the Node SDK's .proto files) is exactly what
`python -m arena.protocol_gen` makes from proto/arena/v1: CI fails when someone edits a .proto and forgets."""

from arena import protocol_gen


def test_generated_code_is_fresh():
    stale = protocol_gen.stale_files()
    assert stale == [], "run `python -m arena.protocol_gen`:\n" + "\n".join(stale)


def test_staleness_is_detected(tmp_path):
    protocol_gen.generate(tmp_path)
    assert protocol_gen.stale_files(tmp_path) == []
    (tmp_path / "arena/v1/arena_pb2.py").write_text("# edited by hand\n")
    (tmp_path / "bots/node/sdk/proto/arena/v1/old.proto").write_text("")
    stale = protocol_gen.stale_files(tmp_path)
    assert "arena/v1/arena_pb2.py: differs" in stale
    assert any(s.startswith("bots/node/sdk/proto/arena/v1/old.proto") for s in stale)


def test_generated_code_imports_as_documented():
    from arena.v1 import arena_pb2, arena_pb2_grpc, thebes_pb2

    assert arena_pb2.DESCRIPTOR.package == "arena.v1"
    assert hasattr(arena_pb2_grpc, "BotServicer") and hasattr(arena_pb2_grpc, "BotStub")
    assert arena_pb2.DecideRequest.DESCRIPTOR.fields_by_name["thebes"].message_type is \
        thebes_pb2.ThebesObservation.DESCRIPTOR
