"""Starting one bot, watching it, explaining its death, and removing every trace of it.

One class per kind of bot process, both `BotProcess`es (what the referee uses):
- `SandboxedBot` (`launch(..., sandbox=True)`): the isolation chain of `arena.sandbox.bwrap`, with its own uid,
  cgroups (`arena.sandbox.cgroups`) and socket tmpfs;
- `PlainBot` (`sandbox=False`, for an author's own bot on their own machine): a plain child process with its
  socket in a private temporary directory.
Either way the bot finds its socket path in `ARENA_SOCKET`, and `close()` leaves nothing behind.
"""

from __future__ import annotations

import atexit
import logging
import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
import weakref
from abc import ABC, abstractmethod
from collections.abc import Sequence
from pathlib import Path
from typing import ClassVar

from arena.sandbox import bwrap, endpoint, runtimes, seccomp
from arena.sandbox.cgroups import BotCgroups
from arena.sandbox.cgroups import run_delays as cgroup_run_delays
from arena.sandbox.errors import SandboxUnavailable
from arena.sandbox.limits import SandboxLimits
from arena.sandbox.mounts import BotMounts
from arena.sandbox.output import OutputTail
from arena.sandbox.reap import kill_until_gone
from arena.sandbox.uids import UidLease, check_in_range, kill_uid, processes_of_uid, state_dir

SOCKET_NAME = "bot.sock"
log = logging.getLogger("arena.sandbox")

_SIGNAL_WORDS: dict[int, str] = {
    signal.SIGKILL: "killed (SIGKILL)",
    signal.SIGSEGV: "crashed with a segmentation fault (SIGSEGV)",
    signal.SIGABRT: "aborted (SIGABRT)",
    signal.SIGBUS: "crashed with a bus error (SIGBUS)",
    signal.SIGFPE: "crashed with an arithmetic error (SIGFPE)",
    signal.SIGILL: "crashed with an illegal instruction (SIGILL)",
    signal.SIGTERM: "terminated (SIGTERM)",
    signal.SIGPIPE: "killed by a broken pipe (SIGPIPE)",
}

TOOLS_DIR = Path("/usr/bin")
_available: bool = False
_live: weakref.WeakSet[BotProcess] = weakref.WeakSet()


@atexit.register
def _close_live_bots() -> None:
    """A referee that exits without closing its bots still leaves nothing behind (a killed one cannot: its
    leftovers are swept by the next launch on this host)."""
    for bot in list(_live):
        try:
            bot.close()
        except Exception:
            pass


def check_available() -> None:
    """Raise SandboxUnavailable, saying what is missing, unless this host can run untrusted bots safely."""
    global _available
    if _available:
        return
    advice = "Use --no-sandbox only to run your own bot on your own machine."
    for tool, package in (("bwrap", "bubblewrap"), ("setpriv", "util-linux"), ("dash", "dash")):
        if not (TOOLS_DIR / tool).exists():
            raise SandboxUnavailable(f"{tool} is not installed (apt-get install {package}); the sandbox needs it "
                                     f"to run untrusted bots. {advice}")
    if os.geteuid() != 0:
        raise SandboxUnavailable(f"the sandbox must run as root (to give each bot its own uid, cgroups and "
                                 f"socket directory). {advice}")
    for knob, meaning in (("/proc/sys/kernel/unprivileged_userns_clone", "unprivileged user namespaces are off"),
                          ("/proc/sys/user/max_user_namespaces", "user namespaces are off")):
        try:
            value = Path(knob).read_text().strip()
        except OSError:
            continue  # not this kernel's knob
        if value == "0":
            raise SandboxUnavailable(f"{meaning} ({knob} is 0): bubblewrap needs them to build a bot's sandbox; "
                                     f"set it to 1 with sysctl. {advice}")
    from arena.sandbox import cgroups
    cgroups.check()
    _probe(advice)
    _available = True


