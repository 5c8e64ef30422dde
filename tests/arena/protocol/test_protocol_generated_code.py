"""The committed generated code (arena/v1) is exactly what `python -m arena.protocol_gen` makes from
proto/arena/v1: CI fails when someone edits a .proto and forgets. It is the only copy: the kits get it (or the
.proto files) when the runtimes are built, never as committed copies of their own."""

from arena import protocol_gen


def test_generated_code_is_fresh():
    stale = protocol_gen.stale_files()
    assert stale == [], "run `python -m arena.protocol_gen`:\n" + "\n".join(stale)


def test_staleness_is_detected(tmp_path):
    protocol_gen.generate(tmp_path)
    assert protocol_gen.stale_files(tmp_path) == []
    (tmp_path / "arena/v1/arena_pb2.py").write_text("# edited by hand\n")
    (tmp_path / "arena/v1/old_pb2.py").write_text("")
    (tmp_path / "arena/v1/thebes_pb2.pyi").unlink()
    stale = protocol_gen.stale_files(tmp_path)
    assert "arena/v1/arena_pb2.py: differs" in stale
    assert "arena/v1/thebes_pb2.pyi: missing" in stale
    assert any(s.startswith("arena/v1/old_pb2.py: not generated") for s in stale)


def test_the_tree_keeps_one_copy_of_the_protocol():
    root = protocol_gen.ROOT
    copies = [p.relative_to(root) for pattern in ("bots/**/*.proto", "bots/**/*_pb2.py")
              for p in root.glob(pattern) if "node_modules" not in p.parts and "build" not in p.parts]
    assert copies == [], "the kits take proto/ and arena/v1 when the runtimes are built: remove these copies"


def test_generated_code_imports_as_documented():
    from arena.v1 import arena_pb2, arena_pb2_grpc, thebes_pb2

    assert arena_pb2.DESCRIPTOR.package == "arena.v1"
    assert hasattr(arena_pb2_grpc, "BotServicer") and hasattr(arena_pb2_grpc, "BotStub")
    assert arena_pb2.DecideRequest.DESCRIPTOR.fields_by_name["thebes"].message_type is \
        thebes_pb2.ThebesObservation.DESCRIPTOR
