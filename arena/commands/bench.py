"""`arena bench GAME`: engine speed on one core, for any registered game.

    arena bench thebes --players 4 --games 1000 [--seed S] [--json]
    arena bench thebes --players 4 --games 1000 --compare [--rounds 3]   # pure vs compiled engines, side by side

Prints random-playout games/s, decisions per game (and how many had exactly one legal action: the ones a
forced-decision referee answers itself), the mean number of legal actions per decision, decisions/s (legal_actions + a uniform choice + apply, events included,
no observations), then the mean cost in µs of `clone()`, `apply()` and `legal_actions()` on a fresh (uncached)
state, measured on positions sampled from a second, untimed pass over the same playouts (every 7th position), so
the sampling costs the playout figures nothing. Rates are per second of this process's CPU time
(`time.process_time`), so other work on a shared machine does not count against the engine; the wall-clock
seconds (of the timed playouts) are printed too.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import subprocess
import sys
import time
from typing import Any

from arena import games
from arena.commands.selfplay import game_seed
from arena.games.base import Game

SAMPLE_EVERY = 7  # keep every 7th position of the playouts for the per-call timings
BATCH = 500


def _playouts(game: Game, n_games: int, seed: int, sample_every: int = 0) -> tuple[int, int, int, list]:
    """Random playouts of games seeded (seed, i) with choices from `random.Random(seed)`: (decisions, forced
    decisions (exactly one legal action), legal actions summed over the decisions, samples). With `sample_every`, every such position is kept (a clone,
    with the action then chosen); without, the loop does nothing but legal_actions + choice + apply. The same
    arguments give the same positions."""
    rng = random.Random(seed)
    samples = []
    decisions = forced = options = 0
    for i in range(n_games):
        state = game.new_state(game_seed(seed, i))
        while not state.is_terminal():
            legal = state.legal_actions()
            options += len(legal)
            if len(legal) == 1:
                forced += 1
            action = legal[rng.randrange(len(legal))]
            if sample_every and decisions % sample_every == 0:
                samples.append((state.clone(), action))
            state.apply(action)
            decisions += 1
    return decisions, forced, options, samples


def run(game_name: str, players: int, n_games: int, seed: int) -> dict[str, Any]:
    game = games.load(game_name, players=players)
    # the timed playouts keep nothing: holding thousands of cloned states would make the garbage collector
    # scan them all through the loop and bill that to the engine (2-4x on Minos)
    wall = time.perf_counter()
    started = time.process_time()
    decisions, forced, options, _ = _playouts(game, n_games, seed)
    playout = time.process_time() - started
    wall = time.perf_counter() - wall
    # a second, untimed pass over the same games keeps the positions for the per-call figures
    _, _, _, samples = _playouts(game, n_games, seed, SAMPLE_EVERY)
    t0 = time.process_time()
    for s, _ in samples:
        s.clone()
    clone_total = time.process_time() - t0
    clone_us = clone_total / len(samples) * 1e6
    # apply(): clone + apply over the samples, minus the clones; legal_actions(): on the fresh states after
    # those applies (nothing cached yet). Timed in batches (a clock read costs as much as a small call), with
    # the cyclic garbage collector paused so that holding a batch of states does not bill its scans to them.
    apply_total = legal_total = 0.0
    gc.disable()
    try:
        for start in range(0, len(samples), BATCH):
            batch = samples[start:start + BATCH]
            t0 = time.process_time()
            for s, _ in batch:
                s.clone()
            t1 = time.process_time()
            after = []
            for s, action in batch:
                c = s.clone()
                c.apply(action)
                after.append(c)
            t2 = time.process_time()
            for c in after:
                c.legal_actions()
            t3 = time.process_time()
            apply_total += (t2 - t1) - (t1 - t0)
            legal_total += t3 - t2
    finally:
        gc.enable()
    return {
        "game": game_name,
        "engine": games.ENGINE,  # compiled (mypyc) or pure (arena.games.native)
        "players": players,
        "games": n_games,
        "decisions": decisions,
        "cpu_seconds": round(playout, 3),
        "wall_seconds": round(wall, 3),
        "games_per_second": round(n_games / playout, 1),
        "decisions_per_second": round(decisions / playout),
        "decisions_per_game": round(decisions / n_games, 1),
        # decisions with exactly one legal action: the referee's forced-decision option answers them itself
        "forced_decisions_per_game": round(forced / n_games, 1),
        "forced_share": round(forced / decisions, 4) if decisions else 0.0,
        "legal_actions_per_decision": round(options / decisions, 2) if decisions else 0.0,
        "clone_us": round(clone_us, 2),
        "apply_us": round(apply_total / len(samples) * 1e6, 2),
        "legal_actions_us": round(legal_total / len(samples) * 1e6, 2),
        "samples": len(samples),
    }


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("bench", help="measure engine speed (random playouts, clone/apply costs)",
                              description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("game", choices=games.names())
    p.add_argument("--players", type=int, default=None, help="players per game (default: the game's maximum)")
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--compare", action="store_true",
                   help="run the same bench on the pure and the compiled engines (one child process each, "
                        "alternating --rounds times) and print the ratios")
    p.add_argument("--rounds", type=int, default=1, help="with --compare: runs per engine (the best counts)")
    p.set_defaults(func=main)


#: the figures --compare sets side by side: (key, label, True when more is better)
COMPARED = (("games_per_second", "games/s (random playouts)", True),
            ("decisions_per_second", "decisions/s", True),
            ("clone_us", "µs clone()", False),
            ("apply_us", "µs apply()", False),
            ("legal_actions_us", "µs legal_actions()", False))


def compare(game_name: str, players: int, n_games: int, seed: int, rounds: int = 1) -> dict[str, Any]:
    """The bench on the pure and on the compiled engines, each in its own process (`ARENA_PURE=1` or not),
    alternating so that a loaded machine's changes hit both alike; the best of `rounds` per engine and figure.
    Returns {"pure": result, "compiled": result, "speedup": {figure: compiled over pure}}. Raises RuntimeError
    when the compiled engine is not built (the child says so)."""
    best: dict[str, dict[str, Any]] = {}
    for _ in range(rounds):
        for engine in ("pure", "compiled"):
            env = dict(os.environ)
            env.pop("ARENA_PURE", None)
            if engine == "pure":
                env["ARENA_PURE"] = "1"
            argv = [sys.executable, "-m", "arena", "bench", game_name, "--players", str(players),
                    "--games", str(n_games), "--seed", str(seed), "--json"]
            done = subprocess.run(argv, env=env, capture_output=True, text=True, check=True)
            result = json.loads(done.stdout)
            if result["engine"] != engine:
                raise RuntimeError(f"the {engine} engine is not available: {done.stderr.strip()}")
            kept = best.get(engine)
            if kept is None:
                best[engine] = result
                continue
            for key, _, more_is_better in COMPARED:
                if (result[key] > kept[key]) == more_is_better:
                    kept[key] = result[key]
    speedup = {}
    for key, _, more_is_better in COMPARED:
        pure, compiled = best["pure"][key], best["compiled"][key]
        speedup[key] = round(compiled / pure if more_is_better else pure / compiled, 2)
    return {"game": game_name, "players": players, "games": n_games, "pure": best["pure"],
            "compiled": best["compiled"], "speedup": speedup}


def main(args: argparse.Namespace) -> int:
    players = args.players or games.game_class(args.game).max_players
    if args.compare:
        try:
            table = compare(args.game, players, args.games, args.seed, args.rounds)
        except RuntimeError as exc:
            print(f"arena bench --compare: {exc}", file=sys.stderr)
            return 1
        if args.json:
            print(json.dumps(table))
            return 0
        print(f"{args.game}, {players} players, {args.games} random playouts, pure vs compiled engines "
              f"(process CPU time):")
        print(f"  {'':28}{'pure':>12}{'compiled':>12}{'speed-up':>10}")
        for key, label, _ in COMPARED:
            print(f"  {label:28}{table['pure'][key]:>12}{table['compiled'][key]:>12}"
                  f"{table['speedup'][key]:>9}x")
        return 0
    result = run(args.game, players, args.games, args.seed)
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"{args.game}, {players} players, {result['games']} random playouts on one core:")
    print(f"  {result['games_per_second']:>10} games/s      ({result['decisions_per_game']} decisions per game)")
    print(f"  {result['forced_decisions_per_game']:>10} forced decisions per game (exactly one legal action: "
          f"{100 * result['forced_share']:.1f} % of decisions)")
    print(f"  {result['legal_actions_per_decision']:>10} legal actions per decision (mean)")
    print(f"  {result['decisions_per_second']:>10} decisions/s  (legal_actions + choice + apply)")
    print(f"  {result['clone_us']:>10} µs clone()")
    print(f"  {result['apply_us']:>10} µs apply()")
    print(f"  {result['legal_actions_us']:>10} µs legal_actions() on a fresh state")
    return 0
