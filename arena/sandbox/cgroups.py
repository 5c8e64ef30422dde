"""Control groups for one bot: memory, pids, CPU rate and CPU accounting.

Two layouts, detected at run time, each an implementation of one interface, `BotCgroups` (`BotCgroups.locate`
and `create` pick the host's):

- `CgroupsV1`, cgroup v1 (one hierarchy per controller under /sys/fs/cgroup/<controller>, as on the Debian hosts
  we run on). Each bot gets a child named `arena-<name>` under *this process's own* cgroup in every hierarchy
  (read from /proc/self/cgroup): the memory root may belong to someone else (a container manager), while our own
  cgroup is ours to subdivide.
- `CgroupsV2`, cgroup v2 (the unified hierarchy mounted at /sys/fs/cgroup, `cgroup.controllers` present there).
  The child is made under our own cgroup, whose `cgroup.subtree_control` must accept +memory +pids +cpu; where it
  does not (the "no internal processes" rule), the host is reported as unable to sandbox.

Freezing: the referee freezes a bot's cgroup between its decisions (`freeze`/`thaw`), so that nothing of the
bot runs on the other seats' time (v1: the `freezer` hierarchy's `freezer.state`, used when mounted; v2:
`cgroup.freeze`). A frozen v1 cgroup does not even die of SIGKILL until thawed, so every kill thaws first.

The bot's wrapper joins the cgroups itself, before it execs anything, by writing its pid into every path of
`procs_files()`; all of its descendants then inherit the limits and cannot leave (cgroupfs is not mounted in
the sandbox, and the bot's uid could not write there anyway).
"""

from __future__ import annotations

import errno
import json
import logging
import os
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from arena.sandbox.errors import SandboxUnavailable
from arena.sandbox.limits import SandboxLimits
from arena.sandbox.reap import kill_each, kill_until_gone

CGROUP_ROOT = Path(os.environ.get("ARENA_CGROUP_ROOT", "/sys/fs/cgroup"))
V1_CONTROLLERS = ("memory", "pids", "cpu", "cpuacct")
V1_OPTIONAL = ("freezer",)  # used when mounted: without it a bot is not frozen between its decisions
CFS_PERIOD_US = 100_000
# The CPU weight of the group holding every bot of this process's cgroup, in processes' worth: the kernel
# weighs that group against each process beside it (the referee, a worker, anything else on the host) as one
# entity, so at the default weight of one process sixteen bots starting at once shared what one busy process
# gets (the cause of start-up timeouts on a loaded host: issue 21). Each bot stays capped by its own quota
# (`SandboxLimits.cpu_rate`) and is frozen between its decisions, so the weight lets the bots of the matches a
# worker admitted (arena_site.admission) have the cores promised to them without letting them take more.
BOTS_WEIGHT = int(os.environ.get("ARENA_BOTS_CPU_WEIGHT", "64"))
PREFIX = "arena-"
log = logging.getLogger("arena.sandbox")


def is_v2() -> bool:
    """True when /sys/fs/cgroup is the unified (v2) hierarchy itself, not a v1 or hybrid layout."""
    return (CGROUP_ROOT / "cgroup.controllers").exists()


def _own_cgroups() -> dict[str, str]:
    """controller -> path of this process's cgroup in that hierarchy ("" names the v2 hierarchy)."""
    own: dict[str, str] = {}
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        _, controllers, path = line.split(":", 2)
        for controller in controllers.split(","):
            own[controller] = path
    return own


def _v1_hierarchies() -> dict[str, Path]:
    """controller -> directory of our own cgroup in its v1 hierarchy (cpu and cpuacct may be one directory)."""
    own = _own_cgroups()
    found: dict[str, Path] = {}
    for controller in V1_CONTROLLERS:
        mount = _v1_mount(controller)
        if mount is None or controller not in own:
            raise SandboxUnavailable(
                f"the cgroup v1 controller '{controller}' is not mounted under {CGROUP_ROOT}; the sandbox needs "
                "memory, pids, cpu and cpuacct cgroups (or a cgroup v2 host). Use --no-sandbox only for your "
                "own bot on your own machine.")
        found[controller] = _below(mount, own[controller])
    for controller in V1_OPTIONAL:
        mount = _v1_mount(controller)
        if mount is not None and controller in own:
            found[controller] = _below(mount, own[controller])
    return found


