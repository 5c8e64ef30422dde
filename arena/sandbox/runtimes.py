"""The language runtimes bound read-only at /runtime inside the sandbox, and how `arena runtimes install` builds
them under `.runtime/` at the project root (`ARENA_RUNTIME_DIR` overrides).

- `python`: a venv made from `/usr/bin/python3` (the sandbox shows the bot only `/usr`, so the interpreter must
  live there) holding grpcio and protobuf at the versions of the environment running the referee, and the Python
  bot SDK from `bots/python/sdk/` with the generated protocol code of `arena/v1` as its `arena.v1` and the
  game engines of `arena/games` as its `arena.games` (the forward model `arena_bot.forward` offers bots: the
  referee's own code, so the rules a bot plans with never drift from the referee's).
- `node`: `node_modules` with the dependencies of `bots/node/sdk/package.json` (@grpc/grpc-js,
  @grpc/proto-loader), the Node SDK itself (copied, not linked: a link would point outside the sandbox) with the
  `.proto` files of `proto/` in its `proto/`, and what the SDK's build step `tools/prepare.js` makes there with
  the sandbox's node (`/usr/bin/node`): protocol.json (the .proto files parsed once) and pack/ (the SDK's
  libraries in one script with a V8 code cache, valid for that node binary only), so a bot's start neither
  parses .proto files nor loads a hundred modules one by one.
- `cpp`: the C++ kit a C++ bot's build includes (`/runtime/arena.mk`, `/runtime/arena_bot.hpp`), from
  `bots/cpp/sdk/`, with the `.proto` files of `proto/` in `proto/`; bound by the build step (arena.botbuild),
  not at play time: the built program needs only /usr. It is the build kit of every language: it also holds the
  Go kit in `go/` (from `bots/go/sdk/`: `arena-go.mk`, the SDK and the protocol's Go code generated with Debian's
  protoc-gen-go and protoc-gen-go-grpc in `gopath/src/`, and `cache-seed/`, a Go build cache with the SDK and
  Debian's grpc-go already compiled, which starts each Go bot's build cache, so no bot build compiles grpc-go),
  made only when the host has Go (`scripts/system-packages`); and the Java kit in `java/` (from `bots/java/sdk/`:
  `arena-java.mk`, `arena-kit.jar` with the protocol's classes generated with grpc_java_plugin and the SDK compiled
  against Debian's grpc-java, and `classpath.txt`, the Debian jars a Java bot runs with), made only when the
  host has a JDK and grpc-java.

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


def _hash_tree(h: hashlib._Hash, root: Path) -> None:
    if not root.exists():
        h.update(b"<none>")
        return
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        rel = path.relative_to(root)
        if {"node_modules", "__pycache__", "build", "dist"} & set(rel.parts) or ".egg-info" in str(rel):
            continue  # dependencies and build artefacts, not sources
        h.update(str(rel).encode() + b"\0" + path.read_bytes() + b"\0")


def python_requirements() -> list[str]:
    """grpcio and protobuf pinned to the versions the referee itself runs with (so both sides agree), and
    mypy-extensions, which the game engines import (`arena.games.base`)."""
    pins = []
    for name in ("grpcio", "protobuf", "mypy_extensions"):
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


def go_kit_dir() -> Path:
    return PROJECT_ROOT / "bots" / "go" / "sdk"


def java_kit_dir() -> Path:
    return PROJECT_ROOT / "bots" / "java" / "sdk"


def proto_dir() -> Path:
    return PROJECT_ROOT / "proto"


def generated_python_dir() -> Path:
    return PROJECT_ROOT / "arena" / "v1"


def games_dir() -> Path:
    """The referee's game engines (`arena.games`), installed into the Python runtime as the bots' forward model."""
    return PROJECT_ROOT / "arena" / "games"


def _python_stamp() -> str:
    h = hashlib.sha256()
    h.update(json.dumps(python_requirements()).encode())
    h.update(Path(SYSTEM_PYTHON).resolve().name.encode())
    h.update(b"arena.v1 namespace portion")  # the layout of _build_python (a bot's own arena.v1 comes first)
    h.update(b"compiled engines:1")  # _compile_engines
    _hash_tree(h, python_sdk_dir())
    _hash_tree(h, generated_python_dir())
    _hash_tree(h, games_dir())
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
    h.update(_go_kit_stamp().encode())
    h.update(_java_kit_stamp().encode())
    return h.hexdigest()


# Debian's jars a Java bot compiles and runs with (libgrpc-java, libprotobuf-java, libnetty-java, ...)
JAVA_JARS = ("grpc-api", "grpc-stub", "grpc-protobuf", "grpc-protobuf-lite", "grpc-core", "grpc-netty",
             "grpc-context", "protobuf", "guava", "netty-common", "netty-buffer", "netty-transport", "netty-codec",
             "netty-codec-http", "netty-codec-http2", "netty-handler", "netty-resolver", "perfmark-api", "gson",
             "geronimo-annotation-1.3-spec")
JAVA_TOOLS = ("javac", "jar", "java", "protoc", "grpc_java_plugin")
SYSTEM_JARS = Path("/usr/share/java")


def _java_kit_stamp() -> str:
    h = hashlib.sha256()
    h.update(b"java-kit-build:2")  # the recipe of _build_java_kit: bump when it changes
    _hash_tree(h, java_kit_dir())
    _hash_tree(h, proto_dir())
    for tool in JAVA_TOOLS:
        found = shutil.which(tool, path="/usr/bin")
        h.update(f"{tool}:{Path(found).resolve() if found else '<none>'}".encode())
    for jar in JAVA_JARS:
        path = SYSTEM_JARS / f"{jar}.jar"
        h.update(f"{jar}:{path.resolve() if path.exists() else '<none>'}".encode())  # versioned file names
    return h.hexdigest()


def _go_kit_stamp() -> str:
    h = hashlib.sha256()
    h.update(b"go-kit-build:1")  # the recipe of _build_go_kit: bump when it changes
    _hash_tree(h, go_kit_dir())
    _hash_tree(h, proto_dir())
    h.update(_go_toolchain_identity().encode())
    return h.hexdigest()


GO_TOOLS = ("go", "protoc", "protoc-gen-go", "protoc-gen-go-grpc")
GO_LIBRARIES = Path("/usr/share/gocode")  # Debian's Go libraries (golang-google-grpc-dev, ...), GOPATH mode
SEED_CARRY_MAX_BYTES = 250 * 1024 * 1024  # a fresh seed is ~100 MB


def _go_toolchain_identity() -> str:
    """Which Go tools the Go kit is built with: its generated code and cache seed are valid for them only."""
    parts = []
    for tool in GO_TOOLS:
        found = shutil.which(tool, path="/usr/bin")
        if found is None:
            parts.append(f"{tool}:<none>")
            continue
        st = Path(found).resolve().stat()
        parts.append(f"{tool}:{st.st_size}:{st.st_mtime_ns}")
    return " ".join(parts)


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
    for dirpath, _dirnames, filenames in os.walk(root):
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
            # the game engines, the referee's own code, so a bot's forward model never drifts from the rules
            shutil.copytree(games_dir(), source / "arena" / "games",
                            ignore=shutil.ignore_patterns("__pycache__"))
            _run(pip + ["--no-deps", str(source)], log)  # isolated build: the venv's setuptools has no bdist_wheel
        _never_shadow_own_protocol(target)
        _compile_engines(target, log)
    else:
        log(f"  (no Python SDK at {sdk} yet: runtime has grpcio and protobuf only)")


def _compile_engines(target: Path, log: Callable[[str], None]) -> None:
    """Compile the runtime's copy of the game engines with mypyc, for the runtime's own interpreter, so a bot's
    forward model (and the built-in search bots) run the compiled engines (`arena.games.native`). mypy and
    setuptools come from the environment running this install. When the build fails the runtime keeps the
    pure-Python engines, and `arena.games` says so on the bot's stderr when it is imported."""
    import mypy

    from arena.games import native

    site = next(target.glob("lib/python3*/site-packages"))
    try:
        native.build(site, python=str(target / "bin" / "python"), log=log,
                     extra_path=[str(Path(mypy.__file__).resolve().parents[1])])
    except (RuntimeError, OSError) as exc:
        log(f"  (compiled engines not built, the runtime's engines stay pure Python: {exc})")


