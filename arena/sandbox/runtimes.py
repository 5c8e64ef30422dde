"""The language runtimes bound read-only at /runtime inside the sandbox, and how `arena runtimes install` builds
them under `.runtime/` at the project root (`ARENA_RUNTIME_DIR` overrides).

- `python`: a venv made from `/usr/bin/python3` (the sandbox shows the bot only `/usr`, so the interpreter must
  live there) holding grpcio and protobuf at the versions of the environment running the referee, and the Python
  bot SDK from `bots/python/sdk/` with the generated protocol code of `arena/v1` as its `arena.v1`.
- `node`: `node_modules` with the dependencies of `bots/node/sdk/package.json` (@grpc/grpc-js,
  @grpc/proto-loader), the Node SDK itself (copied, not linked: a link would point outside the sandbox) with the
  `.proto` files of `proto/` in its `proto/`, and what the SDK's build step `tools/prepare.js` makes there with
  the sandbox's node (`/usr/bin/node`): protocol.json (the .proto files parsed once) and pack/ (the SDK's
  libraries in one script with a V8 code cache, valid for that node binary only), so a bot's start neither
  parses .proto files nor loads a hundred modules one by one.
- `cpp`: the C++ kit a C++ bot's build includes (`/runtime/arena.mk`, `/runtime/arena_bot.hpp`), from
  `bots/cpp/sdk/`, with the `.proto` files of `proto/` in `proto/`; bound by the build step (arena.botbuild),
  not at play time: the built program needs only /usr.

The tree keeps one copy of each of these sources; the runtimes are where they are put together.

Each runtime carries a stamp: the hash of everything it was built from. An install whose stamp matches does
nothing, so `arena runtimes install` is cheap to run before every test run or start-up. Installs from several
processes at once are serialised by a lock file, and a runtime is built beside the old one and swapped in by
renames, so a bot starting meanwhile never sees a half-built runtime.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from importlib import metadata
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[2]
SYSTEM_PYTHON = "/usr/bin/python3"
SYSTEM_NODE = "/usr/bin/node"
STAMP = ".arena-stamp"
KINDS = ("python", "node", "cpp")
NODE_DEFAULT_DEPENDENCIES = {"@grpc/grpc-js": "^1.10.0", "@grpc/proto-loader": "^0.7.10"}


class RuntimeMissing(RuntimeError):
    def __init__(self, runtime: str, path: Path) -> None:
        super().__init__(f"the {runtime} bot runtime is not installed at {path}: run `arena runtimes install`")
        self.runtime = runtime
        self.path = path


def runtime_root() -> Path:
    return Path(os.environ.get("ARENA_RUNTIME_DIR") or PROJECT_ROOT / ".runtime").resolve()


def runtime_path(runtime: str) -> Path:
    if runtime not in KINDS:
        raise ValueError(f"unknown runtime {runtime!r}: expected one of {', '.join(KINDS)} or binary")
    return runtime_root() / runtime


def _hash_tree(h: "hashlib._Hash", root: Path) -> None:
    if not root.exists():
        h.update(b"<none>")
        return
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        rel = path.relative_to(root)
        if {"node_modules", "__pycache__", "build", "dist"} & set(rel.parts) or ".egg-info" in str(rel):
            continue  # dependencies and build artefacts, not sources
        h.update(str(rel).encode() + b"\0" + path.read_bytes() + b"\0")


def python_requirements() -> list[str]:
    """grpcio and protobuf pinned to the versions the referee itself runs with (so both sides agree)."""
    pins = []
    for name in ("grpcio", "protobuf"):
        try:
            pins.append(f"{name}=={metadata.version(name)}")
        except metadata.PackageNotFoundError:
            pins.append(name)
    return pins


def python_sdk_dir() -> Path:
    return PROJECT_ROOT / "bots" / "python" / "sdk"


def node_sdk_dir() -> Path:
    return PROJECT_ROOT / "bots" / "node" / "sdk"


def cpp_kit_dir() -> Path:
    return PROJECT_ROOT / "bots" / "cpp" / "sdk"


def proto_dir() -> Path:
    return PROJECT_ROOT / "proto"


def generated_python_dir() -> Path:
    return PROJECT_ROOT / "arena" / "v1"


def _python_stamp() -> str:
    h = hashlib.sha256()
    h.update(json.dumps(python_requirements()).encode())
    h.update(Path(SYSTEM_PYTHON).resolve().name.encode())
    _hash_tree(h, python_sdk_dir())
    _hash_tree(h, generated_python_dir())
    return h.hexdigest()


def node_binary() -> str | None:
    """The node the SDK's build step runs with: the sandbox's (it shows the bot only /usr), else PATH's."""
    return SYSTEM_NODE if Path(SYSTEM_NODE).exists() else shutil.which("node")


