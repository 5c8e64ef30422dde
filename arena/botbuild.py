"""Building a `binary` bot from source: the manifest's `build` command, run in a sandbox like the bot itself.

    build_needed(manifest) -> str | None     why the declared program must be (re)built, or None when fresh
    build(path, sandbox=True) -> BuildResult raises BuildError, in a bot author's words, when the build fails
    ensure_built(path, sandbox=True)         builds only when build_needed says so (under a lock)

The declared program is the first word of `command` (e.g. "build/bot"), a file in the bot's folder. It is fresh
when it exists and neither another file of the package nor the build kit is newer; a build ends by touching it, so
whatever the build wrote before (objects, generated code) counts as older.

The build kit is the `cpp` runtime (arena.sandbox.runtimes: the C++ kit's `arena.mk` and `arena_bot.hpp` and the
protocol's `.proto` files), bound read-only at /runtime in the build's sandbox, so a bot's folder holds only its
own sources and its Makefile says `include $(ARENA_KIT)/arena.mk`. `ARENA_KIT` is /runtime in the sandbox and the
runtime's host path in a build without one, so the same Makefile serves both.

A sandboxed build never writes to the bot's folder itself. The folder is copied (timestamps kept, so `make`
rebuilds only what changed) into a scratch tmpfs of `SCRATCH_MB`, handed to the build's unprivileged uid and
bound read-write at /bot; the build runs there with no network, only /usr and the kit visible, the limits of
`BUILD_LIMITS` and a wall-clock limit. Only when it succeeds, made the declared program and passes every check of
its output is anything copied back: at most `OUTPUT_MAX_BYTES` and `OUTPUT_MAX_FILES` of regular files created or
changed (never set-id bits); a hard-linked file, a fifo, socket or device, a symbolic link pointing out of the
folder, or a changed `bot.toml` (what validation read) refuses the whole build. Symbolic links inside the folder
are not copied. So a failed or hostile build leaves the folder as it was, and can write nowhere else: the rest of
the sandbox is read-only or private (/tmp).

The build cache. A compiler's cache (Go's GOCACHE; a Makefile's own objects need none: they come back with the
output) is kept for each bot between its builds and versions, in a folder of the host only root can read
(`cache_dir`: the platform keeps one per bot, a local build one per bot folder under `default_cache_root()`). It is
copied into the scratch tmpfs (so its growth counts against the scratch's size), handed to the build's uid with
the rest, named by `ARENA_BUILD_CACHE` (/bot/.arena-cache; never part of the output), and copied back after a
build that succeeded, or that ran out of time (so that trying again goes further; the platform's "validate
again"); after a failed build it is dropped, so a failing build keeps nothing on the host. Regular files and
folders only, and dropped whole when it exceeds `CACHE_MAX_MB` or `CACHE_MAX_FILES` (the kit's seed starts it
again). Its size is recorded beside it (`<cache>.size`), and `evict_caches` keeps a group of caches (all those of
a machine, all those of one owner on the platform) under a total, least recently used first, as the package
cache does: after each build, the caches beside its own (every cache of the machine: the platform keeps them
in one folder, `arena bot build` too) to `CACHES_MAX_MB` in all; the platform also bounds each owner's.

The time limit is `ARENA_BUILD_TIMEOUT` (seconds, default 120) of the machine that builds, or the `timeout`
argument (`arena bot build --timeout`); a time-out raises BuildError with `timed_out` set, a transient failure the
platform lets an owner validate again without a new upload.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import signal
import stat
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from arena import sandbox as sandboxes
from arena.botarchive import MAX_DEPTH, ArchiveError, safe_name
from arena.botpkg import Manifest, load_manifest, package_files
from arena.sandbox import SandboxLimits, launch, runtimes

DEFAULT_BUILD_TIMEOUT_S = 120.0
TIMEOUT_ENV = "ARENA_BUILD_TIMEOUT"


def build_timeout() -> float:
    """The build time limit of this machine: ARENA_BUILD_TIMEOUT seconds, else DEFAULT_BUILD_TIMEOUT_S."""
    raw = os.environ.get(TIMEOUT_ENV, "").strip()
    if not raw:
        return DEFAULT_BUILD_TIMEOUT_S
    try:
        value = float(raw)
    except ValueError:
        raise ValueError(f"{TIMEOUT_ENV}={raw!r} is not a number of seconds") from None
    if not 0 < value <= 24 * 3600:
        raise ValueError(f"{TIMEOUT_ENV}={raw!r}: the build time limit must be between 0 and 86400 seconds")
    return value


BUILD_TIMEOUT_S = build_timeout()  # at import: the CLI's default for --timeout
TRUSTED_TIMEOUT_ENV = "ARENA_TRUSTED_BUILD_TIMEOUT"
DEFAULT_TRUSTED_TIMEOUT_S = 3600.0


def trusted_build_timeout() -> float:
    """The time limit of the project's own bots' builds (the built-in bots: trusted code, never held to the
    limit for strangers' uploads, which a cold C++ build on a busy machine passes): ARENA_TRUSTED_BUILD_TIMEOUT
    seconds, else an hour, so that a hung build still ends. scripts/build-image uses the same setting."""
    raw = os.environ.get(TRUSTED_TIMEOUT_ENV, "").strip()
    try:
        value = float(raw) if raw else DEFAULT_TRUSTED_TIMEOUT_S
    except ValueError:
        raise ValueError(f"{TRUSTED_TIMEOUT_ENV}={raw!r} is not a number of seconds") from None
    return value if value > 0 else DEFAULT_TRUSTED_TIMEOUT_S
# A C++ compiler on generated protobuf code wants several hundred MB and many temporary files; one core only.
BUILD_LIMITS = SandboxLimits(memory_mb=2048, address_space_mb=8192, pids=128, cpu_rate=1.0, cpu_seconds=300,
                             tmp_mb=512, file_mb=512, open_files=1024)
SCRATCH_MB = 1024
SCRATCH_INODES = 50_000
# What a build may add to the bot's folder (copied into storage): a C++ bot's objects and program are a few MB.
OUTPUT_MAX_BYTES = 200 * 1024 * 1024
OUTPUT_MAX_FILES = 2_000  # files and folders created or changed
OUTPUT_MAX_DEPTH = MAX_DEPTH  # folders below the bot's folder: an upload's bound (arena.botarchive)
OUTPUT_MAX_PATH = 1024    # characters of a path relative to the bot's folder (the host's limit is 4096 in all)
LOG_BYTES = 16_000
LAST_LINES = 25
KIT = "cpp"  # the runtime bound at /runtime while building (the C++ kit, with the Go kit in go/)
CACHE_NAME = ".arena-cache"  # the build cache's folder in the scratch copy (ARENA_BUILD_CACHE=/bot/.arena-cache)
CACHE_MAX_MB = 400    # a Go bot's cache is ~110 MB (grpc-go and the protocol compiled, from the kit's seed)
CACHE_MAX_FILES = 20_000
CACHE_ENV = "ARENA_BUILD_CACHE_DIR"
CACHES_MAX_MB = 2048  # every cache beside a local build's own (default_cache_root()), together
SIZE_SUFFIX = ".size"  # beside a cache: its bytes, as recorded when it was saved


class BuildError(RuntimeError):
    """A build that failed, timed out, or did not make the declared program; the message says which, with the
    build's last output lines."""

    def __init__(self, message: str, log: str = "", *, refused: bool = False, timed_out: bool = False) -> None:
        super().__init__(message)
        self.log = log
        self.refused = refused  # the build ran but what it left breaks a rule of its output
        self.timed_out = timed_out  # stopped by the time limit: transient, worth trying again as it is


@dataclass
class BuildResult:
    program: Path       # the built program, in the bot's folder
    seconds: float      # wall-clock time of the build command
    log: str            # the last LOG_BYTES of what the build printed
    copied: int         # files the build created or changed, copied back into the folder


def program_path(manifest: Manifest) -> Path | None:
    """The file `command` starts, in the bot's folder; None when the command names a program of /usr."""
    program = manifest.command[0]
    if program.startswith("/bot/"):
        program = program[len("/bot/"):]
    elif program.startswith("/") or "/" not in program:
        return None
    return manifest.path / program


def build_needed(manifest: Manifest) -> str | None:
    """Why the bot must be built before it can play, or None (no `build` declared, or the program is fresh)."""
    if not manifest.build:
        return None
    program = program_path(manifest)
    if program is None:
        return None
    try:
        built = program.stat().st_mtime_ns
    except FileNotFoundError:
        return f"{program.relative_to(manifest.path)} does not exist yet"
    try:
        # the kit's stamp is rewritten only when the kit was rebuilt (a changed arena.mk, header or .proto)
        if (runtimes.runtime_path(KIT) / runtimes.STAMP).stat().st_mtime_ns >= built:
            return f"the build kit ({runtimes.runtime_path(KIT)}) is newer than {program.relative_to(manifest.path)}"
    except FileNotFoundError:
        pass  # the build itself will say that the kit is missing
    for rel in package_files(manifest.path):
        path = manifest.path / rel
        # >=: file times tick in steps of a few ms, so an edit right after a build can carry the same time
        if path != program and path.stat().st_mtime_ns >= built:
            return f"{rel} is newer than {program.relative_to(manifest.path)}"
    return None


def _mark_fresh(manifest: Manifest, program: Path) -> None:
    """Make `program` strictly the newest file of the package (now, or just after the newest other file)."""
    newest = max((manifest.path / rel).stat().st_mtime_ns for rel in package_files(manifest.path))
    stamp = max(time.time_ns(), newest + 1000)
    os.utime(program, ns=(stamp, stamp))


def ensure_built(path: str | os.PathLike, *, sandbox: bool = True, timeout: float | None = None,
                 cache_dir: Path | None = None) -> BuildResult | None:
    """Build the bot at `path` if `build_needed`; None when nothing had to be done. Concurrent callers (two test
    sessions, two workers) wait for one build instead of racing. `timeout` (None: `build_timeout()`) and
    `cache_dir` (None: the folder's own under `default_cache_root()`) as for `build`."""
    manifest = load_manifest(path)
    if build_needed(manifest) is None:
        return None
    with _folder_lock(manifest.path):
        if build_needed(manifest) is None:
            return None  # built meanwhile by whoever held the lock
        return _build(manifest, sandbox=sandbox, timeout=timeout, cache_dir=cache_dir)


def build(path: str | os.PathLike, *, sandbox: bool = True, timeout: float | None = None,
          cache_dir: Path | None = None) -> BuildResult:
    """Run the manifest's `build` command for the bot at `path` (sandboxed unless sandbox=False, which runs it
    in the folder itself as the current user, with the bot's build cache used in place) and check that it made the
    declared program. `timeout`: seconds (None: `build_timeout()`); `cache_dir`: the bot's build cache, kept between builds
    (None: `default_cache_dir(path)`)."""
    manifest = load_manifest(path)
    with _folder_lock(manifest.path):
        return _build(manifest, sandbox=sandbox, timeout=timeout, cache_dir=cache_dir)


def default_cache_root() -> Path:
    """Where local builds keep one cache per bot folder: ARENA_BUILD_CACHE_DIR, else .runtime/build-cache."""
    raw = os.environ.get(CACHE_ENV)
    return Path(raw).resolve() if raw else runtimes.runtime_root() / "build-cache"


def default_cache_dir(path: str | os.PathLike) -> Path:
    """The build cache of the bot folder at `path` (keyed by its real path) under `default_cache_root()`."""
    import hashlib

    key = hashlib.sha256(str(Path(path).resolve()).encode()).hexdigest()[:24]
    return default_cache_root() / key


def _timeout_error(timeout: float, log: str) -> BuildError:
    return BuildError(
        f"the build took longer than {timeout:g} s and was stopped. The limit is the setting {TIMEOUT_ENV} "
        f"(seconds) of the machine that builds; locally `arena bot build --timeout SECONDS`, or {TIMEOUT_ENV}="
        f"SECONDS before `arena play` / `arena bot check`, raises it. What the build compiled is kept in the bot's "
        f"build cache, so building again goes further (on the platform: the version's \"validate again\")"
        f"{_last_lines(log)}", log, timed_out=True)


def _build(manifest: Manifest, *, sandbox: bool, timeout: float | None,
           cache_dir: Path | None = None) -> BuildResult:
    if timeout is None:
        timeout = build_timeout()
    if not manifest.build:
        raise BuildError(f"{manifest.path}: bot.toml declares no `build` command (e.g. build = [\"make\"]), so "
                         f"there is nothing to build")
    program = program_path(manifest)
    if sandbox:
        seconds, log, copied = _run_sandboxed(manifest, timeout,
                                              cache_dir or default_cache_dir(manifest.path))
    else:
        seconds, log, copied = _run_plain(manifest, timeout, cache_dir or default_cache_dir(manifest.path))
    if program is not None:
        rel = program.relative_to(manifest.path)
        if not program.is_file():
            raise BuildError(f"the build succeeded but did not make {rel}, the program bot.toml's `command` "
                             f"starts{_last_lines(log)}", log)
        if not os.access(program, os.X_OK):
            raise BuildError(f"the build made {rel} but it is not executable", log)
        _mark_fresh(manifest, program)  # fresh until a source changes
    return BuildResult(program=program or manifest.path, seconds=seconds, log=log, copied=copied)


def _kit() -> Path:
    """The build kit's host path; raises runtimes.RuntimeMissing (`arena runtimes install`) when it is not built."""
    kit = runtimes.runtime_path(KIT)
    if not (kit / runtimes.STAMP).is_file():
        raise runtimes.RuntimeMissing(KIT, kit)
    return kit


def _build_words(manifest: Manifest) -> tuple[str, ...]:
    """The manifest's `build` command (callers run only after `build` has checked that there is one)."""
    if not manifest.build:
        raise BuildError("bot.toml has no `build` command")
    return manifest.build


def _run_plain(manifest: Manifest, timeout: float, cache_dir: Path) -> tuple[float, str, int]:
    cache_dir.mkdir(parents=True, exist_ok=True, mode=0o700)  # used in place: the build is trusted here
    env = {**os.environ, "ARENA_KIT": str(_kit()), "ARENA_BUILD_CACHE": str(cache_dir)}
    t0 = time.monotonic()
    try:
        # a session of its own: a timeout kills make and every compiler it started, not make alone
        proc = subprocess.Popen(list(_build_words(manifest)), cwd=manifest.path, stdin=subprocess.DEVNULL, env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    except FileNotFoundError:
        raise BuildError(f"the build command {_build_words(manifest)[0]!r} does not exist on this machine") from None
    try:
        output, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        output, _ = proc.communicate()
        log = output.decode(errors="replace")[-LOG_BYTES:]
        raise _timeout_error(timeout, log) from None
    seconds = time.monotonic() - t0
    log = output.decode(errors="replace")[-LOG_BYTES:]
    if proc.returncode != 0:
        raise BuildError(_failure(manifest, f"exited with code {proc.returncode}", log), log)
    return seconds, log, 0


def _run_sandboxed(manifest: Manifest, timeout: float, cache_dir: Path) -> tuple[float, str, int]:
    # SandboxUnavailable, in words, before the scratch tmpfs needs root; looked up on the package at each call, like
    # every other caller's, so that one answer (or one test's stand-in) never sticks to this module alone
    sandboxes.check_available()
    _kit()
    with _Scratch() as scratch:
        _copy_in(manifest.path, scratch.path)
        cache = scratch.path / CACHE_NAME
        if cache.is_symlink() or cache.is_file():  # a package's own .arena-cache is not the cache
            cache.unlink()
        shutil.rmtree(cache, ignore_errors=True)
        try:
            with _cache_lock(cache_dir):  # two builds of one bot at once: each copies a whole cache
                complete = _copy_cache(cache_dir, cache) is not None
                if complete:
                    os.utime(cache_dir)  # used now: the last to be evicted (evict_caches)
        except OSError:
            complete = False
        if not complete:
            shutil.rmtree(cache, ignore_errors=True)
            cache.mkdir()
        t0 = time.monotonic()
        proc = launch(scratch.path, list(_build_words(manifest)), KIT, BUILD_LIMITS, sandbox=True,
                      env={"ARENA_KIT": "/runtime", "ARENA_BUILD_CACHE": f"/bot/{CACHE_NAME}"},
                      writable_bot_dir=True)
        keep_cache = False  # a failed build's cache is dropped: only a success (or a time-out) keeps one
        try:
            deadline = t0 + timeout
            while proc.poll() is None and time.monotonic() < deadline:
                time.sleep(0.05)
            rc = proc.poll()
            seconds = time.monotonic() - t0
            if rc is None:
                proc.close()
                log = proc.output_tail(LOG_BYTES)
                keep_cache = True  # what it compiled lets the next try go further (the platform's "validate again")
                raise _timeout_error(timeout, log)
            proc.close()
            log = proc.output_tail(LOG_BYTES)
            if rc != 0:
                if rc == 127 and "exec " in log and "No such file" in log:
                    raise BuildError(f"the build command {_build_words(manifest)[0]!r} does not exist in the build's "
                                     f"sandbox, where only /usr, the build kit (at /runtime) and your folder (at "
                                     f"/bot) are visible: name a program of /usr/bin (e.g. make) or a script in "
                                     f"your folder", log)
                reason = proc.exit_reason() or f"exited with code {rc}"
                raise BuildError(_failure(manifest, reason, log), log)
            keep_cache = True
        finally:
            proc.close()
            try:
                with _cache_lock(cache_dir):
                    _save_cache(cache if keep_cache else None, cache_dir)
            except OSError:
                shutil.rmtree(cache_dir, ignore_errors=True)  # a cache is an optimisation: never the build's fault
            # every cache of this machine together (those beside this one), least recently used out first
            evict_caches(caches_in(cache_dir.parent), CACHES_MAX_MB * 1024 * 1024, keep=cache_dir)
        shutil.rmtree(cache, ignore_errors=True)
        plan = _output_plan(scratch.path, manifest, log)
        return seconds, log, _copy_back(scratch.path, manifest.path, plan)


def walk_tree(root: Path) -> Iterator[tuple[Path, os.stat_result]]:
    """Every entry below `root`: (path relative to it, its lstat), a folder before what it holds, names sorted,
    never following a symbolic link. Iterative, so no depth exhausts the stack; lazy, so a caller that stops at a
    bound (files, bytes, depth) has listed no more than it looked at. The one walk of a build's trees: the cache
    copied in and out (`_copy_cache`) and the output checked (`_output_plan`)."""
    pending = [Path()]
    while pending:
        folder = pending.pop()
        with os.scandir(root / folder) as listing:
            entries = sorted((entry.name, entry.stat(follow_symlinks=False)) for entry in listing)
        for name, st in entries:
            yield folder / name, st
            if stat.S_ISDIR(st.st_mode):
                pending.append(folder / name)


def _copy_cache(source: Path, dest: Path) -> int | None:
    """Copy the cache tree `source` to the new folder `dest`: folders and regular files only (never following or
    copying a symlink, a fifo or a device), at most CACHE_MAX_MB and CACHE_MAX_FILES. Returns the bytes copied;
    None (and `dest` partly made) when `source` is over the bounds or missing: the caller drops it then."""
    try:
        if not stat.S_ISDIR(source.lstat().st_mode):
            return None
    except FileNotFoundError:
        return None
    total = files = 0
    dest.mkdir(mode=0o700)
    for rel, st in walk_tree(source):
        files += 1
        if files > CACHE_MAX_FILES:
            return None
        if stat.S_ISDIR(st.st_mode):
            (dest / rel).mkdir(mode=0o700)
        elif stat.S_ISREG(st.st_mode):
            total += st.st_size
            if total > CACHE_MAX_MB * 1024 * 1024:
                return None
            fd = os.open(source / rel, os.O_RDONLY | os.O_NOFOLLOW)
            with os.fdopen(fd, "rb") as data, open(dest / rel, "xb") as out:
                shutil.copyfileobj(data, out)
            os.chmod(dest / rel, 0o600 | (st.st_mode & 0o100))
            os.utime(dest / rel, ns=(st.st_atime_ns, st.st_mtime_ns))
    return total


class _cache_lock:
    """An exclusive lock on a bot's build cache (a lock file beside it) while it is copied in, replaced or
    evicted. With `wait=False` it is not waited for: `held` says whether it was taken."""

    def __init__(self, cache_dir: Path, wait: bool = True) -> None:
        self.path = cache_dir.with_name(cache_dir.name + ".lock")
        self.wait = wait
        self.held = False

    def __enter__(self) -> _cache_lock:
        self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600)
        try:
            fcntl.flock(self.fd, fcntl.LOCK_EX | (0 if self.wait else fcntl.LOCK_NB))
            self.held = True
        except BlockingIOError:
            pass
        return self

    def __exit__(self, *exc: object) -> None:
        if self.held:
            fcntl.flock(self.fd, fcntl.LOCK_UN)
        os.close(self.fd)


def _save_cache(scratch_cache: Path | None, cache_dir: Path) -> None:
    """Replace the bot's cache `cache_dir` by what the build left in `scratch_cache` (owned by root, 0700: only
    this bot's next build sees it) and record its size beside it; remove it when that is over the bounds, or when
    `scratch_cache` is None (a failed build)."""
    cache_dir.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fresh = cache_dir.with_name(cache_dir.name + ".new")
    shutil.rmtree(fresh, ignore_errors=True)
    try:
        size = None if scratch_cache is None else _copy_cache(scratch_cache, fresh)
    except OSError:
        size = None
    old = cache_dir.with_name(cache_dir.name + ".old")
    shutil.rmtree(old, ignore_errors=True)
    if cache_dir.exists():
        cache_dir.rename(old)
    record = _size_record(cache_dir)
    record.unlink(missing_ok=True)
    if size is not None and any(fresh.iterdir()):  # an empty cache (a build that uses none) leaves nothing behind
        fresh.rename(cache_dir)
        record.write_text(str(size))
    shutil.rmtree(fresh, ignore_errors=True)
    shutil.rmtree(old, ignore_errors=True)


def _size_record(cache_dir: Path) -> Path:
    return cache_dir.with_name(cache_dir.name + SIZE_SUFFIX)


def cache_size(cache_dir: Path) -> int:
    """The bytes of the cache at `cache_dir` as recorded when it was saved; 0 when there is none."""
    try:
        return int(_size_record(cache_dir).read_text()) if cache_dir.is_dir() else 0
    except (OSError, ValueError):
        return 0


def evict_caches(caches: list[Path], max_bytes: int, keep: Path | None = None) -> list[Path]:
    """Remove caches of `caches` (build cache folders, e.g. every cache of a machine or of one owner), least
    recently used first (the folder's time: set at each build that uses it), until together they hold at most
    `max_bytes`; never `keep` (the cache a build just saved) nor a cache a build is using (its lock is held: it is
    skipped). Returns the caches removed."""
    present = []
    for cache in caches:
        try:
            present.append((cache.stat().st_mtime, str(cache), cache_size(cache)))
        except FileNotFoundError:
            continue
    total = sum(size for _, _, size in present)
    removed = []
    for _, name, size in sorted(present):
        if total <= max_bytes:
            break
        cache = Path(name)
        if keep is not None and cache == keep:
            continue
        with _cache_lock(cache, wait=False) as lock:
            if not lock.held:
                continue
            trash = cache.with_name(cache.name + ".old")
            shutil.rmtree(trash, ignore_errors=True)
            try:
                cache.rename(trash)
            except FileNotFoundError:
                continue  # removed meanwhile (a failed build of its bot)
            _size_record(cache).unlink(missing_ok=True)
        shutil.rmtree(trash, ignore_errors=True)
        total -= size
        removed.append(cache)
    return removed


def caches_in(root: Path) -> list[Path]:
    """The build caches directly in `root` (folders with a size record beside them)."""
    try:
        return [p.with_name(p.name[:-len(SIZE_SUFFIX)]) for p in root.iterdir() if p.name.endswith(SIZE_SUFFIX)]
    except FileNotFoundError:
        return []


def _failure(manifest: Manifest, reason: str, log: str) -> str:
    first_error = next((line.strip() for line in log.splitlines()
                        if " error:" in line or line.startswith("error:") or "fatal error" in line), None)
    text = f"the build ({' '.join(manifest.build or ())}) failed: {reason}"
    if first_error:
        text += f"\nfirst error: {first_error}"
    return text + _last_lines(log)


def _last_lines(log: str) -> str:
    lines = log.rstrip().splitlines()[-LAST_LINES:]
    if not lines:
        return " (it printed nothing)"
    return "\nits last lines were:\n" + "\n".join("    " + line for line in lines)


class _Scratch:
    """A private tmpfs of SCRATCH_MB for one build: the build's writes cannot fill the host's disk."""

    def __enter__(self) -> _Scratch:
        from arena.sandbox.mounts import MS_NODEV, MS_NOSUID, _mount

        self.parent = Path(tempfile.mkdtemp(prefix="arena-build-"))
        self.path = self.parent / "bot"
        self.path.mkdir()
        try:
            _mount("tmpfs", self.path, "tmpfs", MS_NOSUID | MS_NODEV,
                   f"size={SCRATCH_MB}m,nr_inodes={SCRATCH_INODES},mode=0755")
        except OSError:
            shutil.rmtree(self.parent, ignore_errors=True)
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        from arena.sandbox.mounts import MNT_DETACH, _libc

        _libc.umount2(str(self.path).encode(), MNT_DETACH)
        shutil.rmtree(self.parent, ignore_errors=True)


def _copy_in(source: Path, scratch: Path) -> None:
    for rel in package_files(source):
        target = scratch / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source / rel, target)  # times kept: make rebuilds only what changed


