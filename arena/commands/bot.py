"""`arena bot check DIR [--game G] [--no-sandbox]`: validate a bot package and play a smoke match against
built-in bots, explaining any failure in plain words. Exit 0 when the bot is fine, 1 when it has problems."""

from __future__ import annotations

import argparse
import sys

from arena.botcheck import check_bot
from arena.sandbox import RuntimeMissing, SandboxUnavailable


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("bot", help="work with bot packages")
    actions = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    c = actions.add_parser("check", help="validate a bot and play a smoke match against built-in bots",
                           description=__doc__)
    c.add_argument("dir", help="the bot folder (holding bot.toml)")
    c.add_argument("--game", help="the game to check (default: the first in bot.toml)")
    c.add_argument("--seed", type=int, default=1, help="seed of the smoke match")
    c.add_argument("--no-sandbox", action="store_true", help="run the bot as a plain process (your own bot only)")
    c.set_defaults(func=run_check)


def run_check(args: argparse.Namespace) -> int:
    try:
        report = check_bot(args.dir, sandbox=not args.no_sandbox, game=args.game, seed=args.seed)
    except (SandboxUnavailable, RuntimeMissing) as exc:
        print(f"arena bot check: {exc}", file=sys.stderr)
        return 2
    print(report.log)
    if report.ok:
        print(f"OK: {args.dir} is ready to play")
        return 0
    print(f"\n{args.dir} has {len(report.problems)} problem(s):")
    for p in report.problems:
        print(f"- {p}")
    return 1
