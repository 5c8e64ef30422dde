"""The compiled game engines: which modules of `arena.games` mypyc compiles, how they are built, and which engine
an import of `arena.games` gets.

One source of truth: the compiled engines are the very `.py` files of this package compiled by mypyc (they are
typed, and strict under mypy), built in place beside them as C extension modules
(`thebes/state.cpython-311-….so`, ...) plus one shared library, `arena/games/_engines__mypyc….so`, and a stamp,
`_engines.stamp`, that records the hash of the sources they were built from. Python imports an extension module
before a source file of the same name, so once built, `arena.games.thebes.state` is the compiled one.

The pure-Python engines stay, and are chosen when
- `ARENA_PURE=1` is set (tests and benchmarks run both),
- nothing was built (`arena engines build` was not run, or mypyc or a C compiler was missing),
- the build is stale: a source changed since (the stamp's hash differs), so the compiled code would not be the
  rules of the tree any more,
- or the compiled code does not load (another Python, a broken file).
Then an import hook (`_SourceFinder`) loads these modules from their `.py` files, and — unless `ARENA_PURE` asked
for it — one line on stderr says why. `ENGINE` ("compiled" or "pure") and `ENGINE_NOTE` (why pure) say which.

Both engines play exactly the same games: same digests (`arena selfplay ... --json`), same replays
(tests/arena/test_compiled_engines.py).

Built by `make install` and the Docker image (`arena engines build`), and into the bots' Python runtime by `arena
runtimes install` (`arena.sandbox.runtimes`), so a Python bot's forward model is the compiled engine too.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.abc
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

GAMES_DIR = Path(__file__).resolve().parent
#: the modules mypyc compiles, relative to arena/games: the engines' hot paths, the search bots' rollout policies
#: (`<game>/rollout.py`) and what they import (the game registry `__init__`, this module, narration, public data
#: and the policies' base stay plain Python)
MODULES: tuple[str, ...] = (
    "rng.py", "base.py",
    "thebes/data.py", "thebes/actions.py", "thebes/scoring.py", "thebes/state.py", "thebes/game.py",
    "thebes/determinize.py", "thebes/rollout.py",
    "minos/data.py", "minos/actions.py", "minos/position.py", "minos/vases.py", "minos/scoring.py",
    "minos/effects.py", "minos/rhadamanthus.py", "minos/draft.py", "minos/final_combat.py",
    "minos/end_of_round.py", "minos/setup.py", "minos/turn.py", "minos/observation.py", "minos/state.py",
    "minos/game.py", "minos/determinize.py", "minos/rollout.py",
)
GROUP = "arena.games._engines"  # the shared library: arena/games/_engines__mypyc.<abi>.so
STAMP = "_engines.stamp"
PURE_ENV = "ARENA_PURE"


def module_name(relative: str) -> str:
    return "arena.games." + relative.removesuffix(".py").replace("/", ".")


COMPILED_NAMES = frozenset(module_name(m) for m in MODULES)


def source_hash(games_dir: Path = GAMES_DIR) -> str:
    """The hash of the compiled modules' sources and of the data files they read at import."""
    h = hashlib.sha256()
    for rel in MODULES:
        h.update(rel.encode() + b"\0" + (games_dir / rel).read_bytes() + b"\0")
    return h.hexdigest()


def built_files(games_dir: Path = GAMES_DIR) -> list[Path]:
    """The extension modules a build left in `games_dir` (shared library and per-module shims)."""
    return sorted(p for p in games_dir.rglob("*.so") if "__pycache__" not in p.parts)


def remove_build(games_dir: Path = GAMES_DIR) -> None:
    for path in built_files(games_dir):
        path.unlink()
    (games_dir / STAMP).unlink(missing_ok=True)


# The build itself runs in a child process of the target interpreter (`python`): mypycify needs setuptools, and
# the extensions must be built for the Python that will import them.
_BUILD_SCRIPT = f"""
import sys
from setuptools import setup
from mypyc.build import mypycify
build_temp, *paths = sys.argv[1:]
setup(name="arena-engines", script_args=["build_ext", "--inplace", "--build-temp", build_temp],
      ext_modules=mypycify(paths, group_name={GROUP!r}, opt_level="3", debug_level="0"))
"""