def _output_plan(scratch: Path, manifest: Manifest, log: str) -> list[tuple[Path, os.stat_result]]:
    """The regular files of the build's scratch folder to copy back (relative paths, created or changed), after
    checking the whole output; raises BuildError, and nothing is copied, when the output breaks a rule (see the
    module docstring). Never follows a symlink."""
    def refuse(why: str) -> BuildError:
        return BuildError(f"the build's output was refused: {why}", log, refused=True)

    manifest_file = manifest.path / "bot.toml"
    try:
        made = (scratch / "bot.toml").lstat()
        same = stat.S_ISREG(made.st_mode) and (scratch / "bot.toml").read_bytes() == manifest_file.read_bytes()
    except FileNotFoundError:
        same = False
    if not same:
        raise refuse("it changed or removed bot.toml; a build may not change the manifest validation read")
    plan: list[tuple[Path, os.stat_result]] = []
    total = entries = 0
    for rel, st in walk_tree(scratch):  # lazily: a refusal stops the walk where it stands
        if stat.S_ISDIR(st.st_mode) and len(rel.parts) > OUTPUT_MAX_DEPTH:
            raise refuse(f"its folders nest more than {OUTPUT_MAX_DEPTH} deep")
        if len(str(rel)) > OUTPUT_MAX_PATH:
            raise refuse(f"it made a path longer than {OUTPUT_MAX_PATH} characters")
        try:
            safe_name(str(rel))  # the uploads' rule: the stored package must unpack on every worker
        except ArchiveError as exc:
            raise refuse(f"it made a file whose name an upload could not hold ({exc})") from None
        src = scratch / rel
        if stat.S_ISDIR(st.st_mode):
            if not (manifest.path / rel).is_dir():
                entries += 1
        elif stat.S_ISLNK(st.st_mode):
            target = os.readlink(src)
            resolved = os.path.normpath(os.path.join("/bot", str(rel.parent), target))
            if target.startswith("/") or not (resolved + "/").startswith("/bot/"):
                raise refuse(f"{rel} is a symbolic link out of your folder (to {target!r})")
            continue  # a link inside the folder: not copied
        elif not stat.S_ISREG(st.st_mode):
            kind = ("a fifo" if stat.S_ISFIFO(st.st_mode) else "a socket" if stat.S_ISSOCK(st.st_mode)
                    else "a device")
            raise refuse(f"{rel} is {kind}; a build may leave only regular files and folders")
        elif st.st_nlink > 1:
            raise refuse(f"{rel} is a hard link ({st.st_nlink} names for one file); a build may not make "
                         f"hard links")
        else:
            try:
                have = (manifest.path / rel).lstat()
                if stat.S_ISREG(have.st_mode) and have.st_size == st.st_size and have.st_mtime == st.st_mtime:
                    continue  # unchanged
            except (FileNotFoundError, NotADirectoryError):
                pass
            plan.append((rel, st))
            entries += 1
            total += st.st_size
        if entries > OUTPUT_MAX_FILES:
            raise refuse(f"it made more than {OUTPUT_MAX_FILES} files and folders")
        if total > OUTPUT_MAX_BYTES:
            raise refuse(f"it made more than {OUTPUT_MAX_BYTES // (1024 * 1024)} MB of files")
    program = program_path(manifest)
    if program is not None:
        rel = program.relative_to(manifest.path)
        try:
            st = (scratch / rel).lstat()
        except (FileNotFoundError, NotADirectoryError):
            raise BuildError(f"the build succeeded but did not make {rel}, the program bot.toml's `command` "
                             f"starts{_last_lines(log)}", log) from None
        if not stat.S_ISREG(st.st_mode):
            raise refuse(f"{rel}, the program bot.toml's `command` starts, is not a regular file")
        if not st.st_mode & 0o111:
            raise BuildError(f"the build made {rel} but it is not executable", log)
    return plan