def _mount_roots() -> dict[str, str]:
    """mount point -> the path of the file system's tree mounted there (/proc/self/mountinfo's fourth field)."""
    roots: dict[str, str] = {}
    try:
        lines = Path("/proc/self/mountinfo").read_text().splitlines()
    except OSError:
        return roots
    for line in lines:
        fields = line.split()
        if len(fields) > 4:
            roots[fields[4].replace("\\040", " ")] = fields[3]
    return roots


def _below(mount: Path, own: str) -> Path:
    """The directory of our cgroup `own` (a path from /proc/self/cgroup) in the hierarchy mounted at `mount`.
    Usually `mount`/`own`; but a container (Docker on cgroup v1, sharing the host's cgroup namespace) sees only its
    own cgroup, /docker/<id>, mounted at /sys/fs/cgroup/<controller>, while /proc/self/cgroup still names the
    host's path: then our cgroup is the mount itself (or below it)."""
    root = _mount_roots().get(str(mount), "/")
    if root != "/" and (own == root or own.startswith(root.rstrip("/") + "/")):
        own = own[len(root):]
    return mount / own.lstrip("/")


def _v1_mount(controller: str) -> Path | None:
    for candidate in (CGROUP_ROOT / controller, CGROUP_ROOT / "cpu,cpuacct", CGROUP_ROOT / "cpuacct,cpu"):
        if controller in candidate.name.split(",") and (candidate / "cgroup.procs").exists():
            return candidate.resolve()
    return None


def _v2_base() -> Path:
    return _below(CGROUP_ROOT, _own_cgroups().get("", "/"))


def sandboxes_prefix() -> tuple[str, str]:
    """Where every bot this process starts lives, as /proc/<pid>/cgroup names it: (the hierarchy's controller,
    "pids" on v1 and "" for v2; the path prefix, `<this process's cgroup>/arena/`). A process of a bot's uid
    outside it is not one of ours: another deployment on this kernel (a container, seen from the host) that was
    handed the same uid (arena.sandbox.uids.processes_of_uid)."""
    key = "" if is_v2() else "pids"
    return key, _own_cgroups().get(key, "/").rstrip("/") + "/arena/"


def in_sandboxes(pid: int, prefix: tuple[str, str]) -> bool:
    """Whether process `pid` is in a cgroup under `prefix` (`sandboxes_prefix()`); False when it is gone."""
    key, path_prefix = prefix
    try:
        lines = Path(f"/proc/{pid}/cgroup").read_text().splitlines()
    except OSError:
        return False
    for line in lines:
        _, controllers, path = line.split(":", 2)
        if (key in controllers.split(",")) if key else controllers == "":
            return path.rstrip("/").startswith(path_prefix)
    return False


def check() -> None:
    """Raise SandboxUnavailable unless this process can make per-bot cgroups here (tried for real, once: a
    probe cgroup is made with every limit set, then removed)."""
    _layout().check_host()
    probe = BotCgroups.create(f"probe-{os.getpid()}", SandboxLimits())
    probe.remove()


def _write(path: Path, value: str | int) -> None:
    with open(path, "w") as f:
        f.write(str(value))


def _read(path: Path) -> str:
    try:
        return path.read_text()
    except OSError:
        return ""


def _first_value(text: str, key: str) -> int | None:
    """The value of `key` in a flat-keyed cgroup file ("key value" lines), None when absent."""
    for line in text.splitlines():
        name, _, value = line.partition(" ")
        if name == key:
            return int(value)
    return None


