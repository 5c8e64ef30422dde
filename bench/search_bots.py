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
import multiprocessing
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
         stats: dict | None = None, iterations: int | None = None) -> list[int]:
    game = games.load(name, players=players)
    encoder = Encoder(game)
    greedy = games.policies(name)["greedy"]()
    bot = module.SearchBot(think, rollout_decisions, iterations)
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
            t, cpu = time.perf_counter(), time.process_time()
            choice = bot.decide(request)
            if stats is not None:
                stats["decisions"] += 1
                stats["iterations"] += bot.iterations
                stats["seconds"] += time.perf_counter() - t
                stats["cpu"] = stats.get("cpu", 0.0) + time.process_time() - cpu
            state.apply_text(choice) if isinstance(choice, str) else state.apply(legal[choice])
        else:
            obs = state.observation(seat) if greedy.needs_observation else None
            state.apply(legal[greedy.choose(obs, legal, rng)])
        k += 1
    return state.ranking()


SPLIT = [  # (what, file suffix, function names): where a search's time goes (cumulative, under the profiler)
    ("determinize (Sampler.sample)", "forward.py", {"sample"}),
    ("clone", "state.py", {"clone"}),
    ("legal actions", "state.py", {"legal_actions"}),
    ("step / apply", "state.py", {"step", "apply"}),
    ("rollout policy (Thebes heuristic)", "rollout.py", {"choose"}),
    ("tree: candidates by the heuristic", "search.py", {"candidates"}),
    ("rollout policy (Minos greedy scores)", "rollout.py", {"pick"}),
    ("rollouts in all (policy + step + legal)", "search.py", {"rollout"}),
    ("evaluation (rewards)", "search.py", {"rewards"}),
    ("ranking the decision's candidates", "search.py", {"root_candidates"}),
]


def print_split(table: pstats.Stats, searched: float) -> None:
    """Cumulative time of each part of the search as a share of the searched time (parts nest: the rollouts
    contain their legal actions and steps; recursive entries are counted once)."""
    total = sum(ct for (file, _line, name), (_cc, _nc, _tt, ct, _callers) in table.stats.items()  # type: ignore[attr-defined]
                if file.endswith("search.py") and name == "search")
    total = total or searched
    print("where the search's time goes (cumulative, parts nest):")
    for what, suffix, names in SPLIT:
        t = sum(ct for (file, _line, name), (_cc, _nc, _tt, ct, _callers) in table.stats.items()  # type: ignore[attr-defined]
                if file.endswith(suffix) and name in names)
        if t:
            print(f"  {what:42s} {t:7.2f} s  {100 * t / total:5.1f} %")


def interval(values: list[float]) -> tuple[float, float]:
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else float("inf")
    return mean, half