def _never_shadow_own_protocol(target: Path) -> None:
    """Make the runtime's `arena.v1` a namespace portion (no __init__.py). A bot that generates its own arena.v1
    from the .proto (protoc writes no __init__.py) has it in its folder, earlier on sys.path than site-packages;
    but a *regular* package anywhere on sys.path beats namespace portions, so the runtime's would be imported
    instead of the bot's own. As portions of one namespace, the bot's comes first and the runtime's fills in only
    the modules the bot does not have."""
    for init in target.glob("lib/python3*/site-packages/arena/v1/__init__.py"):
        init.unlink()
        for cached in (init.parent / "__pycache__").glob("__init__.*.pyc"):
            cached.unlink()


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
    _build_go_kit(target / "go", log)
    _build_java_kit(target / "java", log)


def _reuse_kit(name: str, stamp: str, target: Path, log: Callable[[str], None]) -> bool:
    """Copy the `name` kit (go, java) from an installed build kit built from the same sources (the installed
    one, or the default .runtime's for a runtime elsewhere, e.g. a test's): compiling it takes a while."""
    for kit in (runtime_path("cpp") / name, PROJECT_ROOT / ".runtime" / "cpp" / name):
        if _stamp_ok(kit, stamp) and kit.resolve() != target.resolve():
            log(f"  ({name} kit: copied from {kit}, built from the same sources)")
            _copy_tree(kit, target)
            return True
    return False


