"""Where the SDK's `arena.v1` (the protocol's generated code) and `arena.games` (the referee's game engines, the
forward model of `arena_bot.forward`) come from: they are not kept in this folder. A checkout of the Arena
repository has them two folders up, in `arena/v1` (`python -m arena.protocol_gen`) and `arena/games`, so `pip
install bots/python/sdk` works from a checkout; `arena runtimes install` builds from a scratch copy of this folder
into which it puts `arena/v1` and `arena/games` itself. Everything else is in pyproject.toml."""

import os
from pathlib import Path

from setuptools import setup

HERE = Path(__file__).resolve().parent


def _find(relative: str, marker: str) -> Path:
    for root in (HERE, HERE.parents[2]):
        if (root / relative / marker).is_file():
            return root / relative
    raise SystemExit(f"{relative.replace('/', '.')} not found: build the SDK from a checkout of the Arena "
                     f"repository (it takes it from {relative}) or with `arena runtimes install`")


generated = _find("arena/v1", "arena_pb2.py")
games = _find("arena/games", "base.py")
package_dir = {"arena_bot": "arena_bot", "arena.v1": os.path.relpath(generated, HERE)}
packages = ["arena_bot", "arena.v1"]
# the game engines, exactly the referee's: every package under arena/games (the runner and sandbox are not there)
for init in sorted(games.rglob("__init__.py")):
    folder = init.parent
    if "__pycache__" in folder.parts:
        continue
    name = ".".join(("arena", "games", *folder.relative_to(games).parts))
    packages.append(name)
    package_dir[name] = os.path.relpath(folder, HERE)
setup(packages=packages, package_dir=package_dir,
      package_data={name: ["*.json"] for name in packages if name.startswith("arena.games")})
