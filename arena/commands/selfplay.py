"""`arena selfplay GAME`: in-process games between built-in policies, for any registered game.

    arena selfplay thebes --players 4 --games 500 --seed 1 [--policy random|greedy ... one per seat] --json

Game i is seeded from (S, i) alone (`game_seed`), and each seat's policy RNG from (S, i, seat), so the same
command gives the same games and scores on every run. One JSON object (or a short text summary) is printed:
games, errors, seconds, decisions, mean score per seat, wins per seat (a seat ranked first, shared first places
count for each), and a digest of every game's scores for quick comparison between runs.

With `--replay-dir DIR`, each finished game is also written as `DIR/<game>-<seed>-<index>.replay.json.gz` (the
match replay format, seats named after their policies), to watch with `arena replay show` or check with
`arena replay verify`. The summary is the same with or without it; `seconds` excludes the writing.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

from arena import games
from arena import replay as replays
from arena.games.base import Action, Event
from arena.games.policy import play_game


def game_seed(seed: int, index: int) -> int:
    """The engine seed of game `index` of a run seeded `seed`: 64 bits of SHA-256, the same everywhere."""
    return int.from_bytes(hashlib.sha256(f"arena-selfplay:{seed}:{index}".encode()).digest()[:8], "big")


def policy_rng(seed: int, index: int, seat: int) -> random.Random:
    return random.Random(int.from_bytes(
        hashlib.sha256(f"arena-policy:{seed}:{index}:{seat}".encode()).digest()[:8], "big"))


def replay_name(game_name: str, seed: int, index: int) -> str:
    """The file name of game `index` of a run seeded `seed` under `--replay-dir`."""
    return f"{game_name}-{seed}-{index}{replays.SUFFIX}"


def run(game_name: str, players: int, n_games: int, seed: int, policy_names: list[str],
        params: dict[str, Any] | None = None, replay_dir: str | Path | None = None) -> dict[str, Any]:
    """Play `n_games` games and summarise them (the JSON that `--json` prints). With `replay_dir`, also write
    each finished game's replay there as `replay_name(game, seed, i)`; the summary does not change."""
    game = games.load(game_name, players=players, **(params or {}))
    available = games.policies(game_name)
    if not policy_names:
        policy_names = ["random"]
    if len(policy_names) == 1:
        policy_names = policy_names * players
    if len(policy_names) != players:
        raise ValueError(f"give one --policy for all seats or one per seat ({players}), not {len(policy_names)}")
    for name in policy_names:
        if name not in available:
            raise ValueError(f"{game_name} has no policy {name!r}; policies: {', '.join(sorted(available))}")
    policies = [available[name]() for name in policy_names]
    totals = [0.0] * players
    wins = [0] * players
    digest = hashlib.sha256()
    errors: list[str] = []
    decisions = 0
    finished = 0
    writing = 0.0  # time spent writing replays, left out of `seconds` so throughput compares across runs
    names = [f"{name} (seat {seat})" for seat, name in enumerate(policy_names)]
    started = time.perf_counter()
    for i in range(n_games):
        rngs = [policy_rng(seed, i, seat) for seat in range(players)]
        recorded: list[dict[str, Any]] = []

        def record(seat: int, action: Action, events: list[Event],
                   recorded: list[dict[str, Any]] = recorded) -> None:
            recorded.append({"seat": seat, "action": str(action), "ms": 0.0, "fault": None, "events": events})

        try:
            state, n = play_game(game, game_seed(seed, i), policies, rngs,
                                 on_decision=record if replay_dir is not None else None)
        except Exception as exc:  # an engine bug: count it, report the first few, go on
            if len(errors) < 5:
                errors.append(f"game {i}: {type(exc).__name__}: {exc}")
            else:
                errors.append("")
            continue
        decisions += n
        finished += 1
        scores = state.scores()
        digest.update(json.dumps(scores).encode())
        for seat, (score, rank) in enumerate(zip(scores, state.ranking())):
            totals[seat] += score
            wins[seat] += rank == 1
        if replay_dir is not None:
            t = time.perf_counter()
            replays.write(Path(replay_dir) / replay_name(game_name, seed, i),
                          replays.of_played(game, game_seed(seed, i), state, recorded, names))
            writing += time.perf_counter() - t
    seconds = time.perf_counter() - started - writing
    return {
        "game": game_name,
        "params": game.params,
        "engine_version": game.engine_version,
        "seed": seed,
        "policies": policy_names,
        "games": finished,
        "errors": len(errors),
        "error_messages": [e for e in errors if e],
        "seconds": round(seconds, 3),
        "games_per_second": round(finished / seconds, 1) if seconds else None,
        "decisions": decisions,
        "mean_scores": [round(t / finished, 4) if finished else None for t in totals],
        "wins": wins,
        "scores_sha256": digest.hexdigest(),
    }


def parse_params(items: list[str]) -> dict[str, Any]:
    params: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep:
            raise ValueError(f"--param takes key=value, not {item!r}")
        try:
            params[key] = json.loads(value)
        except json.JSONDecodeError:
            params[key] = value
    return params


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("selfplay", help="play games between built-in policies in-process",
                              description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("game", choices=games.names())
    p.add_argument("--players", type=int, default=None, help="players per game (default: the game's minimum)")
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--policy", action="append", default=[], metavar="NAME",
                   help="policy for all seats, or repeat once per seat in seat order (default random)")
    p.add_argument("--param", action="append", default=[], metavar="KEY=VALUE", help="game option")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--replay-dir", metavar="DIR", default=None,
                   help="also write each game's replay as DIR/<game>-<seed>-<index>.replay.json.gz")
    p.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    players = args.players or games.game_class(args.game).min_players
    try:
        result = run(args.game, players, args.games, args.seed, args.policy, parse_params(args.param),
                     replay_dir=args.replay_dir)
    except ValueError as exc:
        print(f"arena selfplay: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(result))
    else:
        print(f"{result['games']} games of {args.game} ({players} players, {', '.join(result['policies'])}) "
              f"in {result['seconds']} s, {result['errors']} errors")
        for seat in range(players):
            print(f"  seat {seat} {result['policies'][seat]:>8}: mean score {result['mean_scores'][seat]}, "
                  f"wins {result['wins'][seat]}")
        for message in result["error_messages"]:
            print(f"  error: {message}")
    return 1 if result["errors"] else 0
