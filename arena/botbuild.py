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
`BUILD_LIMITS` and a wall-clock limit. Only when it succeeds are the regular files it created or changed copied back (never
symlinks, devices or set-id bits), so a failed or hostile build leaves the folder as it was, and can write
nowhere else: the rest of the sandbox is read-only or private (/tmp).
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
from dataclasses import dataclass
from pathlib import Path

from arena.botpkg import Manifest, load_manifest, package_files
from arena.sandbox import SandboxLimits, check_available, launch, runtimes

BUILD_TIMEOUT_S = 120.0
# A C++ compiler on generated protobuf code wants several hundred MB and many temporary files; one core only.
BUILD_LIMITS = SandboxLimits(memory_mb=2048, address_space_mb=8192, pids=128, cpu_rate=1.0, cpu_seconds=300,
                             tmp_mb=512, file_mb=512, open_files=1024)
SCRATCH_MB = 1024
SCRATCH_INODES = 50_000
LOG_BYTES = 16_000
LAST_LINES = 25
KIT = "cpp"  # the runtime bound at /runtime while building


class BuildError(RuntimeError):
    """A build that failed, timed out, or did not make the declared program; the message says which, with the
    build's last output lines."""

    def __init__(self, message: str, log: str = "") -> None:
        super().__init__(message)
        self.log = log


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


def ensure_built(path: str | os.PathLike, *, sandbox: bool = True,
                 timeout: float = BUILD_TIMEOUT_S) -> BuildResult | None:
    """Build the bot at `path` if `build_needed`; None when nothing had to be done. Concurrent callers (two test
    sessions, two workers) wait for one build instead of racing."""
    manifest = load_manifest(path)
    if build_needed(manifest) is None:
        return None
    with _folder_lock(manifest.path):
        if build_needed(manifest) is None:
            return None  # built meanwhile by whoever held the lock
        return _build(manifest, sandbox=sandbox, timeout=timeout)


def build(path: str | os.PathLike, *, sandbox: bool = True, timeout: float = BUILD_TIMEOUT_S) -> BuildResult:
    """Run the manifest's `build` command for the bot at `path` (sandboxed unless sandbox=False, which runs it
    in the folder itself as the current user) and check that it made the declared program."""
    manifest = load_manifest(path)
    with _folder_lock(manifest.path):
        return _build(manifest, sandbox=sandbox, timeout=timeout)


def _build(manifest: Manifest, *, sandbox: bool, timeout: float) -> BuildResult:
    if not manifest.build:
        raise BuildError(f"{manifest.path}: bot.toml declares no `build` command (e.g. build = [\"make\"]), so "
                         f"there is nothing to build")
    program = program_path(manifest)
    if sandbox:
        seconds, log, copied = _run_sandboxed(manifest, timeout)
    else:
        seconds, log, copied = _run_plain(manifest, timeout)
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


def _run_plain(manifest: Manifest, timeout: float) -> tuple[float, str, int]:
    env = {**os.environ, "ARENA_KIT": str(_kit())}
    t0 = time.monotonic()
    try:
        # a session of its own: a timeout kills make and every compiler it started, not make alone
        proc = subprocess.Popen(list(manifest.build), cwd=manifest.path, stdin=subprocess.DEVNULL, env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    except FileNotFoundError:
        raise BuildError(f"the build command {manifest.build[0]!r} does not exist on this machine") from None
    try:
        output, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        output, _ = proc.communicate()
        log = output.decode(errors="replace")[-LOG_BYTES:]
        raise BuildError(f"the build took longer than {timeout:g} s and was stopped{_last_lines(log)}", log)
    seconds = time.monotonic() - t0
    log = output.decode(errors="replace")[-LOG_BYTES:]
    if proc.returncode != 0:
        raise BuildError(_failure(manifest, f"exited with code {proc.returncode}", log), log)
    return seconds, log, 0


def _run_sandboxed(manifest: Manifest, timeout: float) -> tuple[float, str, int]:
    check_available()  # SandboxUnavailable, in words, before the scratch tmpfs needs root
    _kit()
    with _Scratch() as scratch:
        _copy_in(manifest.path, scratch.path)
        t0 = time.monotonic()
        proc = launch(scratch.path, list(manifest.build), KIT, BUILD_LIMITS, sandbox=True,
                      env={"ARENA_KIT": "/runtime"}, writable_bot_dir=True)
        try:
            deadline = t0 + timeout
            while proc.poll() is None and time.monotonic() < deadline:
                time.sleep(0.05)
            rc = proc.poll()
            seconds = time.monotonic() - t0
            if rc is None:
                proc.close()
                log = proc.output_tail(LOG_BYTES)
                raise BuildError(f"the build took longer than {timeout:g} s and was stopped{_last_lines(log)}",
                                 log)
            proc.close()
            log = proc.output_tail(LOG_BYTES)
            if rc != 0:
                if rc == 127 and "exec " in log and "No such file" in log:
                    raise BuildError(f"the build command {manifest.build[0]!r} does not exist in the build's "
                                     f"sandbox, where only /usr, the build kit (at /runtime) and your folder (at "
                                     f"/bot) are visible: name a program of /usr/bin (e.g. make) or a script in "
                                     f"your folder", log)
                reason = proc.exit_reason() or f"exited with code {rc}"
                raise BuildError(_failure(manifest, reason, log), log)
        finally:
            proc.close()
        return seconds, log, _copy_back(scratch.path, manifest.path)


def _failure(manifest: Manifest, reason: str, log: str) -> str:
    first_error = next((line.strip() for line in log.splitlines()
                        if " error:" in line or line.startswith("error:") or "fatal error" in line), None)
    text = f"the build ({' '.join(manifest.build)}) failed: {reason}"
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

    def __enter__(self) -> "_Scratch":
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


def _copy_back(scratch: Path, folder: Path) -> int:
    """Copy the regular files the build created or changed into `folder`; returns how many. Never follows a
    symlink, on either side: a path whose parent in `folder` is not a real directory inside it is skipped."""
    copied = 0
    for dirpath, dirnames, filenames in os.walk(scratch):
        dirnames[:] = [d for d in dirnames if not os.path.islink(os.path.join(dirpath, d))]
        for name in filenames:
            src = Path(dirpath, name)
            st = src.lstat()
            if not stat.S_ISREG(st.st_mode):
                continue
            rel = src.relative_to(scratch)
            dest = folder / rel
            try:
                have = dest.lstat()
                if stat.S_ISREG(have.st_mode) and have.st_size == st.st_size and have.st_mtime == st.st_mtime:
                    continue
            except FileNotFoundError:
                pass
            if not _real_directories(folder, rel.parent):
                continue
            dest.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=dest.parent, prefix=".arena-build-")
            try:
                with os.fdopen(fd, "wb") as out, open(src, "rb") as data:
                    shutil.copyfileobj(data, out)
                os.chmod(tmp, stat.S_IMODE(st.st_mode) & 0o777 | 0o444)  # no set-id bits; readable by the bot's uid
                os.utime(tmp, ns=(st.st_atime_ns, st.st_mtime_ns))
                os.replace(tmp, dest)
            except BaseException:
                Path(tmp).unlink(missing_ok=True)
                raise
            copied += 1
    return copied


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

    def __enter__(self) -> "_folder_lock":
        self.fd = os.open(self.folder, os.O_RDONLY | os.O_DIRECTORY)
        fcntl.flock(self.fd, fcntl.LOCK_EX)
        return self

    def __exit__(self, *exc: object) -> None:
        fcntl.flock(self.fd, fcntl.LOCK_UN)
        os.close(self.fd)
