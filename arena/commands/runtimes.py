"""`arena runtimes install [--force] [--only python|node|cpp]`: build the bot runtimes under .runtime/ (fast and
silent when they are up to date)."""

from __future__ import annotations

import argparse
import sys

from arena.sandbox import runtimes


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("runtimes", help="manage the runtimes bots run (Python, Node) and build (C++) with")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    install = actions.add_parser("install", help="build .runtime/python, .runtime/node and .runtime/cpp (idempotent)")
    install.add_argument("--force", action="store_true", help="rebuild even when up to date")
    install.add_argument("--only", choices=runtimes.KINDS, action="append", help="build only this runtime")
    install.set_defaults(func=run_install)


def run_install(args: argparse.Namespace) -> int:
    kinds = tuple(args.only) if args.only else runtimes.KINDS
    try:
        result = runtimes.install(kinds, force=args.force, log=lambda line: print(line, flush=True))
    except RuntimeError as exc:
        print(f"arena runtimes install: {exc}", file=sys.stderr)
        return 1
    for kind, status in result.items():
        print(f"{kind}: {status} ({runtimes.runtime_path(kind)})")
    return 0
