"""`arena bot check` and `arena bot build`: the bot author's local tools (see CHECK_HELP and BUILD_HELP)."""

from __future__ import annotations

import argparse
import sys

from arena import botbuild
from arena.botcheck import check_bot
from arena.botpkg import ManifestError
from arena.match.types import TimeControl
from arena.sandbox import RuntimeMissing, SandboxUnavailable

CHECK_HELP = """Validate a bot package exactly as the platform validates an upload, and play a smoke match against
built-in bots (a solo game: against the game's own automated opponent), explaining any failure in plain words.

PATH is the bot folder (holding bot.toml) or an archive of it (.zip or .tar.gz, bot.toml at its root or in one
top folder), unpacked as the platform unpacks uploads. A `binary` bot whose program is missing or older than its
sources is built first (as `arena bot build`). Warnings (e.g. a first decision that ate most of the time bank) do
not fail the check. To see what your bot printed on each turn, play a match with `arena play --logs DIR`.

Exit 0 when the bot is fine, 1 when it has problems, 2 when this machine cannot check it (no sandbox)."""

BUILD_HELP = """Build a binary bot from source: run the `build` command of its bot.toml in the sandbox (no network;
only /usr, the build kit at /runtime and the bot's folder are visible; HOME and TMPDIR are a private /tmp), so that
the program `command` starts exists. bots/README.md (*The build environment*) lists the compilers and libraries.

Exit 0 when built, 1 when the build failed (its last lines are printed), 2 when this machine cannot build
(no sandbox, no build kit: `arena runtimes install`)."""


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("bot", help="work with bot packages")
    actions = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    c = actions.add_parser("check", help="validate a bot and play a smoke match against built-in bots",
                           description=CHECK_HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    c.add_argument("dir", metavar="PATH", help="the bot folder (holding bot.toml), or a .zip / .tar.gz of it")
    c.add_argument("--game", help="the game to check (default: the first in bot.toml)")
    c.add_argument("--seed", type=int, default=1, help="seed of the smoke match")
    c.add_argument("--no-sandbox", action="store_true", help="run the bot as a plain process (your own bot only)")
    c.add_argument("--startup-ms", type=int, default=TimeControl().startup_ms,
                   help="time for the bot to start, on its clock (ms; default the platform's, "
                        f"{TimeControl().startup_ms}): bots/README.md, 'Time and faults'")
    c.set_defaults(func=run_check)
    b = actions.add_parser("build", help="build a binary bot from source (its bot.toml `build` command)",
                           description=BUILD_HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
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
        report = check_bot(args.dir, sandbox=not args.no_sandbox, game=args.game, seed=args.seed,
                           time_control=TimeControl(startup_ms=args.startup_ms))
    except (SandboxUnavailable, RuntimeMissing) as exc:
        print(f"arena bot check: {exc}", file=sys.stderr)
        return 2
    print(report.log)
    for w in report.warnings:
        print(f"warning: {w}", file=sys.stderr)
    if report.ok:
        print(f"OK: {args.dir} is ready to play")
        return 0
    print(f"\n{args.dir} has {len(report.problems)} problem(s):")
    for p in report.problems:
        print(f"- {p}")
    return 1