@dataclass
class BotCgroups(ABC):
    """The cgroups of one bot. Create with `BotCgroups.create(name, limits)` (the host's layout: `CgroupsV1` or
    `CgroupsV2`); `remove()` once the bot is dead."""

    name: str
    dirs: dict[str, Path]  # controller ("memory", "pids", "cpu", "cpuacct", "freezer" or "unified") -> directory
    v2: ClassVar[bool]

    # ---- the host ------------------------------------------------------------------------------------------

    @classmethod
    @abstractmethod
    def check_host(cls) -> None:
        """Raise SandboxUnavailable unless this layout's controllers are there for us to use."""

    @classmethod
    @abstractmethod
    def _locate(cls, name: str) -> BotCgroups:
        """Where this layout puts the cgroups named `name`."""

    @classmethod
    def locate(cls, name: str) -> BotCgroups:
        """Where the cgroups named `name` are (or would be) on this host, without touching them."""
        return _layout()._locate(name)

    @classmethod
    def create(cls, name: str, limits: SandboxLimits) -> BotCgroups:
        cg = cls.locate(name)
        cg.remove()  # a leftover of a referee that died with this name (names are leased, so it is stale)
        try:
            cg._make(limits)
        except OSError as exc:
            cg.remove()
            raise SandboxUnavailable(f"cannot set up cgroups for a bot: {exc}. Use --no-sandbox only for your "
                                     "own bot on your own machine.") from exc
        return cg

    @abstractmethod
    def _make(self, limits: SandboxLimits) -> None:
        """Make the directories and write the limits."""

    # A record of where a bot's cgroups are, kept while it runs: the process that sweeps up after a dead referee
    # may sit in another memory cgroup, and so could not find them from its own.

    @staticmethod
    def _record_path(name: str, state: Path) -> Path:
        return state / "cgroups" / f"{name}.json"

    def save_record(self, state: Path) -> None:
        path = self._record_path(self.name, state)
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        path.write_text(json.dumps({"v2": self.v2, "dirs": {k: str(v) for k, v in self.dirs.items()}}))

    def drop_record(self, state: Path) -> None:
        self._record_path(self.name, state).unlink(missing_ok=True)

    @classmethod
    def from_record(cls, name: str, state: Path) -> BotCgroups | None:
        try:
            data = json.loads(cls._record_path(name, state).read_text())
        except (OSError, ValueError):
            return None
        layout: type[BotCgroups] = CgroupsV2 if data["v2"] else CgroupsV1
        return layout(name, {k: Path(v) for k, v in data["dirs"].items()})

    # ---- what every layout tells ---------------------------------------------------------------------------

    def procs_files(self) -> list[str]:
        """The cgroup.procs files a process writes its pid into to join every cgroup of this bot."""
        return sorted({str(d / "cgroup.procs") for d in self.dirs.values()})

    @abstractmethod
    def pids(self) -> list[int]:
        """Every process in the bot's cgroups now."""

    @abstractmethod
    def cpu_seconds(self) -> float:
        """CPU time used by every process that ever ran in the bot's cgroups (user + system)."""

    @abstractmethod
    def oom_kills(self) -> int:
        """How many processes the OOM killer killed in the bot's memory cgroup."""

    @abstractmethod
    def thread_ids(self) -> list[int]:
        """Every thread of every process in the bot's cgroups now (for their run-queue waits: `run_delays`)."""

    @abstractmethod
    def throttled_seconds(self) -> float:
        """Wall time in which the bot's CPU cgroup was held back by its quota (`cpu_rate`), since it was made."""

    def run_delays(self) -> dict[int, float]:
        """thread id -> seconds that thread has spent runnable but waiting for a CPU (its third-party wait:
        /proc/<tid>/schedstat's second field), for every thread of the bot now. What the host's other work took
        from the bot; arena.match.botclock turns it into time not charged to the bot."""
        return run_delays(self.thread_ids())

    # ---- freezing ------------------------------------------------------------------------------------------

    @property
    @abstractmethod
    def can_freeze(self) -> bool:
        """Whether this bot's processes can be frozen on this host."""

    @abstractmethod
    def _freezer_file(self) -> tuple[Path, str, str]:
        """The file that freezes the bot, and what to write there to freeze and to thaw."""

    @abstractmethod
    def frozen(self) -> bool:
        """Whether the bot's processes are frozen now (the kernel has finished freezing them)."""

    def freeze(self) -> None:
        """Stop every process of the bot where it stands (asynchronous: the kernel finishes freezing a moment
        later; nothing waits for it). No-op when the host cannot freeze."""
        self._set_frozen(True)

    def thaw(self) -> None:
        """Let the bot's processes run again (at once). No-op when the host cannot freeze."""
        self._set_frozen(False)

    def _set_frozen(self, frozen: bool) -> None:
        if not self.can_freeze:
            return
        path, freeze, thaw = self._freezer_file()
        try:
            _write(path, freeze if frozen else thaw)
        except FileNotFoundError:
            pass  # already removed: nothing left to freeze or thaw
        except OSError as exc:  # the host's problem: said loudly, never a reason to stop a match
            log.error("could not %s the cgroup of bot %s: %s", "freeze" if frozen else "thaw", self.name, exc)

    # ---- the end -------------------------------------------------------------------------------------------

    def _kill_at_once(self) -> None:
        """What the layout offers to kill the whole cgroup in one write (v2 `cgroup.kill`), if anything."""
        return None  # v1 offers nothing

    def kill_all(self, timeout: float = 5.0) -> bool:
        """SIGKILL every process in the bot's cgroups until none is left. A fork bomb is bounded by pids.max,
        and each round kills whatever was forked during the last one. True when the cgroups are empty."""
        self.thaw()  # a frozen (v1) process does not die until thawed
        self._kill_at_once()
        return kill_until_gone(self.pids, timeout, pause=0.005)

    def remove(self, timeout: float = 3.0) -> bool:
        """rmdir the bot's cgroups (they must be empty). A cgroup can stay busy for a moment after its last
        process was killed, so retry until `timeout`. True when none is left."""
        deadline = time.monotonic() + timeout
        self.thaw()  # whatever is left must be able to die
        pending = sorted(set(self.dirs.values()))
        while pending:
            left = []
            for d in pending:
                try:
                    d.rmdir()
                except FileNotFoundError:
                    pass
                except OSError as exc:
                    if exc.errno != errno.EBUSY:
                        raise
                    kill_each([int(x) for x in _read(d / "cgroup.procs").split()])
                    left.append(d)
            pending = left
            if pending:
                if time.monotonic() > deadline:
                    return False
                time.sleep(0.01)
        return True

    def exists(self) -> bool:
        return any(d.exists() for d in self.dirs.values())