def elo(score: float) -> float:
    """The Elo difference a score implies (±inf for a clean sweep either way)."""
    if score >= 1:
        return math.inf
    if score <= 0:
        return -math.inf
    return -400 * math.log10(1 / score - 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=["thebes", "minos"])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--think", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rollout-decisions", type=int, default=None, help="Minos: rollout cut-off")
    parser.add_argument("--iterations", type=int, default=None,
                        help="a fixed number of rollouts a decision instead of --think (reproducible on any load)")
    parser.add_argument("--jobs", type=int, default=1, help="games played in parallel worker processes")
    parser.add_argument("--report-every", type=int, default=50, help="print the figures so far every N games")
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
    if args.speed:  # one game as it runs, then the same game under the profiler for the split
        stats = {"decisions": 0, "iterations": 0, "seconds": 0.0, "cpu": 0.0}
        play(args.game, args.players, args.seed, 0, args.think, module, args.rollout_decisions, stats,
             args.iterations)
        print(f"{stats['decisions']} searched decisions, {stats['iterations'] / stats['decisions']:.0f} iterations "
              f"a decision, {stats['iterations'] / stats['seconds']:.0f} iterations/s of wall time, "
              f"{stats['iterations'] / max(1e-9, stats['cpu']):.0f} per CPU second (the machine's load aside); "
              f"{stats['decisions'] / stats['cpu']:.1f} decisions per CPU second")
        stats = {"decisions": 0, "iterations": 0, "seconds": 0.0, "cpu": 0.0}
        profile = cProfile.Profile()
        profile.enable()
        play(args.game, args.players, args.seed, 0, args.think, module, args.rollout_decisions, stats,
             args.iterations)
        profile.disable()
        out = io.StringIO()
        table = pstats.Stats(profile, stream=out)
        print_split(table, stats["seconds"])
        table.sort_stats("tottime").print_stats(18)
        print(out.getvalue())
        return
    ranks, greedy_ranks, points, gaps = [], [], [], []
    started = time.time()
    stats = {"decisions": 0, "iterations": 0, "seconds": 0.0, "cpu": 0.0}
    budget = f"{args.iterations} rollouts" if args.iterations else f"{args.think}s"
    global _JOB
    _JOB = (args, module)
    if args.jobs > 1:  # forked workers inherit the module with its --set overrides
        pool = multiprocessing.get_context("fork").Pool(args.jobs)
        games_played = pool.imap(_one_game, range(args.games))  # in order: the same figures as one process
    else:
        games_played = map(_one_game, range(args.games))
    for g, (seat, ranking, game_stats) in enumerate(games_played):
        for key in stats:
            stats[key] += game_stats[key]
        ranks.append(ranking[seat])
        others = [r for s, r in enumerate(ranking) if s != seat]
        greedy_ranks.extend(others)
        gaps.append(ranking[seat] - statistics.fmean(others))
        if args.players == 2:
            points.append(1.0 if ranking[seat] < others[0] else 0.5 if ranking[seat] == others[0] else 0.0)
        elif args.players == 1:
            points.append(1.0 if ranking[seat] == 1 else 0.0)
        print(f"game {g + 1}: search seat {seat} rank {ranking[seat]} of {ranking}", file=sys.stderr)
        if (g + 1) % args.report_every == 0 or g + 1 == args.games:
            took = time.time() - started
            print(f"{args.game} {args.players}p, search {budget} vs greedy, {g + 1} games, {took:.0f} s, "
                  f"{stats['iterations'] / max(1, stats['decisions']):.0f} iterations a decision, "
                  f"{stats['iterations'] / max(1e-9, stats['seconds']):.0f} iterations/s of wall time, "
                  f"{stats['iterations'] / max(1e-9, stats['cpu']):.0f} per CPU second (the machine's load aside)")
            report(points, ranks, greedy_ranks, gaps, args.players)
            sys.stdout.flush()


_JOB: tuple = ()


def _one_game(g: int) -> tuple[int, list[int], dict]:
    """Game `g` of the run (its seed and the search's seat follow from g alone)."""
    args, module = _JOB
    seat = g % args.players
    stats = {"decisions": 0, "iterations": 0, "seconds": 0.0, "cpu": 0.0}
    ranking = play(args.game, args.players, args.seed + g, seat, args.think, module, args.rollout_decisions,
                   stats, args.iterations)
    return seat, ranking, stats


def wilson(points: list[float]) -> tuple[float, float]:
    """95 % Wilson score interval of a score (draws count a half): unlike the normal approximation it stays
    meaningful when the score is near 0 or 1 (a clean sweep still has a finite lower bound)."""
    n, p, z = len(points), statistics.fmean(points), 1.96
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def report(points: list[float], ranks: list[int], greedy_ranks: list[int], gaps: list[float], players: int) -> None:
    if points:
        mean, half = interval(points)
        low, high = wilson(points)
        print(f"score {mean:.3f} ({len(points)} games, {sum(points):g} points) -> Elo {elo(mean):+.0f}, 95 % "
              f"[{elo(low):+.0f}, {elo(high):+.0f}] (Wilson; normal approximation ± {half:.3f})")
    if players > 2:
        m, h = interval([float(r) for r in ranks])
        gm = statistics.fmean(greedy_ranks)
        d, dh = interval(gaps)
        print(f"mean rank: search {m:.2f} ± {h:.2f}, greedy seats {gm:.2f}; search minus the greedy seats' mean "
              f"in the same game {d:+.2f} ± {dh:.2f} (95 %, {len(ranks)} games; negative = search ranks better)")

if __name__ == "__main__":
    main()
