"""The `arena` command: play, selfplay, bench, bot check, replay, runtimes.

A command loads what it uses: only the module of the command named on the command line is imported (the referee,
the sandbox and gRPC come with `play` and `bot`, not with `replay` or `selfplay`); all of them only when no known
command is named (`arena --help`, a typo), so that the help and the error list every command.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Iterable

from arena import __version__
from arena.commands import COMMANDS


def build_parser(commands: Iterable[str] = COMMANDS) -> argparse.ArgumentParser:
    """The parser of the `arena` command with the given subcommands (names in `COMMANDS`) registered."""
    parser = argparse.ArgumentParser(prog="arena", description="Arena: run board-game bots against each other.")
    parser.add_argument("--version", action="version", version=f"arena {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in commands:
        importlib.import_module(COMMANDS[name]).register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    # the top-level options take no value, so the first word that is not one is the command
    named = next((word for word in argv if not word.startswith("-")), None)
    args = build_parser([named] if named in COMMANDS else COMMANDS).parse_args(argv)
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