def _copy_back(scratch: Path, folder: Path, plan: list[tuple[Path, os.stat_result]]) -> int:
    """Copy the planned files into `folder`; returns how many. A path whose parent in `folder` is not a real
    directory inside it is skipped; a failure part way removes the files this copy created."""
    created: list[Path] = []
    try:
        for rel, st in plan:
            dest = folder / rel
            if not _real_directories(folder, rel.parent):
                continue
            existed = dest.exists()
            dest.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=dest.parent, prefix=".arena-build-")
            try:
                with os.fdopen(fd, "wb") as out, open(scratch / rel, "rb") as data:
                    shutil.copyfileobj(data, out)
                os.chmod(tmp, stat.S_IMODE(st.st_mode) & 0o777 | 0o444)  # no set-id bits; readable by the bot's uid
                os.utime(tmp, ns=(st.st_atime_ns, st.st_mtime_ns))
                os.replace(tmp, dest)
            except BaseException:
                Path(tmp).unlink(missing_ok=True)
                raise
            if not existed:
                created.append(dest)
    except BaseException:
        for path in created:
            path.unlink(missing_ok=True)
        raise
    return len(plan)


def _real_directories(folder: Path, rel: Path) -> bool:
    """True when every existing step of `folder/rel` below `folder` is a directory and not a symlink."""
    probe = folder
    for part in rel.parts:
        probe = probe / part
        if probe.is_symlink() or (probe.exists() and not probe.is_dir()):
            return False
    return True


class _folder_lock:
    """An exclusive lock on the bot's folder itself (flock on the directory: no lock file is left anywhere)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def __enter__(self) -> _folder_lock:
        self.fd = os.open(self.folder, os.O_RDONLY | os.O_DIRECTORY)
        fcntl.flock(self.fd, fcntl.LOCK_EX)
        return self

    def __exit__(self, *exc: object) -> None:
        fcntl.flock(self.fd, fcntl.LOCK_UN)
        os.close(self.fd)
