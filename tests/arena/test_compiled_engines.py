"""The compiled game engines (mypyc, arena/games/native.py) play exactly the games the pure-Python engines play,
and an engine that cannot be used compiled falls back to the pure one, saying why.

The whole engine suite runs against both: CI runs tests/arena's engine tests again with ARENA_PURE=1
(.ci/run); this file compares the two side by side in child processes."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from arena.games import native

REPO = Path(__file__).resolve().parents[2]
# what changes from run to run (timing), not from engine to engine
TIMING = {"seconds", "games_per_second"}


def _compiled_built() -> None:
    if not native.built_files():
        pytest.skip("the compiled engines are not built (`arena engines build`; make install builds them)")


def _run(argv: list[str], pure: bool, cwd: Path = REPO, pythonpath: str | None = None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "ARENA_PURE"}
    if pure:
        env["ARENA_PURE"] = "1"
    if pythonpath is not None:
        env["PYTHONPATH"] = pythonpath
    return subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)


def _selfplay(game: str, players: int, pure: bool) -> dict:
    done = _run([sys.executable, "-m", "arena", "selfplay", game, "--players", str(players), "--games", "12",
                 "--seed", "1", "--json"], pure)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["errors"] == 0, result["error_messages"]
    return {k: v for k, v in result.items() if k not in TIMING}


@pytest.mark.parametrize(("game", "players"), [("thebes", 2), ("thebes", 3), ("thebes", 4), ("minos", 1),
                                               ("minos", 2), ("minos", 3), ("minos", 4)])
def test_compiled_and_pure_engines_play_the_same_games(game, players):
    _compiled_built()
    assert _run([sys.executable, "-m", "arena", "engines", "status"], pure=False).stdout.strip() == "compiled"
    assert _selfplay(game, players, pure=False) == _selfplay(game, players, pure=True)


def _copy_package(tmp_path: Path) -> Path:
    """A copy of the `arena.games` package with its build (and the bare `arena` package above it)."""
    root = tmp_path / "copy"
    (root / "arena").mkdir(parents=True)
    (root / "arena" / "__init__.py").write_text("")
    shutil.copytree(native.GAMES_DIR, root / "arena" / "games", ignore=shutil.ignore_patterns("__pycache__"))
    return root


_WHICH = "import arena.games as g; import arena.games.thebes.state as s; print(g.ENGINE, s.__spec__.origin)"


def test_a_stale_build_is_not_used_and_the_fallback_says_why(tmp_path):
    _compiled_built()
    root = _copy_package(tmp_path)
    fresh = _run([sys.executable, "-c", _WHICH], pure=False, cwd=root, pythonpath=str(root))
    assert fresh.stdout.startswith("compiled ") and fresh.stdout.strip().endswith(".so"), fresh.stdout + fresh.stderr
    assert fresh.stderr == ""
    source = root / "arena" / "games" / "thebes" / "state.py"
    source.write_text(source.read_text() + "\n# a change since the build\n")
    stale = _run([sys.executable, "-c", _WHICH], pure=False, cwd=root, pythonpath=str(root))
    assert stale.stdout.split() == ["pure", str(source)], stale.stdout + stale.stderr
    assert "pure-Python engines" in stale.stderr and "stale" in stale.stderr


def test_a_build_that_does_not_load_falls_back_and_says_why(tmp_path):
    _compiled_built()
    root = _copy_package(tmp_path)
    for lib in (root / "arena" / "games").glob("_engines__mypyc*.so"):
        lib.write_bytes(b"not a shared library")
    done = _run([sys.executable, "-c", _WHICH], pure=False, cwd=root, pythonpath=str(root))
    assert done.stdout.split()[0] == "pure", done.stdout + done.stderr
    assert "pure-Python engines" in done.stderr and "do not load" in done.stderr


def test_asking_for_the_pure_engine_gets_it_silently():
    _compiled_built()
    done = _run([sys.executable, "-c", _WHICH], pure=True)
    assert done.stdout.split()[0] == "pure" and done.stdout.strip().endswith("state.py")
    assert done.stderr == ""
