"""`arena bot check DIR [--game G] [--no-sandbox]`: validate a bot package and play a smoke match against
built-in bots, explaining any failure in plain words. Exit 0 when the bot is fine, 1 when it has problems.

`arena bot build DIR [--no-sandbox] [--timeout S]`: run the `build` command of bot.toml (sandboxed: no network,
only /usr and the bot's folder visible) so that the program `command` starts exists. Exit 0 when built, 1 when
the build failed (its last lines are printed)."""

from __future__ import annotations

import argparse
import sys

from arena import botbuild
from arena.botcheck import check_bot
from arena.botpkg import ManifestError
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
    b = actions.add_parser("build", help="build a binary bot from source (its bot.toml `build` command)",
                           description=__doc__)
    b.add_argument("dir", help="the bot folder (holding bot.toml)")
    b.add_argument("--timeout", type=float, default=botbuild.BUILD_TIMEOUT_S, help="seconds the build may take")
    b.add_argument("--no-sandbox", action="store_true", help="build as a plain process (your own bot only)")
    b.set_defaults(func=run_build)


def run_build(args: argparse.Namespace) -> int:
    try:
        result = botbuild.build(args.dir, sandbox=not args.no_sandbox, timeout=args.timeout)
    except (ManifestError, botbuild.BuildError) as exc:  # the bot's problems
        print(f"arena bot build: {exc}", file=sys.stderr)
        return 1
    except (SandboxUnavailable, RuntimeMissing) as exc:  # the host's: no sandbox, no build kit
        print(f"arena bot build: {exc}", file=sys.stderr)
        return 2
    tail = result.log.rstrip().splitlines()[-10:]
    print("\n".join(tail))
    print(f"OK: built {result.program} in {result.seconds:.1f} s ({result.copied} files written)")
    return 0


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
