"""`arena tournament GAME --bot DIR --bot DIR ... [--players N] [--rounds R] [--gauntlet] [--jobs J] [--seed S]
[--out DIR] [--param KEY=VALUE] [--no-sandbox] [--json]`: a local tournament of bot folders, every match played
exactly as the platform plays it (sandboxed, any language), several at once.

Round robin (default): every set of N bots plays R deals, each deal once per seat rotation (same seed: seat and
luck cancel out); `--gauntlet`: the first --bot against every set of N - 1 of the others. `--jobs` matches run at
once (default: the machine's cores; each sandboxed bot gets one core at most and bots of one match take turns).
Every replay and its bot logs are kept in `--out` (default `./tournaments/<game>-<time>/`) beside
`results.json`; the table (games, wins, mean rank, mean score, Elo with its 95 % interval: arena.tournament) is
printed at the end. A void match (host trouble) is reported and left out of the table.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

from arena import games
from arena.commands.selfplay import game_seed, parse_params
from arena.tournament import elo_table, schedule


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("tournament", help="a local tournament of bot folders (sandboxed, in parallel)",
                              description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("game", help=f"the game: {', '.join(games.names())}")
    p.add_argument("--bot", action="append", required=True, metavar="DIR", help="a bot folder, once per bot")
    p.add_argument("--players", type=int, default=2, help="seats per game (default 2)")
    p.add_argument("--rounds", type=int, default=2, help="deals per set of bots (each played in every rotation)")
    p.add_argument("--gauntlet", action="store_true", help="the first --bot against the others only")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="matches at once (default: cores)")
    p.add_argument("--seed", type=int, help="the tournament's seed (default: random); deals derive from it")
    p.add_argument("--param", action="append", default=[], metavar="KEY=VALUE", help="a game option")
    p.add_argument("--out", metavar="DIR", help="where replays and results.json go")
    p.add_argument("--no-sandbox", action="store_true", help="plain processes: only your own bots")
    p.add_argument("--decision-ms", type=int, help="time per decision (ms; default the platform's)")
    p.add_argument("--bank-ms", type=int, help="time bank per match (ms)")
    p.add_argument("--json", action="store_true", help="print results.json instead of the table")
    p.set_defaults(func=run)


def _play(game: str, params: dict[str, Any], seed: int, bots: list[str], sandbox: bool, replay: str,
          tc: dict[str, Any]) -> dict[str, Any]:
    """One match in a worker process (the referee launches bots from the process's main thread)."""
    from arena.match import BotSpec, TimeControl, run_match

    result = run_match(game, params, seed, [BotSpec(path=b) for b in bots], time_control=TimeControl(**tc),
                       sandbox=sandbox, replay_path=replay)
    return result.to_json()


def run(args: argparse.Namespace) -> int:
    try:
        params = {**parse_params(args.param), "players": args.players}
        games.load(args.game, **params)
        pairings = schedule(len(args.bot), args.players, args.rounds, args.gauntlet)
    except ValueError as exc:
        print(f"arena tournament: {exc}", file=sys.stderr)
        return 2
    for b in args.bot:
        if not (Path(b) / "bot.toml").is_file():
            print(f"arena tournament: {b} is not a bot folder (no bot.toml)", file=sys.stderr)
            return 2
    seed = args.seed if args.seed is not None else secrets.randbits(63)
    out = Path(args.out or f"tournaments/{args.game}-{time.strftime('%Y%m%d-%H%M%S')}")
    (out / "replays").mkdir(parents=True, exist_ok=True)
    tc: dict[str, Any] = {k: v for k, v in (("decision_ms", args.decision_ms), ("bank_ms", args.bank_ms)) if v is not None}
    print(f"{args.game}: {len(args.bot)} bots, {len(pairings)} games, {args.jobs} at once, seed {seed}, "
          f"results in {out}", file=sys.stderr)
    records: list[dict[str, Any]] = []
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = {}
        for g in pairings:
            deal_seed = game_seed(seed, g.deal)
            replay = str(out / "replays" / f"{g.index:04d}-{deal_seed}.replay.json.gz")
            futures[pool.submit(_play, args.game, params, deal_seed, [args.bot[b] for b in g.bots],
                                not args.no_sandbox, replay, tc)] = g
        for done, future in enumerate(as_completed(futures), 1):
            g = futures[future]
            try:
                result = future.result()
            except Exception as exc:  # a host problem (no sandbox, no runtime): the whole tournament stops
                print(f"arena tournament: game {g.index}: {exc}", file=sys.stderr)
                pool.shutdown(cancel_futures=True)
                return 2
            records.append({"index": g.index, "deal": g.deal, "bots": list(g.bots), "result": result})
            status = result.get("void") or " ".join(f"{s['name']}:{s['rank']}" for s in result["seats"])
            print(f"  [{done}/{len(pairings)}] game {g.index}: {status}", file=sys.stderr)
    records.sort(key=lambda r: r["index"])
    summary = summarize(args.bot, records)
    doc = {"game": args.game, "params": params, "seed": seed, "bots": args.bot, "games": records, **summary}
    (out / "results.json").write_text(json.dumps(doc, indent=1) + "\n")
    print(json.dumps(doc) if args.json else table(summary))
    return 0


def summarize(bots: list[str], records: list[dict[str, Any]]) -> dict[str, Any]:
    """Per bot: games, wins (rank 1), mean rank, mean score, faults, Elo and its 95 % interval; void games."""
    played = [r for r in records if not r["result"].get("void")]
    rows = []
    ranked = [[(r["bots"][s["seat"]], s["rank"]) for s in r["result"]["seats"]] for r in played]
    elo = elo_table(len(bots), ranked)
    for i, folder in enumerate(bots):
        mine = [(s, r) for r in played for s in r["result"]["seats"] if r["bots"][s["seat"]] == i]
        n = len(mine)
        rows.append({"bot": folder, "name": mine[0][0]["name"] if mine else Path(folder).name, "games": n,
                     "wins": sum(s["rank"] == 1 for s, _ in mine),
                     "mean_rank": round(sum(s["rank"] for s, _ in mine) / n, 3) if n else None,
                     "mean_score": round(sum(s["score"] for s, _ in mine) / n, 2) if n else None,
                     "faults": sum(len(s["faults"]) for s, _ in mine),
                     "elo": round(elo[i][0], 1), "elo_low": round(elo[i][1], 1), "elo_high": round(elo[i][2], 1)})
    rows.sort(key=lambda r: -r["elo"])
    return {"table": rows, "void": [r["index"] for r in records if r["result"].get("void")]}


def table(summary: dict[str, Any]) -> str:
    head = ("bot", "games", "wins", "mean rank", "mean score", "faults", "Elo", "95% interval")
    rows = [head] + [(r["name"], str(r["games"]), str(r["wins"]), f"{r['mean_rank']}", f"{r['mean_score']}",
                      str(r["faults"]), f"{r['elo']:+.0f}", f"{r['elo_low']:+.0f} .. {r['elo_high']:+.0f}")
                     for r in summary["table"]]
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    lines = ["  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths)))
             for r in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    if summary["void"]:
        lines.append(f"void (host trouble, not counted): games {', '.join(map(str, summary['void']))}")
    return "\n".join(lines)
