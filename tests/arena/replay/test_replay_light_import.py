"""Reading a replay (the web viewer's path) loads neither the referee, nor the sandbox, nor gRPC: each costs
import time the viewer never needs (0.42 of 0.45 s before the split), and a viewer process has no business
holding the code that starts bots."""

from __future__ import annotations

import json
import subprocess
import sys

HEAVY = ["grpc", "arena.sandbox", "arena.match.referee", "arena.match.client", "arena.match.protocol",
         "arena.v1.arena_pb2"]

SCRIPT = """
import json, random, sys, tempfile
from pathlib import Path
import arena.replay as replays
from arena import games
from arena.games.policy import RandomPolicy

game = games.load("thebes", players=2)
replay = replays.of_selfplay(game, 7, [RandomPolicy(), RandomPolicy()], [random.Random(1), random.Random(2)],
                             ["a", "b"])
path = replays.write(Path(tempfile.mkdtemp()) / "m.replay.json.gz", replay)
loaded = replays.load(path)
replays.verify(loaded)
frames = replays.frames(loaded, seat=0) + replays.frames(loaded)
import arena.match  # the package's types, not its referee
print(json.dumps({"frames": len(frames), "loaded": sorted(m for m in %r if m in sys.modules)}))
"""


def test_reading_a_replay_imports_no_referee_sandbox_or_grpc():
    out = subprocess.run([sys.executable, "-c", SCRIPT % (HEAVY,)], capture_output=True, text=True, check=True)
    report = json.loads(out.stdout)
    assert report["frames"] > 2
    assert report["loaded"] == []


def test_run_match_is_still_importable_from_the_package():
    out = subprocess.run([sys.executable, "-c", "from arena.match import run_match; import sys; "
                          "print(run_match.__module__, 'grpc' in sys.modules)"],
                         capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["arena.match.referee", "True"]
