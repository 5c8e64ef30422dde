"""Two versions of the engines side by side in one run: an old checkout (e.g. main) against this one, each pure and
compiled — random playouts, clone, and the built-in search bots' rollouts per CPU second.

    git -C /work/main archive main arena bots | tar -x -C /tmp/engines-old     # the old version's arena/ and bots/
    python -c "import sys; sys.path.insert(0, '/tmp/engines-old'); from arena.games import native; native.build()"
    python bench/engine_versions.py --old /tmp/engines-old [--games 100] [--rollouts 300] [--rounds 2] [--json]

Each of the four engines (old pure, old compiled, new pure, new compiled) runs in its own child process whose
`arena` (and SDK, `bots/python/sdk`) is that checkout's, alternating for `--rounds` rounds so a loaded machine's
changes hit all alike; the best figure of each counts. Figures:

- `arena bench`'s random playouts (`arena.commands.bench.run`): games/s and µs per clone(), Thebes with four
  players and Minos with four (`--minos-players`);
- µs per clone() plus the clone's first apply() (an action of a random game), best of 5 passes over positions of
  30 random games: a clone that defers its copies to the first change is measured with what that change pays;
- search rollouts per CPU second: the built-in search bot's own `SearchBot.rollout` (its rollout policy: Thebes to
  the end of the game, Minos its 40 decisions) on a clone of positions from random games (the clone counted, as
  the search pays it), the same positions and seeds for every engine.

Ratios are printed against the old pure engines (the issue's "today's") and the old compiled ones. Rates are per
second of the child's CPU time (`time.process_time`); the machine's other work still slows caches and clocks, so
the ratios (measured in one run) are the figures to quote, not the rates.
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
import json, random, sys, time
root = sys.argv[1]
game_name, players, n_games, n_rollouts = sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
sys.path[:0] = [root, root + "/bots/python/sdk"]
import arena
assert arena.__file__.startswith(root), (arena.__file__, root)
from arena import games
from arena.commands import bench
from arena.v1 import arena_pb2
from arena_bot import search

out = {"engine": games.ENGINE}
figures = bench.run(game_name, players, n_games, 1)
out["games_per_second"] = figures["games_per_second"]
out["clone_us"] = figures["clone_us"]
# clone + the next apply, on positions of random games (what a rollout pays: a clone that defers copies until the
# first change must not just move the cost)
game = games.load(game_name, players=players)
pick = random.Random(11)
pairs = []
for seed in range(30):
    state = game.new_state(seed)
    while not state.is_terminal():
        legal = state.legal_actions()
        action = legal[pick.randrange(len(legal))]
        if pick.random() < 0.15:
            pairs.append((state.clone(), action))
        state.apply(action)
best = float("inf")
for _ in range(5):
    started = time.process_time()
    for state, action in pairs:
        state.clone().apply(action)
    best = min(best, time.process_time() - started)
out["clone_apply_us"] = round(best / len(pairs) * 1e6, 3)
bot = search.SearchBot(1.0)
bot.start(arena_pb2.StartMatchRequest(game=game_name, params_json=json.dumps({"players": players}), seat=0,
                                      bot_seed=1))
positions = []
pick = random.Random(7)
for seed in range(20):
    state = game.new_state(seed)
    for _ in range(pick.randrange(5, 80)):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply(legal[pick.randrange(len(legal))])
    if not state.is_terminal():
        positions.append(state)
started = time.process_time()
for i in range(n_rollouts):
    branch = positions[i % len(positions)].clone()
    bot.rollout(branch, random.Random(i))
out["rollouts_per_cpu_second"] = round(n_rollouts / (time.process_time() - started), 1)
print(json.dumps(out))
"""

FIGURES = (("games_per_second", "random playouts, games/s", True), ("clone_us", "clone(), µs", False),
           ("clone_apply_us", "clone() + apply(), µs", False),
           ("rollouts_per_cpu_second", "search rollouts per CPU s", True))
ENGINES = (("old", "pure"), ("old", "compiled"), ("new", "pure"), ("new", "compiled"))


def child(root: Path, engine: str, game: str, players: int, n_games: int, n_rollouts: int) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("ARENA_PURE", "PYTHONPATH")}
    if engine == "pure":
        env["ARENA_PURE"] = "1"
    done = subprocess.run([sys.executable, "-c", _CHILD, str(root), game, str(players), str(n_games),
                           str(n_rollouts)], cwd=root, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{root} ({engine}) failed:\n{done.stderr[-2000:]}")
    result = json.loads(done.stdout)
    if result["engine"] != engine:
        raise RuntimeError(f"{root}: the {engine} engine is not available: {done.stderr.strip()}")
    return result


def measure(old: Path, game: str, players: int, n_games: int, n_rollouts: int, rounds: int) -> dict:
    best: dict[str, dict] = {}
    for _ in range(rounds):
        for version, engine in ENGINES:
            result = child(old if version == "old" else ROOT, engine, game, players, n_games, n_rollouts)
            kept = best.setdefault(f"{version} {engine}", result)
            for key, _, more_is_better in FIGURES:
                if (result[key] > kept[key]) == more_is_better:
                    kept[key] = result[key]
    ratios: dict[str, dict[str, float]] = {}
    for base in ("old pure", "old compiled"):
        for key, _, more_is_better in FIGURES:
            a, b = best[base][key], best["new compiled"][key]
            ratios.setdefault(f"new compiled / {base}", {})[key] = round(b / a if more_is_better else a / b, 2)
    return {"game": game, "players": players, "games": n_games, "rollouts": n_rollouts, "figures": best,
            "ratios": ratios}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", type=Path, required=True, help="the old checkout (its arena/ and bots/, built)")
    parser.add_argument("--games", type=int, default=100, help="random playouts per engine and game")
    parser.add_argument("--rollouts", type=int, default=300, help="search rollouts per engine and game")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--minos-players", type=int, default=4)
    parser.add_argument("--game", choices=("thebes", "minos"), help="only this game (default: both)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    for game, players in (("thebes", 4), ("minos", args.minos_players)):
        if args.game and game != args.game:
            continue
        table = measure(args.old.resolve(), game, players, args.games, args.rollouts, args.rounds)
        if args.json:
            print(json.dumps(table), flush=True)
            continue
        print(f"{game}, {players} players ({args.games} playouts, {args.rollouts} rollouts, best of {args.rounds}):")
        print(f"  {'':28}" + "".join(f"{name:>14}" for name in table["figures"]) + f"{'× old pure':>12}"
              + f"{'× old comp.':>12}")
        for key, label, _ in FIGURES:
            print(f"  {label:28}" + "".join(f"{table['figures'][name][key]:>14}" for name in table["figures"])
                  + f"{table['ratios']['new compiled / old pure'][key]:>11}x"
                  + f"{table['ratios']['new compiled / old compiled'][key]:>11}x", flush=True)


if __name__ == "__main__":
    main()
