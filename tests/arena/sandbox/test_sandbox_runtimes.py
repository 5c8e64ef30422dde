"""The runtimes bound at /runtime give a sandboxed bot grpcio + protobuf + the SDK with the referee's generated
arena.v1 (Python) or @grpc/grpc-js + the SDK with the .proto files of proto/ (Node), at the referee's own versions;
`arena runtimes install` does nothing when they are up to date."""

import shutil
import time
from importlib import metadata

import pytest
from sandbox_helpers import PROGRAMS, requires_sandbox, result_of

from arena.sandbox import RuntimeMissing, SandboxLimits, launch, runtimes
from arena.v1 import arena_pb2

pytestmark = [pytest.mark.sandbox, requires_sandbox]


def _installed(kind: str) -> None:
    if not (runtimes.runtime_path(kind) / runtimes.STAMP).exists():
        pytest.skip(f"the {kind} runtime is not built here: run `arena runtimes install` (make test does)")


def test_python_runtime_has_grpc_protobuf_and_sdk(make_bot_dir):
    _installed("python")
    bot = launch(make_bot_dir("runtime_python.py"), ["python", "bot.py"], "python", SandboxLimits())
    try:
        r = result_of(bot)
    finally:
        bot.close()
    assert r["prefix"] == "/runtime"
    assert r["executable"].startswith("/runtime/bin/")
    assert r["grpc"] == metadata.version("grpcio")
    assert r["protobuf"] == metadata.version("protobuf")
    assert r["sdk"].startswith("/runtime/lib/")
    assert r["protocol"].startswith("/runtime/lib/") and r["protocol"].endswith("/arena/v1/arena_pb2.py")
    assert r["decide_fields"] == sorted(arena_pb2.DecideRequest.DESCRIPTOR.fields_by_name)


def test_node_runtime_has_grpc_js_and_sdk(make_bot_dir, tmp_path):
    _installed("node")
    bot_dir = make_bot_dir()
    shutil.copy(PROGRAMS / "runtime_node.js", bot_dir / "bot.js")
    (bot_dir / "bot.js").chmod(0o644)
    bot = launch(bot_dir, ["node", "bot.js"], "node", SandboxLimits())
    try:
        r = result_of(bot)
    finally:
        bot.close()
    assert r == {"grpc": "function", "loader": "function", "sdk": "/runtime/node_modules/arena-bot/index.js",
                 "node_path": "/runtime/node_modules",
                 "protos": sorted(p.name for p in (runtimes.proto_dir() / "arena" / "v1").glob("*.proto"))}


def test_cpp_build_kit_is_the_kit_and_the_protocol():
    _installed("cpp")
    kit = runtimes.runtime_path("cpp")
    for name in ("arena.mk", "arena_bot.hpp"):
        assert (kit / name).read_bytes() == (runtimes.cpp_kit_dir() / name).read_bytes()
    protos = sorted((runtimes.proto_dir() / "arena" / "v1").glob("*.proto"))
    assert protos and [(kit / "proto/arena/v1" / p.name).read_bytes() for p in protos] == \
        [p.read_bytes() for p in protos]


def test_install_is_fast_when_up_to_date():
    for kind in runtimes.KINDS:
        _installed(kind)
    runtimes.install(log=lambda line: None)  # brings them up to date if a source changed meanwhile
    started = time.monotonic()
    assert runtimes.install(log=lambda line: None) == {"python": "up to date", "node": "up to date",
                                                       "cpp": "up to date"}
    assert time.monotonic() - started < 2.0


def test_missing_runtime_is_explained(make_bot_dir, tmp_path, monkeypatch):
    monkeypatch.setenv("ARENA_RUNTIME_DIR", str(tmp_path / "nowhere"))
    with pytest.raises(RuntimeMissing) as info:
        launch(make_bot_dir("runtime_python.py"), ["python", "bot.py"], "python", SandboxLimits())
    assert "run `arena runtimes install`" in str(info.value)