class CgroupsV1(BotCgroups):
    """cgroup v1: a directory per controller hierarchy (cpu and cpuacct may share one); `freezer` when mounted."""

    v2 = False

    @classmethod
    def check_host(cls) -> None:
        found = _v1_hierarchies()
        for controller, path in found.items():
            if not os.access(path, os.W_OK):
                raise SandboxUnavailable(f"cannot create cgroups under {path} ({controller}); run as root. "
                                         "Use --no-sandbox only for your own bot on your own machine.")
        if "freezer" not in found:
            log.warning("the cgroup v1 freezer is not mounted under %s: bots will not be frozen between their "
                        "decisions (their background threads can use CPU on the other seats' time)", CGROUP_ROOT)

    @classmethod
    def _locate(cls, name: str) -> BotCgroups:
        return cls(name, {c: p / "arena" / (PREFIX + name) for c, p in _v1_hierarchies().items()})

    def _make(self, limits: SandboxLimits) -> None:
        for d in set(self.dirs.values()):
            d.parent.mkdir(exist_ok=True)
            d.mkdir(exist_ok=True)
        _write(self.dirs["cpu"].parent / "cpu.shares", 1024 * BOTS_WEIGHT)  # the same value from every referee
        memory = limits.memory_mb * 1024 * 1024
        mem = self.dirs["memory"]
        _write(mem / "memory.limit_in_bytes", memory)
        if (mem / "memory.memsw.limit_in_bytes").exists():
            _write(mem / "memory.memsw.limit_in_bytes", memory)  # no escape into swap
        _write(self.dirs["pids"] / "pids.max", limits.pids)
        _write(self.dirs["cpu"] / "cpu.cfs_period_us", CFS_PERIOD_US)
        _write(self.dirs["cpu"] / "cpu.cfs_quota_us", _cpu_quota(limits))

    def pids(self) -> list[int]:
        return [int(x) for x in _read(self.dirs["pids"] / "cgroup.procs").split()]

    def cpu_seconds(self) -> float:
        text = _read(self.dirs["cpuacct"] / "cpuacct.usage").strip()
        return int(text) / 1e9 if text else 0.0

    def oom_kills(self) -> int:
        return _first_value(_read(self.dirs["memory"] / "memory.oom_control"), "oom_kill") or 0

    def thread_ids(self) -> list[int]:
        return [int(x) for x in _read(self.dirs["cpu"] / "tasks").split()]

    def throttled_seconds(self) -> float:
        return (_first_value(_read(self.dirs["cpu"] / "cpu.stat"), "throttled_time") or 0) / 1e9

    @property
    def can_freeze(self) -> bool:
        """The freezer hierarchy is mounted."""
        return "freezer" in self.dirs

    def _freezer_file(self) -> tuple[Path, str, str]:
        return self.dirs["freezer"] / "freezer.state", "FROZEN", "THAWED"

    def frozen(self) -> bool:
        """FROZEN, not FREEZING."""
        return self.can_freeze and _read(self.dirs["freezer"] / "freezer.state").strip() == "FROZEN"


