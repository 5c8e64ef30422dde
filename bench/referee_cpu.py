"""The referee's own CPU per decision, pure vs compiled engines: what a match costs the worker besides the bots.

    python bench/referee_cpu.py [--matches 3] [--games thebes:4 minos:4]

Plays real sandboxed matches (`arena.match.run_match`, the built-in random bots: their thinking is their own
processes' CPU, not the referee's) in two child processes, one per engine (`ARENA_PURE=1` or not), alternating;
each child's CPU time (`time.process_time`: the referee's thread and the threads it starts, the gRPC client's
included) divided by the decisions played (`progress` calls). The engine's share of that work (legal actions,
apply, observations, replay) is what the compiled engines change; the protocol, sandbox and replay writing stay.
Noisy on a shared machine (the figure is CPU, not wall time, but caches and clocks are shared): compare the two
in one run.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_CHILD = r"""
import json, sys, tempfile, time
from arena import games
from arena.match import BotSpec, run_match
game, players, matches, bot = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
decisions = 0
def progress(k, state):
    global decisions
    decisions += 1
with tempfile.TemporaryDirectory() as tmp:
    started = time.process_time()
    for seed in range(matches):
        run_match(game, {"players": players}, seed, [BotSpec(bot)] * players, progress=progress,
                  replay_path=f"{tmp}/{seed}.replay.json.gz")
    cpu = time.process_time() - started
print(json.dumps({"engine": games.ENGINE, "decisions": decisions, "cpu_us_per_decision": round(cpu / decisions * 1e6, 1)}))
"""

BOTS = {"thebes": "bots/python/random", "minos": "bots/python/minos-random"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=3)
    parser.add_argument("--games", nargs="+", default=["thebes:4", "minos:4"])
    args = parser.parse_args()
    for spec in args.games:
        game, players = spec.split(":")
        out = {}
        for engine in ("pure", "compiled"):
            env = {k: v for k, v in os.environ.items() if k != "ARENA_PURE"}
            if engine == "pure":
                env["ARENA_PURE"] = "1"
            done = subprocess.run([sys.executable, "-c", _CHILD, game, players, str(args.matches),
                                   str(ROOT / BOTS[game])], cwd=ROOT, env=env, capture_output=True, text=True)
            if done.returncode != 0:
                raise SystemExit(done.stderr[-2000:])
            out[engine] = json.loads(done.stdout.strip().splitlines()[-1])
        ratio = out["pure"]["cpu_us_per_decision"] / out["compiled"]["cpu_us_per_decision"]
        print(json.dumps({"game": game, "players": int(players), "matches": args.matches, **out,
                          "pure_over_compiled": round(ratio, 2)}), flush=True)


if __name__ == "__main__":
    main()