def _build_java_kit(target: Path, log: Callable[[str], None]) -> None:
    """The Java kit (see the module docstring), skipped with a note when the host lacks the JDK or grpc-java."""
    missing = [tool for tool in JAVA_TOOLS if shutil.which(tool, path="/usr/bin") is None]
    missing += [f"{jar}.jar" for jar in JAVA_JARS if not (SYSTEM_JARS / f"{jar}.jar").exists()]
    if missing:
        log(f"  (no Java kit: {', '.join(missing)} missing; scripts/system-packages installs them)")
        return
    stamp = _java_kit_stamp()
    if _reuse_kit("java", stamp, target, log):
        return
    target.mkdir(parents=True)
    shutil.copy2(java_kit_dir() / "arena-java.mk", target / "arena-java.mk")
    classpath = ":".join(str(SYSTEM_JARS / f"{jar}.jar") for jar in JAVA_JARS)
    (target / "classpath.txt").write_text(classpath + "\n")
    # the JDK's own folder: /usr/bin/javac is a link through /etc/alternatives, which the sandbox does not show
    (target / "java-home.txt").write_text(f"{Path('/usr/bin/javac').resolve().parents[1]}\n")
    with tempfile.TemporaryDirectory() as scratch:
        gen, classes = Path(scratch) / "gen", Path(scratch) / "classes"
        gen.mkdir()
        protos = [str(p.relative_to(proto_dir())) for p in sorted((proto_dir() / "arena" / "v1").glob("*.proto"))]
        _run(["/usr/bin/protoc", f"-I{proto_dir()}", f"--java_out={gen}", f"--grpc-java_out={gen}",
              "--plugin=protoc-gen-grpc-java=/usr/bin/grpc_java_plugin", *protos], log)
        sources = sorted(str(p) for root in (gen, java_kit_dir()) for p in root.rglob("*.java"))
        _run(["/usr/bin/javac", "-encoding", "UTF-8", "-nowarn", "-cp", classpath, "-d", str(classes), *sources],
             log)
        _run(["/usr/bin/jar", "cf", str(target / "arena-kit.jar"), "-C", str(classes), "."], log)
    (target / STAMP).write_text(stamp)