def _node_binary_identity() -> str:
    """Which node binary the runtime is built for: the code cache of the SDK's pack is valid for it only."""
    found = node_binary()
    if found is None:
        return "<none>"
    real = Path(found).resolve()
    stat = real.stat()
    return f"{real}:{stat.st_size}:{stat.st_mtime_ns}"


def _node_stamp() -> str:
    h = hashlib.sha256()
    h.update(_node_binary_identity().encode())
    h.update(b"node-build:2")  # the recipe of _build_node: bump when it changes
    _hash_tree(h, node_sdk_dir())
    _hash_tree(h, proto_dir())
    return h.hexdigest()


def _cpp_stamp() -> str:
    h = hashlib.sha256()
    _hash_tree(h, cpp_kit_dir())
    _hash_tree(h, proto_dir())
    return h.hexdigest()


def _stamp_ok(target: Path, stamp: str) -> bool:
    try:
        return (target / STAMP).read_text() == stamp
    except OSError:
        return False


def _run(argv: list[str], log: Callable[[str], None], **kwargs) -> None:
    log("  $ " + " ".join(argv))
    done = subprocess.run(argv, capture_output=True, text=True, **kwargs)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} failed ({done.returncode}):\n{done.stdout[-3000:]}"
                           f"{done.stderr[-3000:]}")


def _make_readable(root: Path) -> None:
    """The bot runs as an unprivileged uid: everything in a runtime must be world-readable."""
    for dirpath, dirnames, filenames in os.walk(root):
        os.chmod(dirpath, os.stat(dirpath).st_mode | 0o755)
        for name in filenames:
            path = os.path.join(dirpath, name)
            if not os.path.islink(path):
                os.chmod(path, os.stat(path).st_mode | 0o444)


@contextlib.contextmanager
def _building(kind: str):
    """Yield a fresh directory to build runtime `kind` in; on success it replaces the installed one."""
    target = runtime_path(kind)
    build = target.with_name(f"{kind}.building")
    if build.exists():
        shutil.rmtree(build)
    build.parent.mkdir(parents=True, exist_ok=True)
    try:
        yield build
    except BaseException:
        shutil.rmtree(build, ignore_errors=True)
        raise
    old = target.with_name(f"{kind}.old")
    if old.exists():
        shutil.rmtree(old)
    if target.exists():
        target.rename(old)
    build.rename(target)
    shutil.rmtree(old, ignore_errors=True)


@contextlib.contextmanager
def _install_lock():
    root = runtime_root()
    root.mkdir(parents=True, exist_ok=True)
    fd = os.open(root / ".install.lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def _install(kind: str, stamp: str, build: Callable[[Path, Callable[[str], None]], None], force: bool,
             log: Callable[[str], None], needs: Callable[[], None] = lambda: None) -> str:
    """Build runtime `kind` with `build(folder, log)` unless its stamp is `stamp` already; `needs()` raises when
    the host lacks a tool the build needs. Returns "installed" or "up to date"."""
    if not force and _stamp_ok(runtime_path(kind), stamp):
        return "up to date"
    needs()
    with _building(kind) as target:
        build(target, log)
        _make_readable(target)
        (target / STAMP).write_text(stamp)
    return "installed"


def _needs_system_python() -> None:
    if not Path(SYSTEM_PYTHON).exists():
        raise RuntimeError(f"{SYSTEM_PYTHON} is missing: install Debian's python3 and python3-venv")


def _needs_npm() -> None:
    if shutil.which("npm") is None:
        raise RuntimeError("npm is missing: install Debian's nodejs and npm")