def _probe(advice: str) -> None:
    """Build one real sandbox around /usr/bin/true: what no configuration file tells (an AppArmor or seccomp
    policy of the host refusing user namespaces to bubblewrap, say) shows here, once per process."""
    with tempfile.TemporaryDirectory(prefix="arena-probe-") as empty:
        os.chmod(empty, 0o755)
        probe = SandboxedBot.start(Path(empty), ["/usr/bin/true"], None, None, SandboxLimits(), None)
        try:
            deadline = time.monotonic() + 10
            while probe.poll() is None and time.monotonic() < deadline:
                time.sleep(0.002)
            rc, output = probe.poll(), probe.output_tail().strip()
        finally:
            probe.close()
    if rc != 0:
        raise SandboxUnavailable(f"bubblewrap cannot build a sandbox on this host ({probe.exit_reason()}): "
                                 f"{output or 'no output'}. {advice}")


def launch(bot_dir: Path | str, command: list[str], runtime: str | None, limits: SandboxLimits,
           sandbox: bool = True, env: dict[str, str] | None = None,
           writable_bot_dir: bool = False) -> BotProcess:
    """Start `command` in `bot_dir`: a SandboxedBot, or a PlainBot when not `sandbox`. `runtime` is "python",
    "node", or None/"binary". Raises SandboxUnavailable (sandbox=True on a host that cannot sandbox),
    runtimes.RuntimeMissing, or FileNotFoundError for a missing folder; a bot that misbehaves once started is
    never a reason to raise.

    `writable_bot_dir=True` (for building a bot, arena.botbuild) binds the folder read-write at /bot and, when
    sandboxed, hands the folder and everything in it over to the bot's uid (chown) so that it can write there:
    pass a scratch copy, never a folder whose ownership matters."""
    bot_dir = Path(bot_dir).resolve()
    if not bot_dir.is_dir():
        raise FileNotFoundError(f"bot folder {bot_dir} does not exist")
    if not command:
        raise ValueError("empty bot command")
    if runtime == "binary":
        runtime = None
    runtime_dir = runtimes.runtime_path(runtime) if runtime else None
    if sandbox:
        check_available()
        if bot_dir.stat().st_mode & 0o005 != 0o005:
            raise PermissionError(f"bot folder {bot_dir} is not readable by the sandbox's unprivileged uid: make "
                                  "it world-readable (chmod -R a+rX)")
        if runtime is not None and runtime_dir is not None and not runtime_dir.is_dir():
            raise runtimes.RuntimeMissing(runtime, runtime_dir)
        return SandboxedBot.start(bot_dir, command, runtime, runtime_dir, limits, env, writable_bot_dir)
    return PlainBot.start(bot_dir, command, runtime, runtime_dir, limits, env)


def sweep_stale_slots() -> list[int]:
    """Remove what sandboxes of dead referees left (a referee killed before it could close its bots): for every
    bot slot whose uid nobody holds, kill its processes, remove its cgroups and mounts. Returns the uids swept.
    Cheap when there is nothing to do (two directory listings), so every launch does it."""
    names: set[str] = set()
    for directory, suffix in ((state_dir() / "mnt", ""), (state_dir() / "cgroups", ".json")):
        try:
            names.update(n[: len(n) - len(suffix)] for n in os.listdir(directory) if n.endswith(suffix))
        except FileNotFoundError:
            pass
    swept = []
    for name in sorted(names):
        if not name.isdigit():
            continue
        lease = UidLease.try_take(int(name))
        if lease is None:
            continue  # a live bot (or one being set up)
        clean = False
        try:
            cgroups = BotCgroups.from_record(name, state_dir()) or BotCgroups.locate(name)
            cgroups.thaw()  # a bot its referee left frozen would not die of the kill
            kill_uid(lease.uid, timeout=1.0)
            cgroups.kill_all(timeout=1.0)
            if cgroups.remove(timeout=1.0):
                cgroups.drop_record(state_dir())
            BotMounts(lease.uid).unmount_all()
            clean = not processes_of_uid(lease.uid, zombies=True) and not cgroups.exists()
            swept.append(lease.uid)
        except OSError as exc:
            log.warning("could not sweep the leftovers of sandbox uid %s: %s", name, exc)
        finally:
            lease.release(clean=clean)
    return swept