class CgroupsV2(BotCgroups):
    """cgroup v2: one directory in the unified hierarchy (`dirs == {"unified": ...}`)."""

    v2 = True

    @classmethod
    def check_host(cls) -> None:
        base = _v2_base()
        available = set(_read(base / "cgroup.controllers").split())
        missing = {"memory", "pids", "cpu"} - available
        if missing:
            raise SandboxUnavailable(
                f"cgroup v2 controllers {sorted(missing)} are not delegated to {base}. Use --no-sandbox only for "
                "your own bot on your own machine.")

    @classmethod
    def _locate(cls, name: str) -> BotCgroups:
        return cls(name, {"unified": _v2_base() / "arena" / (PREFIX + name)})

    @property
    def _dir(self) -> Path:
        return self.dirs["unified"]

    def _make(self, limits: SandboxLimits) -> None:
        d = self._dir
        parent = d.parent
        if not parent.exists():
            parent.mkdir()
        for level in (parent.parent, parent):
            # enable the controllers for the children of each level we own
            try:
                _write(level / "cgroup.subtree_control", "+memory +pids +cpu")
            except OSError as exc:
                if exc.errno != errno.EBUSY or level == parent:
                    raise
        d.mkdir(exist_ok=True)
        _write(parent / "cpu.weight", min(10_000, 100 * BOTS_WEIGHT))  # as cpu.shares for v1 (`BOTS_WEIGHT`)
        _write(d / "memory.max", limits.memory_mb * 1024 * 1024)
        if (d / "memory.swap.max").exists():
            _write(d / "memory.swap.max", 0)
        _write(d / "pids.max", limits.pids)
        _write(d / "cpu.max", f"{_cpu_quota(limits)} {CFS_PERIOD_US}")

    def pids(self) -> list[int]:
        return [int(x) for x in _read(self._dir / "cgroup.procs").split()]

    def cpu_seconds(self) -> float:
        usage = _first_value(_read(self._dir / "cpu.stat"), "usage_usec")
        return usage / 1e6 if usage is not None else 0.0

    def oom_kills(self) -> int:
        return _first_value(_read(self._dir / "memory.events"), "oom_kill") or 0

    def thread_ids(self) -> list[int]:
        return [int(x) for x in _read(self._dir / "cgroup.threads").split()]

    def throttled_seconds(self) -> float:
        return (_first_value(_read(self._dir / "cpu.stat"), "throttled_usec") or 0) / 1e6

    @property
    def can_freeze(self) -> bool:
        """`cgroup.freeze` exists (Linux >= 5.2)."""
        return (self._dir / "cgroup.freeze").exists()

    def _freezer_file(self) -> tuple[Path, str, str]:
        return self._dir / "cgroup.freeze", "1", "0"

    def frozen(self) -> bool:
        """`frozen 1` in `cgroup.events`."""
        return self.can_freeze and "frozen 1" in _read(self._dir / "cgroup.events").splitlines()

    def _kill_at_once(self) -> None:
        if (self._dir / "cgroup.kill").exists():
            try:
                _write(self._dir / "cgroup.kill", 1)
            except OSError:
                pass


def run_delays(thread_ids: list[int]) -> dict[int, float]:
    """thread id -> seconds it waited on a run queue (runnable, not running) since it started; threads that ended
    meanwhile are left out."""
    delays = {}
    for tid in thread_ids:
        fields = _read(Path(f"/proc/{tid}/schedstat")).split()
        if len(fields) >= 2:
            delays[tid] = int(fields[1]) / 1e9
    return delays


def _cpu_quota(limits: SandboxLimits) -> int:
    return max(1000, int(limits.cpu_rate * CFS_PERIOD_US))


def _layout() -> type[BotCgroups]:
    """The host's cgroup layout."""
    return CgroupsV2 if is_v2() else CgroupsV1
