"""Strength and speed of the search bot (bots/python/mcts-level*) against the greedy policies, in-process.

The search bot runs its real code (`SearchBot.decide` on the DecideRequest the referee would send, built with
the referee's `Encoder`), without the sandbox and gRPC around it; the opponents are the engines' in-process greedy
policies (`arena.games.<game>.policies.GreedyPolicy`, the same choices as bots/python/greedy and
bots/python/minos-greedy: tests/bots/test_greedy_bots_agree.py). Seats rotate game by game; every game has its
own seed, so a run is reproducible.

    python bench/search_bots.py thebes --players 2 --games 200 --think 0.1      # Elo over greedy, 95 % CI
    python bench/search_bots.py minos --players 4 --games 400 --think 0.1       # average rank vs greedy's, CI
    python bench/search_bots.py thebes --players 2 --speed                        # iterations/s, profile

Two-player results: score (win 1, tie 1/2) with its 95 % interval (normal approximation over games) and the
Elo difference it implies. Multi-player: the search seat's mean rank and the greedy seats' mean rank, each with
a 95 % interval. It is a benchmark: it takes minutes, is never a timed test, and on a loaded machine the search
gets fewer iterations per decision (the figures are for the machine they ran on).
"""

from __future__ import annotations

import argparse
import cProfile
import importlib.util
import io
import math
import pstats
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bots/python/sdk"))

from arena import games
from arena.match.protocol import Encoder
from arena.v1 import arena_pb2


def load_bot_class():
    """The search of the built-in bots (`arena_bot.search` of the Python SDK), imported from the checkout."""
    sys.path.insert(0, str(ROOT / "bots/python/sdk"))
    return importlib.import_module("arena_bot.search")


def play(name: str, players: int, seed: int, search_seat: int, think: float, module, rollout_decisions=None,
         stats: dict | None = None) -> list[int]:
    game = games.load(name, players=players)
    encoder = Encoder(game)
    greedy = games.policies(name)["greedy"]()
    bot = module.SearchBot(think, rollout_decisions)
    bot.start(arena_pb2.StartMatchRequest(game=name, params_json=f'{{"players": {players}}}', seat=search_seat,
                                          bot_seed=seed))
    rng = random.Random(seed)
    state = game.new_state(seed)
    k = 0
    while not state.is_terminal():
        seat = state.current_player()
        legal = state.legal_actions()
        if len(legal) == 1:
            state.apply(legal[0])
        elif seat == search_seat:
            request = encoder.decide(k, seat, state.observation(seat), legal, 1000, 10_000)
            t = time.perf_counter()
            choice = bot.decide(request)
            if stats is not None:
                stats["decisions"] += 1
                stats["iterations"] += bot.iterations
                stats["seconds"] += time.perf_counter() - t
            state.apply_text(choice) if isinstance(choice, str) else state.apply(legal[choice])
        else:
            obs = state.observation(seat) if greedy.needs_observation else None
            state.apply(legal[greedy.choose(obs, legal, rng)])
        k += 1
    return state.ranking()


def interval(values: list[float]) -> tuple[float, float]:
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else float("inf")
    return mean, half


def elo(score: float) -> float:
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400 * math.log10(1 / score - 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=["thebes", "minos"])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--think", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rollout-decisions", type=int, default=None, help="Minos: rollout cut-off")
    parser.add_argument("--speed", action="store_true", help="iterations per second and a profile, one game")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                        help="override one of the bot's tuning constants, e.g. --set THEBES_RANDOM_SHARE=0")
    args = parser.parse_args()
    module = load_bot_class()
    for assignment in args.set:
        key, _, value = assignment.partition("=")
        if not hasattr(module, key):
            parser.error(f"the bot has no constant {key}")
        setattr(module, key, type(getattr(module, key))(value))
    if args.speed:
        stats = {"decisions": 0, "iterations": 0, "seconds": 0.0}
        profile = cProfile.Profile()
        profile.enable()
        play(args.game, args.players, args.seed, 0, args.think, module, args.rollout_decisions, stats)
        profile.disable()
        print(f"{stats['decisions']} searched decisions, {stats['iterations'] / stats['decisions']:.0f} iterations "
              f"a decision, {stats['iterations'] / stats['seconds']:.0f} iterations/s")
        out = io.StringIO()
        pstats.Stats(profile, stream=out).sort_stats("tottime").print_stats(18)
        print(out.getvalue())
        return
    ranks, greedy_ranks, points = [], [], []
    started = time.time()
    stats = {"decisions": 0, "iterations": 0, "seconds": 0.0}
    for g in range(args.games):
        seat = g % args.players
        ranking = play(args.game, args.players, args.seed + g, seat, args.think, module, args.rollout_decisions,
                       stats)
        ranks.append(ranking[seat])
        others = [r for s, r in enumerate(ranking) if s != seat]
        greedy_ranks.extend(others)
        if args.players == 2:
            points.append(1.0 if ranking[seat] < others[0] else 0.5 if ranking[seat] == others[0] else 0.0)
        elif args.players == 1:
            points.append(1.0 if ranking[seat] == 1 else 0.0)
        print(f"game {g + 1}: search seat {seat} rank {ranking[seat]} of {ranking}", file=sys.stderr)
    took = time.time() - started
    print(f"{args.game} {args.players}p, search {args.think}s vs greedy, {args.games} games, {took:.0f} s, "
          f"{stats['iterations'] / max(1, stats['decisions']):.0f} iterations a decision, "
          f"{stats['iterations'] / max(1e-9, stats['seconds']):.0f} iterations/s")
    if points:
        mean, half = interval(points)
        print(f"score {mean:.3f} ± {half:.3f} (95 %) -> Elo {elo(mean):+.0f} "
              f"[{elo(mean - half):+.0f}, {elo(mean + half):+.0f}]")
    if args.players > 2:
        m, h = interval([float(r) for r in ranks])
        gm, gh = interval([float(r) for r in greedy_ranks])
        print(f"mean rank: search {m:.2f} ± {h:.2f}, greedy {gm:.2f} ± {gh:.2f} (95 %)")


if __name__ == "__main__":
    main()
