"""Bot packages: a folder with a `bot.toml` manifest (format in bots/README.md).

```toml
name = "my-bot"                  # letters, digits, - _ . ; up to 64 characters
games = ["thebes"]               # the games it plays
runtime = "python"               # "python", "node" or "binary"
command = ["python", "bot.py"]   # started in the bot's folder; must serve gRPC on the unix socket $ARENA_SOCKET
build = ["make"]                 # optional: how a binary bot is built from source (before the match, not in it)
```
"""

from __future__ import annotations

import hashlib
import os
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, overload

MANIFEST = "bot.toml"
MANIFEST_MAX_BYTES = 64 * 1024  # a manifest is a few lines; a huge one is an attack on the parser
RUNTIMES = ("python", "node", "binary")
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


class ManifestError(ValueError):
    """A bot.toml that is missing or wrong; the message says what to fix, in a bot author's words."""


@dataclass(frozen=True)
class Manifest:
    name: str
    games: tuple[str, ...]
    runtime: str
    command: tuple[str, ...]
    build: tuple[str, ...] | None = None
    path: Path = field(default=Path("."), compare=False)

    @property
    def sandbox_runtime(self) -> str | None:
        """The runtime name `arena.sandbox.launch` takes: None for a binary (only /usr is bound)."""
        return None if self.runtime == "binary" else self.runtime


@overload
def _str_list(data: dict, key: str, where: Path, *, required: Literal[True]) -> tuple[str, ...]: ...
@overload
def _str_list(data: dict, key: str, where: Path, *, required: Literal[False]) -> tuple[str, ...] | None: ...


def _str_list(data: dict, key: str, where: Path, *, required: bool) -> tuple[str, ...] | None:
    value = data.get(key)
    if value is None:
        if required:
            raise ManifestError(f"{where}: the field `{key}` is missing (a list of strings, e.g. "
                                f"{key} = {['python', 'bot.py'] if key != 'games' else ['thebes']})")
        return None
    if not isinstance(value, list) or not value or not all(isinstance(v, str) and v for v in value):
        raise ManifestError(f"{where}: `{key}` must be a non-empty list of non-empty strings, not {value!r}")
    return tuple(value)


def load_manifest(path: str | os.PathLike) -> Manifest:
    """Read and check `<path>/bot.toml` (or `path` itself if it is the manifest file)."""
    path = Path(path)
    file = path if path.is_file() else path / MANIFEST
    folder = file.parent
    if not folder.is_dir():
        raise ManifestError(f"{folder}: no such folder (a bot is a folder holding {MANIFEST})")
    if not file.is_file():
        raise ManifestError(f"{folder}: no {MANIFEST} in this folder; a bot needs one naming it and how to start "
                            f"it (see bots/README.md)")
    if file.stat().st_size > MANIFEST_MAX_BYTES:
        raise ManifestError(f"{file}: larger than {MANIFEST_MAX_BYTES // 1024} KB; a manifest is a few lines")
    try:
        data = tomllib.loads(file.read_text(encoding="utf-8"))
    except UnicodeDecodeError:
        raise ManifestError(f"{file}: not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise ManifestError(f"{file}: not valid TOML: {exc}") from None
    except RecursionError:  # tomllib recurses once per nested array or table: `a = [[[[...]]]]`
        raise ManifestError(f"{file}: its values are nested too deeply") from None

    name = data.get("name")
    if name is None:
        raise ManifestError(f"{file}: the field `name` is missing (e.g. name = \"my-bot\")")
    if not isinstance(name, str) or not _NAME.match(name):
        raise ManifestError(f"{file}: `name` must be 1-64 letters, digits, '-', '_' or '.', starting with a "
                            f"letter or digit, not {name!r}")
    games = _str_list(data, "games", file, required=True)
    runtime = data.get("runtime")
    if runtime is None:
        raise ManifestError(f"{file}: the field `runtime` is missing (one of {', '.join(RUNTIMES)})")
    if runtime not in RUNTIMES:
        raise ManifestError(f"{file}: `runtime` must be one of {', '.join(RUNTIMES)}, not {runtime!r}")
    command = _str_list(data, "command", file, required=True)
    build = _str_list(data, "build", file, required=False)
    for key, words in (("command", command), ("build", build)):
        if words is not None and (problem := program_problem(words[0])):
            raise ManifestError(f"{file}: `{key}` starts with {words[0]!r}, {problem}")
    unknown = set(data) - {"name", "games", "runtime", "command", "build"}
    if unknown:
        raise ManifestError(f"{file}: unknown field(s) {', '.join(sorted(unknown))}; the fields are name, games, "
                            f"runtime, command and build")
    return Manifest(name=name, games=games, runtime=runtime, command=command, build=build, path=folder)


def program_problem(program: str) -> str | None:
    """Why the first word of `command` or `build` may not name a program, or None. A program is either a name
    found on the runtime's PATH (`python`, `node`, `make`) or a path inside the bot's folder (`build/bot`,
    `./run.sh`, `/bot/build/bot`); never another path of the host, whose existence nobody may probe through a
    manifest. Judged from the text alone, so the answer never depends on what the host holds."""
    if any(ord(c) < 32 for c in program):
        return "which holds control characters"
    if "/" not in program:
        return None
    inside = program[len("/bot/"):] if program.startswith("/bot/") else program
    if inside.startswith("/"):
        return ("an absolute path; name a program of the runtime (e.g. python, node, make) or a file in your "
                "folder (e.g. build/bot or /bot/build/bot)")
    parts = [p for p in inside.split("/") if p not in ("", ".")]
    if not parts or ".." in parts:
        return "which does not name a file inside your folder (no '..')"
    return None


def package_files(path: str | os.PathLike) -> list[Path]:
    """Every regular file of the package, as sorted relative paths (caches and VCS folders excluded)."""
    root = Path(path)
    skip_dirs = {"__pycache__", ".git"}
    files = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in skip_dirs)
        for f in filenames:
            p = Path(dirpath, f)
            if p.is_file() and not p.is_symlink() and not f.endswith(".pyc"):
                files.append(p.relative_to(root))
    return sorted(files, key=lambda p: p.as_posix())


def package_sha256(path: str | os.PathLike) -> str:
    """A hash of the package's content: sorted relative paths and file bytes, so the same files give the same
    hash on any machine, whatever their timestamps or the folder's location."""
    root = Path(path)
    h = hashlib.sha256()
    for rel in package_files(root):
        data = (root / rel).read_bytes()
        name = rel.as_posix().encode()
        h.update(len(name).to_bytes(8, "big") + name + len(data).to_bytes(8, "big"))
        h.update(data)
    return h.hexdigest()