def build(root: Path | None = None, python: str = sys.executable, log: Callable[[str], None] = print,
          extra_path: Sequence[str] = ()) -> None:
    """Compile `MODULES` of `root/arena/games` (default: this checkout) with mypyc, for the interpreter `python`,
    put the extension modules beside the sources and write the stamp. The compiler works on a scratch copy of
    the package (so whatever else lies in `root`, e.g. a runtime's site-packages, neither shadows a library for
    mypy nor gets build files). `extra_path` goes on the child's PYTHONPATH (where mypy and setuptools are, when
    `python` is another environment's). Raises RuntimeError with the compiler's output on failure; the engines
    then stay pure (the old build is removed first)."""
    root = (root or GAMES_DIR.parents[1]).resolve()
    games_dir = root / "arena" / "games"
    remove_build(games_dir)
    digest = source_hash(games_dir)
    env = dict(os.environ)
    env.pop(PURE_ENV, None)
    if extra_path:
        env["PYTHONPATH"] = os.pathsep.join([*extra_path, env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    with tempfile.TemporaryDirectory(prefix="arena-engines-") as scratch:
        work = Path(scratch) / "src"
        shutil.copytree(games_dir, work / "arena" / "games", ignore=shutil.ignore_patterns("__pycache__", "*.so"))
        (work / "arena" / "__init__.py").write_text("")
        # the project's mypy configuration (Django plugins, the whole tree) is not the engines': an empty one
        config = Path(scratch) / "mypy.ini"
        config.write_text("[mypy]\n")
        argv = [python, "-c", _BUILD_SCRIPT, str(Path(scratch) / "temp"), f"--config-file={config}",
                *(f"arena/games/{m}" for m in MODULES)]
        log(f"  $ {python} -m mypyc ({len(MODULES)} modules of arena/games) for {games_dir}")
        done = subprocess.run(argv, cwd=work, env={**env, "MYPY_CACHE_DIR": str(Path(scratch) / "cache")},
                              capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"mypyc failed ({done.returncode}):\n{done.stdout[-3000:]}{done.stderr[-3000:]}")
        for built in built_files(work / "arena" / "games"):
            shutil.copy2(built, games_dir / built.relative_to(work / "arena" / "games"))
    (games_dir / STAMP).write_text(json.dumps({"sources": digest, "python": sys.version.split()[0]}) + "\n")


class _SourceFinder(importlib.abc.MetaPathFinder):
    """Loads the compiled modules from their `.py` files even where an extension module sits beside them."""

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        if fullname not in COMPILED_NAMES:
            return None
        source = GAMES_DIR / (fullname.removeprefix("arena.games.").replace(".", "/") + ".py")
        return importlib.util.spec_from_file_location(fullname, source)


def _stamp_sources() -> str | None:
    try:
        return str(json.loads((GAMES_DIR / STAMP).read_text())["sources"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def select() -> tuple[str, str]:
    """Choose the engine for this process (called once, by `arena.games` on import): ("compiled", "") or
    ("pure", why). Installs the source finder when pure."""
    if os.environ.get(PURE_ENV, "") not in ("", "0"):
        why = f"{PURE_ENV}={os.environ[PURE_ENV]}"
    else:
        stamped = _stamp_sources()
        if stamped is None:
            why = "not built (`arena engines build` compiles them with mypyc)"
        elif stamped != source_hash():
            why = "the build is stale: the sources changed since (`arena engines build` rebuilds it)"
        else:
            try:
                importlib.import_module(GROUP + "__mypyc")
                return "compiled", ""
            except ImportError as exc:
                why = f"they do not load ({exc})"
    if not any(isinstance(f, _SourceFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _SourceFinder())
    if not why.startswith(PURE_ENV):
        print(f"arena.games: using the pure-Python engines: the compiled ones are {why}"
              if not why.startswith("the build") else f"arena.games: using the pure-Python engines: {why}",
              file=sys.stderr)
    return "pure", why