def install_python(force: bool = False, log: Callable[[str], None] = print) -> str:
    return _install("python", _python_stamp(), _build_python, force, log, _needs_system_python)


def install_node(force: bool = False, log: Callable[[str], None] = print) -> str:
    return _install("node", _node_stamp(), _build_node, force, log, _needs_npm)


def install_cpp(force: bool = False, log: Callable[[str], None] = print) -> str:
    return _install("cpp", _cpp_stamp(), _build_cpp, force, log)


def _build_python(target: Path, log: Callable[[str], None]) -> None:
    # the venv is built in place of the final one's sibling and renamed: a venv's interpreter finds its
    # site-packages from its own location (pyvenv.cfg beside bin/), so it moves (it lives at /runtime anyway)
    _run([SYSTEM_PYTHON, "-m", "venv", str(target)], log)
    pip = [str(target / "bin" / "python"), "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    _run(pip + python_requirements(), log)
    sdk = python_sdk_dir()
    if (sdk / "pyproject.toml").exists() or (sdk / "setup.py").exists():
        # a copy, not an editable install: the sandbox cannot see the source tree; built from a scratch copy so
        # the build leaves no build/ or *.egg-info in the source tree
        with tempfile.TemporaryDirectory() as scratch:
            source = Path(scratch) / "sdk"
            shutil.copytree(sdk, source, ignore=shutil.ignore_patterns("build", "dist", "*.egg-info",
                                                                       "__pycache__"))
            # the SDK's arena.v1 is the referee's generated code (setup.py finds it here)
            shutil.copytree(generated_python_dir(), source / "arena" / "v1",
                            ignore=shutil.ignore_patterns("__pycache__"))
            _run(pip + ["--no-deps", str(source)], log)  # isolated build: the venv's setuptools has no bdist_wheel
    else:
        log(f"  (no Python SDK at {sdk} yet: runtime has grpcio and protobuf only)")


def _build_node(target: Path, log: Callable[[str], None]) -> None:
    sdk = node_sdk_dir()
    dependencies = dict(NODE_DEFAULT_DEPENDENCIES)
    sdk_package = None
    if (sdk / "package.json").exists():
        sdk_package = json.loads((sdk / "package.json").read_text())
        dependencies = dict(sdk_package.get("dependencies") or dependencies)
    target.mkdir(parents=True)
    (target / "package.json").write_text(json.dumps(
        {"name": "arena-node-runtime", "private": True, "dependencies": dependencies}, indent=2))
    _run(["npm", "install", "--no-audit", "--no-fund", "--omit=dev", "--no-package-lock", "--loglevel=error"],
         log, cwd=target)
    if sdk_package is not None:
        name = sdk_package.get("name") or "arena-bot"
        dest = target / "node_modules" / name
        shutil.copytree(sdk, dest, ignore=shutil.ignore_patterns("node_modules", "package-lock.json"))
        shutil.copytree(proto_dir(), dest / "proto")  # the SDK loads them from beside its index.js
        if (dest / "tools" / "prepare.js").exists():  # the SDK's build step: protocol.json, pack/
            _run([node_binary() or "node", "tools/prepare.js"], log, cwd=dest,
                 env={**os.environ, "NODE_PATH": str(target / "node_modules")})
    else:
        log(f"  (no Node SDK at {sdk} yet: runtime has the gRPC libraries only)")
    shutil.copytree(proto_dir(), target / "proto")


def _build_cpp(target: Path, log: Callable[[str], None]) -> None:
    # copies keep their times: `make` in a bot rebuilds what the kit's files feed only when they changed
    shutil.copytree(cpp_kit_dir(), target)
    shutil.copytree(proto_dir(), target / "proto")


INSTALLERS = {"python": install_python, "node": install_node, "cpp": install_cpp}


def install(kinds: tuple[str, ...] = KINDS, force: bool = False,
            log: Callable[[str], None] = print) -> dict[str, str]:
    """Build (or leave alone, when up to date) each runtime; returns runtime -> "installed" | "up to date"."""
    with _install_lock():
        return {kind: INSTALLERS[kind](force=force, log=log) for kind in kinds}


if __name__ == "__main__":  # pragma: no cover
    print(install(force="--force" in sys.argv))