def _hand_over(folder: Path, uid: int) -> None:
    """chown `folder` and everything under it (symlinks themselves, never their targets) to `uid`."""
    os.chown(folder, uid, uid)
    for dirpath, dirnames, filenames in os.walk(folder):
        for name in dirnames + filenames:
            os.chown(os.path.join(dirpath, name), uid, uid, follow_symlinks=False)


class BotProcess(ABC):
    """One running bot: what the referee uses. Thread-safe enough for one referee thread plus `close()` from
    anywhere. Made by `launch` (a SandboxedBot or a PlainBot)."""

    sandboxed: ClassVar[bool]
    socket_path: str
    uid: int | None = None  # the bot's own uid (sandboxed only)

    def __init__(self, *, limits: SandboxLimits) -> None:
        self.limits = limits
        self.socket_path = ""
        self._pinned: endpoint.PinnedSocket | None = None
        self._popen: subprocess.Popen[bytes] | None = None
        self._output: OutputTail | None = None
        self._start_error: str | None = None
        self._returncode: int | None = None
        self._stopped_by_referee = False
        self._over_budget: float | None = None  # CPU seconds seen when the budget was found exceeded
        self._close_lock = threading.Lock()
        self.closed = False
        _live.add(self)

    # ---- start ---------------------------------------------------------------------------------------------

    def _start(self, argv: list[str], env: dict[str, str], cwd: str, pass_fds: Sequence[int] = ()) -> None:
        read_fd, write_fd = os.pipe()
        try:
            self._popen = subprocess.Popen(
                argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=write_fd, stderr=write_fd,
                pass_fds=tuple(pass_fds), start_new_session=True, close_fds=True)
        except OSError as exc:
            os.close(read_fd)
            self._start_error = f"could not start {argv[0]}: {exc.strerror}"
            self._returncode = 127
            return
        finally:
            os.close(write_fd)
        self._output = OutputTail(read_fd)

    # ---- the interface -------------------------------------------------------------------------------------

    def wait_for_socket(self, timeout: float) -> bool:
        """Wait until the bot accepts connections on its socket (a connect succeeds, which a bound socket that
        is not yet listening refuses), then pin it (`server_address`). False when `timeout` passes or the bot
        dies first; raises ForeignServer when the socket is not served by the bot's own sandbox (a symbolic
        link, a server of another uid or outside the bot's cgroup: arena.sandbox.endpoint)."""
        deadline = time.monotonic() + timeout
        delay = 0.0005
        while True:
            if self.poll() is not None:
                return False
            if self._pin_socket():
                return True
            if time.monotonic() >= deadline:
                return False
            time.sleep(min(delay, max(0.0, deadline - time.monotonic())))
            delay = min(delay * 1.5, 0.002)  # a bot takes ~100 ms to serve: look often, it costs ~50 µs

    def _pin_socket(self) -> bool:
        if self._pinned is None:
            directory, name = os.path.split(self.socket_path)
            self._pinned = self._pin(directory, name)
        return self._pinned is not None

    @abstractmethod
    def _pin(self, directory: str, name: str) -> endpoint.PinnedSocket | None:
        """The bot's socket pinned if it serves, with the checks this kind of bot gets (arena.sandbox.endpoint)."""

    @property
    def can_freeze(self) -> bool:
        """Whether `freeze` really stops the bot (sandboxed, on a host with a cgroup freezer)."""
        return False

    def freeze(self) -> None:
        """Stop every process of the bot until `thaw` (the referee does it between the bot's decisions, so that
        it cannot compute on the other seats' time). No-op for a plain bot or a host without a freezer."""
        return None  # a plain bot runs on (nothing to freeze it with)

    def thaw(self) -> None:
        """Let the bot run again after `freeze`."""
        return None

    @property
    def server_address(self) -> str:
        """Where to connect to the bot's server (a `/proc/self/fd/<n>` path naming its socket's inode), valid
        after `wait_for_socket` returned True and until `close()`. Never connect to `socket_path` itself: the
        bot controls what that name points to."""
        if self._pinned is None:
            raise RuntimeError("the bot's socket is not pinned: call wait_for_socket first")
        return self._pinned.address

    def poll(self) -> int | None:
        """The bot's exit code, or None while it runs. A death by signal N is 128 + N (as a shell reports it).
        A bot found over its CPU budget for the match is killed here."""
        if self._returncode is not None:
            return self._returncode
        if self._popen is None:
            return None
        rc = self._popen.poll()
        if rc is None:
            if self.over_cpu_budget():
                self._over_budget = self.cpu_seconds()
                self._kill()
                rc = self._popen.wait()
            else:
                return None
        self._record_exit(rc)
        return self._returncode

    def _record_exit(self, rc: int) -> None:
        if self._returncode is None:
            self._returncode = 128 - rc if rc < 0 else rc

    def exit_reason(self) -> str | None:
        """Why the bot is not running, in words for its author; None while it runs."""
        rc = self.poll()
        if rc is None:
            return None
        if self._start_error:
            return self._start_error
        limits = self.limits
        if self._over_budget is not None:
            return (f"CPU budget exceeded: used {self._over_budget:.1f} s of CPU, the match allows "
                    f"{limits.cpu_seconds} s")
        if self._oom_kills() > 0:
            return f"killed by the OOM killer (memory limit {limits.memory_mb} MB)"
        if self._stopped_by_referee:
            return "stopped by the referee"
        tail = self.output_tail(2000)
        if rc > 128:
            sig = rc - 128
            if sig == signal.SIGXCPU:
                return f"CPU time limit exceeded ({int(limits.cpu_seconds)} s per process, SIGXCPU)"
            if sig == signal.SIGXFSZ:
                return f"file size limit exceeded ({limits.file_mb} MB per file, SIGXFSZ)"
            try:
                name = signal.Signals(sig).name
            except ValueError:
                name = f"signal {sig}"
            return _SIGNAL_WORDS.get(sig, f"killed by {name}")
        if rc == 0:
            return "exited by itself with code 0"
        last_line = tail.strip().splitlines()[-1] if tail.strip() else ""
        if "MemoryError" in last_line:
            return (f"ran out of memory (MemoryError; memory limit {limits.memory_mb} MB, address space "
                    f"{limits.address_space_mb} MB), exit code {rc}")
        if self.sandboxed and rc in (1, 125) and tail.lstrip().startswith("bwrap:"):
            return "the sandbox could not start the bot: " + tail.strip().splitlines()[0][len("bwrap:"):].strip()
        return f"exited with code {rc}"

    def _oom_kills(self) -> int:
        """How many of the bot's processes the OOM killer killed (known for a sandboxed bot only)."""
        return 0

    @abstractmethod
    def cpu_seconds(self) -> float:
        """CPU time (user + system) of the bot and all its children since it started."""

    def run_delays(self) -> dict[int, float]:
        """thread id -> seconds it has waited for a CPU while runnable, for every thread of the bot now
        (arena.sandbox.cgroups.run_delays): what the host's other work took from the bot."""
        return {}

    def throttled_seconds(self) -> float:
        """Wall time in which the bot was held back by its CPU quota (sandboxed only)."""
        return 0.0

    def over_cpu_budget(self) -> bool:
        """True when the bot has used more CPU than `limits.cpu_seconds` allows for the whole match (the
        per-process RLIMIT_CPU resets in every child, so this is the check that holds for the bot as a whole)."""
        return self.cpu_seconds() > self.limits.cpu_seconds

    def output_tail(self, n_bytes: int = 4000) -> str:
        """The last `n_bytes` the bot printed on stdout or stderr."""
        if self._start_error and self._output is None:
            return self._start_error
        return self._output.tail(n_bytes) if self._output else ""

    @property
    def output(self) -> OutputTail | None:
        """What the bot prints, split by decision (`OutputTail.mark`, `segments`, `excerpt`); None if it never
        started."""
        return self._output

    @property
    def cgroups(self) -> BotCgroups | None:
        """The bot's cgroups (None when not sandboxed)."""
        return None

    @property
    def pid(self) -> int | None:
        return self._popen.pid if self._popen else None

    def close(self) -> None:
        """Kill the bot and everything it started, then remove every trace of it (its sandbox: cgroups, socket
        directory, uid). Idempotent; safe to call at any point, including on a half-started bot."""
        with self._close_lock:
            if self.closed:
                return
            self.closed = True
            try:
                if self._popen is not None:
                    if self._popen.poll() is None:
                        self._stopped_by_referee = self._returncode is None
                    self._kill()
                    try:
                        self._record_exit(self._popen.wait(timeout=10))
                    except subprocess.TimeoutExpired:
                        pass
                self._make_sure_all_dead()
                if self._output is not None:
                    self._output.join(2.0)
            finally:
                self._remove_traces()

    @abstractmethod
    def _kill(self) -> None:
        """Kill the bot and everything it started."""

    def _make_sure_all_dead(self) -> None:
        """After `_kill` and the wait for the bot's own process: nothing it started may be left."""
        return None  # a plain bot's process group is all it started

    def _remove_traces(self) -> None:
        if self._pinned is not None:
            self._pinned.close()  # it holds the socket's directory busy
            self._pinned = None

    def _kill_group(self) -> None:
        """SIGKILL the process group the bot's first process leads, while that process is not reaped: once it
        is, and its group is empty, the kernel may hand the number to another process (a pid namespace wraps at
        pid_max, 32768 on many hosts), whose group this would kill."""
        if self._popen is None or (self.sandboxed and self._popen.returncode is not None):
            return  # a sandboxed bot's other processes are all in its cgroups (`kill_all`)
        try:
            os.killpg(self._popen.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass

    def __enter__(self) -> BotProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        if not getattr(self, "closed", True):
            try:
                self.close()
            except Exception:
                pass


class SandboxedBot(BotProcess):
    """A bot in its sandbox: its own uid (leased), cgroups, socket tmpfs and binds, under bubblewrap + seccomp."""

    sandboxed = True

    def __init__(self, *, limits: SandboxLimits, lease: UidLease) -> None:
        try:
            check_in_range(lease.uid)  # never a uid another referee on this kernel may hand out
        except SandboxUnavailable:
            lease.release()
            raise
        super().__init__(limits=limits)
        self._lease = lease
        self.uid = lease.uid
        self._cgroups: BotCgroups | None = None
        self._mounts: BotMounts | None = None
        self._final_cpu: float | None = None
        self._final_oom_kills: int | None = None
        self._uid_clear = False  # close() saw no process of the uid left

    @classmethod
    def start(cls, bot_dir: Path, command: list[str], runtime: str | None, runtime_dir: Path | None,
              limits: SandboxLimits, env: dict[str, str] | None, writable_bot_dir: bool = False) -> SandboxedBot:
        sweep_stale_slots()
        proc = cls(limits=limits, lease=UidLease.acquire())
        try:
            if writable_bot_dir:
                _hand_over(bot_dir, proc.uid)
            mounts = proc._mounts = BotMounts(proc.uid)
            mounts.mount(bot_dir, runtime_dir)
            proc.socket_path = str(mounts.socket_dir / SOCKET_NAME)
            cgroups = proc._cgroups = BotCgroups.create(str(proc.uid), limits)
            cgroups.save_record(state_dir())
            filter_fd = seccomp.program_fd()
            try:
                argv = bwrap.command_line(
                    uid=proc.uid, limits=limits, command=command, runtime=runtime, bot_dir=str(mounts.bot_dir),
                    socket_dir=str(mounts.socket_dir), runtime_dir=str(mounts.runtime_dir) if runtime_dir else None,
                    env=env, seccomp_fd=filter_fd, bot_writable=writable_bot_dir)
                wrapper_env = {"PATH": "/usr/bin:/bin", "ARENA_CGROUP_PROCS": " ".join(cgroups.procs_files())}
                proc._start(argv, wrapper_env, cwd="/", pass_fds=[filter_fd] if filter_fd is not None else [])
            finally:
                if filter_fd is not None:
                    os.close(filter_fd)
        except BaseException:
            proc.close()
            raise
        return proc

    uid: int

    def _pin(self, directory: str, name: str) -> endpoint.PinnedSocket | None:
        cgroups = self._cgroups
        return endpoint.pin(directory, name, uid=self.uid,
                            in_cgroup=lambda pid: cgroups is not None and pid in cgroups.pids())

    @property
    def can_freeze(self) -> bool:
        return self._cgroups is not None and self._cgroups.can_freeze

    def freeze(self) -> None:
        if self._cgroups is not None and not self.closed:
            self._cgroups.freeze()

    def thaw(self) -> None:
        if self._cgroups is not None:
            self._cgroups.thaw()

    @property
    def cgroups(self) -> BotCgroups | None:
        return self._cgroups

    def run_delays(self) -> dict[int, float]:
        return self._cgroups.run_delays() if self._cgroups is not None and not self.closed else {}

    def throttled_seconds(self) -> float:
        return self._cgroups.throttled_seconds() if self._cgroups is not None and not self.closed else 0.0

    def _oom_kills(self) -> int:
        if self._final_oom_kills is not None:
            return self._final_oom_kills
        return self._cgroups.oom_kills() if self._cgroups is not None else 0

    def cpu_seconds(self) -> float:
        if self._final_cpu is not None:
            return self._final_cpu
        return self._cgroups.cpu_seconds() if self._cgroups is not None else 0.0

    def _kill(self) -> None:
        """SIGKILL every process in the bot's cgroups except the outer bwrap, which then reaps the sandbox's
        pid 1 (whose death takes the pid namespace down) and exits; killing bwrap first would leave the zombies
        to the host's init, which may reap them late."""
        popen, cgroups = self._popen, self._cgroups
        if popen is None:
            return
        wrapper = popen.pid
        if cgroups is not None:
            cgroups.thaw()  # a frozen process does not die until thawed (cgroup v1)
            # until bwrap exits; nothing inside yet means the wrapper is still before bwrap (dash, setpriv)
            kill_until_gone(lambda: [pid for pid in cgroups.pids() if pid != wrapper], timeout=2.0, pause=0.002,
                            done=lambda: popen.poll() is not None)
            try:
                popen.wait(timeout=0.5)
            except subprocess.TimeoutExpired:
                pass
        self._kill_group()
        if cgroups is not None:
            cgroups.kill_all()

    def _make_sure_all_dead(self) -> None:
        if self._cgroups is not None:
            self._cgroups.kill_all()
        self._uid_clear = self._wait_for_uid_gone()

    def _wait_for_uid_gone(self, timeout: float = 3.0) -> bool:
        """Make sure no process of the bot's uid is left, not even a zombie: the cgroups hold every descendant,
        but without tini as the sandbox's pid 1, a bot that exits by itself leaves bwrap's own init as a zombie
        for the host's init to reap in its own time (up to ~1-2 s here). One /proc scan when all is well.
        Zombies ignore the kill; anything alive (it should not be) dies of it."""
        return kill_until_gone(lambda: processes_of_uid(self.uid, zombies=True), timeout, pause=0.01)

    def _remove_traces(self) -> None:
        super()._remove_traces()
        errors: list[str] = []
        if self._cgroups is not None:
            # the cgroups, and their counts, are about to go
            self._final_cpu = self._cgroups.cpu_seconds()
            self._final_oom_kills = self._cgroups.oom_kills()
            try:
                if self._cgroups.remove():
                    self._cgroups.drop_record(state_dir())
                else:
                    errors.append(f"cgroups of {self._cgroups.name} still busy")
            except OSError as exc:
                errors.append(str(exc))
        if self._mounts is not None:
            try:
                self._mounts.unmount_all()
            except OSError as exc:
                errors.append(str(exc))
        if not self._uid_clear and processes_of_uid(self.uid, zombies=True):
            errors.append(f"processes of uid {self.uid} survived")
        # the next holder of the uid scans for (and kills) survivors unless the lease was left clean
        self._lease.release(clean=not errors)
        if errors:
            # a host problem (nothing a bot can cause once its processes are dead): said loudly, but a match
            # result is never lost for it; the next holder of the uid cleans up again before using it
            log.error("could not clean up bot sandbox of uid %s completely: %s", self.uid, "; ".join(errors))


class PlainBot(BotProcess):
    """An author's own bot run as a plain child process, in its own process group (`--no-sandbox`)."""

    sandboxed = False

    def __init__(self, *, limits: SandboxLimits, tmpdir: Path) -> None:
        super().__init__(limits=limits)
        self._tmpdir = tmpdir
        self._cpu = 0.0

    @classmethod
    def start(cls, bot_dir: Path, command: list[str], runtime: str | None, runtime_dir: Path | None,
              limits: SandboxLimits, env: dict[str, str] | None) -> PlainBot:
        tmp = Path(tempfile.mkdtemp(prefix="arena-bot-"))
        proc = cls(limits=limits, tmpdir=tmp)
        proc.socket_path = str(tmp / SOCKET_NAME)
        variables = dict(os.environ)
        if runtime_dir is not None and runtime_dir.is_dir():
            if runtime == "python":
                variables["PATH"] = f"{runtime_dir / 'bin'}:{variables.get('PATH', '/usr/bin:/bin')}"
                variables.pop("PYTHONHOME", None)
            elif runtime == "node":
                variables["NODE_PATH"] = str(runtime_dir / "node_modules")
        variables.update(env or {})
        variables["ARENA_SOCKET"] = proc.socket_path
        try:
            proc._start(command, variables, cwd=str(bot_dir))
        except BaseException:
            proc.close()
            raise
        return proc

    def _pin(self, directory: str, name: str) -> endpoint.PinnedSocket | None:
        # the author's own bot, in the referee's private directory: only links are refused
        return endpoint.pin(directory, name, uid=None, in_cgroup=None)

    def _record_exit(self, rc: int) -> None:
        if self._returncode is None:
            self._cpu = max(self._cpu, self._read_cpu())  # /proc forgets it once the bot is reaped
        super()._record_exit(rc)

    def cpu_seconds(self) -> float:
        if self._returncode is None:
            self._cpu = max(self._cpu, self._read_cpu())
        return self._cpu

    def run_delays(self) -> dict[int, float]:
        if self._popen is None or self._returncode is not None:
            return {}
        try:
            threads = [int(t) for t in os.listdir(f"/proc/{self._popen.pid}/task")]
        except OSError:
            return {}
        return cgroup_run_delays(threads)

    def _read_cpu(self) -> float:
        if self._popen is None:
            return 0.0
        try:
            fields = Path(f"/proc/{self._popen.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            return 0.0
        ticks = sum(int(x) for x in fields[11:15])  # utime stime cutime cstime
        return ticks / os.sysconf("SC_CLK_TCK")

    def _kill(self) -> None:
        """SIGKILL the bot's process group."""
        self._kill_group()

    def _remove_traces(self) -> None:
        super()._remove_traces()
        shutil.rmtree(self._tmpdir, ignore_errors=True)
