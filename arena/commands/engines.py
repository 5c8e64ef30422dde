"""`arena engines build|status`: compile the game engines with mypyc (arena/games/native.py), or say which engine
an import of `arena.games` gets and why."""

from __future__ import annotations

import argparse
import sys


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("engines", help="build the compiled game engines (mypyc), or show which is used")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    build = actions.add_parser("build", help="compile arena/games' engine modules in place (make install runs it)")
    build.add_argument("--force", action="store_true", help="compile even when the build is up to date")
    build.set_defaults(func=run_build)
    status = actions.add_parser("status", help="print which engine `arena.games` loads: compiled or pure (why)")
    status.set_defaults(func=run_status)


def run_build(args: argparse.Namespace) -> int:
    from arena import games
    from arena.games import native

    # `make install` runs this before every lint and test: a build of these very sources that loads is kept
    if games.ENGINE == "compiled" and not args.force:
        print(f"the compiled engines are up to date ({native.GAMES_DIR})")
        return 0
    try:
        native.build(log=lambda line: print(line, flush=True))
    except RuntimeError as exc:
        print(f"arena engines build: {exc}\nThe pure-Python engines stay in use.", file=sys.stderr)
        return 1
    print(f"compiled {len(native.MODULES)} engine modules ({native.GAMES_DIR})")
    return 0


def run_status(args: argparse.Namespace) -> int:
    from arena import games

    print(games.ENGINE if games.ENGINE == "compiled" else f"pure ({games.ENGINE_NOTE})")
    return 0
