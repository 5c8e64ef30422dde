"""The Node SDK as the runtime serves it: a bot sees every message exactly as @grpc/proto-loader would give it
(the runtime's protocol.json and module pack change how fast a bot starts, not what it gets), a bot's start
loads neither proto-loader nor the .proto files, and the SDK outside a built runtime still serves by parsing the
.proto files."""

import json
import shutil
import subprocess
from pathlib import Path

import grpc
import pytest

from arena import games
from arena.match.protocol import Encoder
from arena.match.types import TimeControl
from arena.sandbox import runtimes
from arena.v1 import arena_pb2, arena_pb2_grpc

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def node_runtime() -> Path:
    runtimes.install(("node",), log=lambda line: None)  # up to date unless the SDK changed meanwhile
    return runtimes.runtime_path("node")


def node(runtime: Path, script: str, *args: str, cwd: Path | None = None) -> str:
    done = subprocess.run(["node", "-e", script, *args], capture_output=True, text=True, timeout=60, cwd=cwd,
                          env={"PATH": "/usr/bin:/bin", "NODE_PATH": str(runtime / "node_modules")})
    assert done.returncode == 0, done.stderr
    return done.stdout


def thebes_requests(tmp_path: Path) -> Path:
    """Real Decide requests of 2- and 4-player Thebes games (typed observation, every legal action), and a
    StartMatch, serialized by the referee's own encoder into tmp_path."""
    out = tmp_path / "requests"
    out.mkdir()
    for players in (2, 4):
        game = games.load("thebes", players=players)
        state = game.new_state(7)
        encoder = Encoder(game)
        for i in range(6):
            seat = state.current_player()
            legal = state.legal_actions()
            request = encoder.decide(i, seat, state.observation(seat), legal, 1000, 9)
            (out / f"Decide-{players}-{i}.bin").write_bytes(request.SerializeToString())
            state.apply(legal[len(legal) // 2])
        start = encoder.start(1, [f"p{n}" for n in range(players)], 2**63 + 5, TimeControl())
        (out / f"StartMatch-{players}.bin").write_bytes(start.SerializeToString())
    return out


COMPARE = """
const fs = require('fs'), assert = require('assert'), path = require('path');
const grpc = require('@grpc/grpc-js'), protoLoader = require('@grpc/proto-loader');
const protocol = require('arena-bot/protocol');
// the messages the SDK documents: proto-loader parsing the .proto files with these options
const protos = path.join(path.dirname(require.resolve('arena-bot')), 'proto');
const reference = grpc.loadPackageDefinition(protoLoader.loadSync(path.join(protos, 'arena/v1/arena.proto'),
  { includeDirs: [protos], keepCase: true, longs: String, enums: String, defaults: true, oneofs: true })).arena.v1.Bot.service;
const served = protocol.botService().definition;     // what serve() uses
const dir = process.argv[1];
let n = 0;
for (const name of fs.readdirSync(dir)) {
  const method = name.split('-')[0], bytes = fs.readFileSync(`${dir}/${name}`);
  const expected = reference[method].requestDeserialize(bytes);
  assert.deepStrictEqual(served[method].requestDeserialize(bytes), expected);
  assert.deepStrictEqual(served[method].requestSerialize(expected), reference[method].requestSerialize(expected));
  n++;
}
for (const method of Object.keys(reference)) {
  for (const key of ['path', 'requestStream', 'responseStream', 'originalName']) {
    assert.strictEqual(served[method][key], reference[method][key]);
  }
  for (const answer of [{}, {index: 3}, {text: 'pass'}]) {
    assert.deepStrictEqual(served[method].responseSerialize(answer), reference[method].responseSerialize(answer));
  }
}
assert.deepStrictEqual(Object.keys(served).sort(), Object.keys(reference).sort());
console.log(n);
"""


def test_bot_sees_the_messages_proto_loader_makes(node_runtime, tmp_path):
    requests = thebes_requests(tmp_path)
    assert node(node_runtime, COMPARE, str(requests)).strip() == str(len(list(requests.iterdir())))


LOADED = """
const Module = require('module');
const { serve } = require('arena-bot');
serve({ decide: () => 0 }, process.argv[1]);
const files = Object.keys(Module._cache);
const packed = require('arena-bot/packed').load();
console.log(JSON.stringify({
  protoLoader: files.some((f) => f.includes('proto-loader')),
  protobufParser: files.some((f) => /protobufjs\\/src\\/(parse|tokenize)\\.js$/.test(f)),
  grpc: files.some((f) => f.endsWith('grpc-js/build/src/server.js')),
  packed: Boolean(packed), cacheRejected: packed ? packed.cacheRejected : null,
}));
process.exit(0);
"""


def test_a_start_loads_no_proto_parser_and_uses_the_pack(node_runtime, tmp_path):
    loaded = json.loads(node(node_runtime, LOADED, str(tmp_path / "bot.sock")))
    assert loaded == {"protoLoader": False, "protobufParser": False, "grpc": True, "packed": True,
                      "cacheRejected": False}


def test_sdk_outside_a_built_runtime_parses_the_protos(node_runtime, tmp_path):
    """A copy of the SDK without its build step's output (protocol.json, pack/) still serves a bot."""
    sdk = tmp_path / "node_modules" / "arena-bot"
    shutil.copytree(ROOT / "bots/node/sdk", sdk)
    shutil.copytree(ROOT / "proto", sdk / "proto")
    assert not (sdk / "protocol.json").exists() and not (sdk / "pack").exists()
    (tmp_path / "bot.js").write_text("require('arena-bot').run({ decide: (request) => request.legal_actions.length - 1 });\n")
    socket = tmp_path / "bot.sock"
    env = {"PATH": "/usr/bin:/bin", "NODE_PATH": f"{tmp_path / 'node_modules'}:{node_runtime / 'node_modules'}",
           "ARENA_SOCKET": str(socket)}
    proc = subprocess.Popen(["node", "bot.js"], cwd=tmp_path, env=env, stderr=subprocess.PIPE, text=True)
    try:
        with grpc.insecure_channel(f"unix:{socket}") as channel:
            stub = arena_pb2_grpc.BotStub(channel)
            stub.StartMatch(arena_pb2.StartMatchRequest(game="thebes", params_json="{}", seat=0), timeout=20,
                            wait_for_ready=True)
            legal = [arena_pb2.LegalAction(index=i, text=f"a{i}") for i in range(3)]
            assert stub.Decide(arena_pb2.DecideRequest(legal_actions=legal), timeout=5).index == 2
    finally:
        proc.kill()
        proc.wait()
    assert "Error" not in proc.stderr.read()