def _build_go_kit(target: Path, log: Callable[[str], None]) -> None:
    """The Go kit (see the module docstring), skipped with a note when the host lacks Go's tools."""
    missing = [tool for tool in GO_TOOLS if shutil.which(tool, path="/usr/bin") is None]
    if missing or not (GO_LIBRARIES / "src" / "google.golang.org" / "grpc").is_dir():
        log(f"  (no Go kit: {', '.join(missing) or 'golang-google-grpc-dev'} missing; scripts/system-packages "
            f"installs them)")
        return
    stamp = _go_kit_stamp()
    # Compiling the seed takes a minute or two: a Go kit built from the same sources is copied instead, and a
    # stale one's seed starts the new seed (its grpc-go entries still hold: only the protocol's code is compiled
    # again).
    if _reuse_kit("go", stamp, target, log):
        return
    previous = [runtime_path("cpp") / "go", PROJECT_ROOT / ".runtime" / "cpp" / "go"]
    sdk = go_kit_dir()
    target.mkdir(parents=True)
    for kit in previous:
        seed = kit / "cache-seed"
        # carried over while small: each protocol change adds its compiled code (Go trims entries unused for days)
        if seed.is_dir() and sum(f.stat().st_size for f in seed.rglob("*") if f.is_file()) < SEED_CARRY_MAX_BYTES:
            shutil.copytree(seed, target / "cache-seed")  # a copy: `go build` writes to it
            break
    shutil.copy2(sdk / "arena-go.mk", target / "arena-go.mk")
    src = target / "gopath" / "src"
    shutil.copytree(sdk / "arenabot", src / "arena" / "arenabot")
    protos = [str(p.relative_to(proto_dir())) for p in sorted((proto_dir() / "arena" / "v1").glob("*.proto"))]
    _run(["/usr/bin/protoc", f"-I{proto_dir()}", f"--go_out={src}", f"--go-grpc_out={src}", *protos], log)
    # The cache seed: everything a bot imports through the SDK, compiled once here with the flags of arena-go.mk
    # (-trimpath: its cache keys do not depend on this folder's path, so they hold at /runtime/go in the sandbox).
    with tempfile.TemporaryDirectory() as scratch:
        probe = Path(scratch) / "probe"
        probe.mkdir()
        (probe / "main.go").write_text('package main\n\nimport "arena/arenabot"\n\nvar _ arenabot.Bot\n\n'
                                       'func main() {}\n')
        env = {"PATH": "/usr/bin:/bin", "HOME": scratch, "TMPDIR": scratch, "GO111MODULE": "off",
               "GOPATH": f"{target / 'gopath'}:{GO_LIBRARIES}", "GOFLAGS": "-trimpath",
               "GOCACHE": str(target / "cache-seed"), "GOTOOLCHAIN": "local", "GOTELEMETRY": "off"}
        _run(["/usr/bin/go", "build", "-o", str(probe / "probe"), "."], log, cwd=probe, env=env)
    (target / STAMP).write_text(stamp)


def _copy_tree(source: Path, dest: Path) -> None:
    """Copy a runtime's folder: hard links where the file system allows (runtimes are never written in place),
    else copies."""
    def link_or_copy(src: str, dst: str) -> None:
        try:
            os.link(src, dst)
        except OSError:
            shutil.copy2(src, dst)

    shutil.copytree(source, dest, symlinks=True, copy_function=link_or_copy)


INSTALLERS = {"python": install_python, "node": install_node, "cpp": install_cpp}


def install(kinds: tuple[str, ...] = KINDS, force: bool = False,
            log: Callable[[str], None] = print) -> dict[str, str]:
    """Build (or leave alone, when up to date) each runtime; returns runtime -> "installed" | "up to date"."""
    with _install_lock():
        return {kind: INSTALLERS[kind](force=force, log=log) for kind in kinds}


if __name__ == "__main__":  # pragma: no cover
    print(install(force="--force" in sys.argv))
