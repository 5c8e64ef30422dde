"""Where the SDK's `arena.v1` (the protocol's generated code) comes from: it is not kept in this folder. A checkout
of the Arena repository has it two folders up, in `arena/v1` (`python -m arena.protocol_gen`), so `pip install
bots/python/sdk` works from a checkout; `arena runtimes install` builds from a scratch copy of this folder into
which it puts `arena/v1` itself. Everything else is in pyproject.toml."""

import os
from pathlib import Path

from setuptools import setup

HERE = Path(__file__).resolve().parent
SOURCES = (HERE / "arena" / "v1", HERE.parents[2] / "arena" / "v1")
generated = next((p for p in SOURCES if (p / "arena_pb2.py").is_file()), None)
if generated is None:
    raise SystemExit("arena.v1 not found: build the SDK from a checkout of the Arena repository (it takes the "
                     "generated code from arena/v1) or with `arena runtimes install`")
setup(package_dir={"arena_bot": "arena_bot", "arena.v1": os.path.relpath(generated, HERE)})
