"""The Python and Node greedy bots, served over gRPC in the sandbox, choose what the engine's in-process greedy
policy chooses in the same positions (so the built-in bots of every kit play the documented heuristic)."""

import random
from pathlib import Path

import pytest

from arena import games
from arena.botpkg import load_manifest
from arena.match.client import BotClient
from arena.match.protocol import Encoder
from arena.match.types import TimeControl
from arena.sandbox import SandboxLimits, launch

ROOT = Path(__file__).resolve().parents[2]


def _positions(players=3, seed=5, n=40):
    game = games.load("thebes", players=players)
    rng = random.Random(seed)
    out = []
    for s in range(4):
        state = game.new_state(seed + s)
        while not state.is_terminal():
            out.append(state.clone())
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
    rng.shuffle(out)
    return game, out[:n]


@pytest.mark.parametrize("kit", ["python", "node"])
def test_greedy_bot_matches_the_engine_policy(kit):
    folder = ROOT / "bots" / kit / "greedy"
    manifest = load_manifest(folder)
    game, positions = _positions()
    policy = games.policies("thebes")["greedy"]()
    encoder = Encoder(game)
    proc = launch(folder, list(manifest.command), manifest.sandbox_runtime, SandboxLimits())
    try:
        assert proc.wait_for_socket(10), proc.output_tail()
        client = BotClient(proc.socket_path)
        client.call("StartMatch", encoder.start(0, ["a", "b", "c"], 1, TimeControl()), 5, wait_for_ready=True)
        for i, state in enumerate(positions):
            seat = state.current_player()
            obs, legal = state.observation(seat), state.legal_actions()
            answer = client.call("Decide", encoder.decide(i, seat, obs, legal, 1000, 0), 5)
            expected = policy.choose(obs, legal, random.Random(0))
            assert answer.index == expected, f"position {i}: bot chose {legal[answer.index]}, policy {legal[expected]}"
        client.close()
    finally:
        proc.close()
