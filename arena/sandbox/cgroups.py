"""Control groups for one bot: memory, pids, CPU rate and CPU accounting.

Two layouts, detected at run time:

- cgroup v1 (one hierarchy per controller under /sys/fs/cgroup/<controller>, as on the Debian hosts we run on).
  Each bot gets a child named `arena-<name>` under *this process's own* cgroup in every hierarchy (read from
  /proc/self/cgroup): the memory root may belong to someone else (a container manager), while our own cgroup is
  ours to subdivide.
- cgroup v2 (the unified hierarchy mounted at /sys/fs/cgroup, `cgroup.controllers` present there). The child is
  made under our own cgroup, whose `cgroup.subtree_control` must accept +memory +pids +cpu; where it does not
  (the "no internal processes" rule), the host is reported as unable to sandbox.

The bot's wrapper joins the cgroups itself, before it execs anything, by writing its pid into every path of
`procs_files()`; all of its descendants then inherit the limits and cannot leave (cgroupfs is not mounted in
the sandbox, and the bot's uid could not write there anyway).
"""

from __future__ import annotations

import errno
import json
import os
import signal
import time
from dataclasses import dataclass
from pathlib import Path

from arena.sandbox.errors import SandboxUnavailable
from arena.sandbox.limits import SandboxLimits
from arena.sandbox.reap import kill_until_gone

CGROUP_ROOT = Path(os.environ.get("ARENA_CGROUP_ROOT", "/sys/fs/cgroup"))
V1_CONTROLLERS = ("memory", "pids", "cpu", "cpuacct")
CFS_PERIOD_US = 100_000
PREFIX = "arena-"


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
        found[controller] = mount / own[controller].lstrip("/")
    return found


def _v1_mount(controller: str) -> Path | None:
    for candidate in (CGROUP_ROOT / controller, CGROUP_ROOT / "cpu,cpuacct", CGROUP_ROOT / "cpuacct,cpu"):
        if controller in candidate.name.split(",") and (candidate / "cgroup.procs").exists():
            return candidate.resolve()
    return None


def _v2_base() -> Path:
    own = _own_cgroups().get("", "/")
    return CGROUP_ROOT / own.lstrip("/")


def check() -> None:
    """Raise SandboxUnavailable unless this process can make per-bot cgroups here (tried for real, once: a
    probe cgroup is made with every limit set, then removed)."""
    if is_v2():
        base = _v2_base()
        available = set(_read(base / "cgroup.controllers").split())
        missing = {"memory", "pids", "cpu"} - available
        if missing:
            raise SandboxUnavailable(
                f"cgroup v2 controllers {sorted(missing)} are not delegated to {base}. Use --no-sandbox only for "
                "your own bot on your own machine.")
    else:
        for controller, path in _v1_hierarchies().items():
            if not os.access(path, os.W_OK):
                raise SandboxUnavailable(f"cannot create cgroups under {path} ({controller}); run as root. "
                                         "Use --no-sandbox only for your own bot on your own machine.")
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


@dataclass
class BotCgroups:
    """The cgroups of one bot. Create with `BotCgroups.create(name, limits)`; `remove()` once the bot is dead."""

    name: str
    v2: bool
    dirs: dict[str, Path]  # controller ("memory", "pids", "cpu", "cpuacct", or "unified") -> directory

    @classmethod
    def locate(cls, name: str) -> "BotCgroups":
        """Where the cgroups named `name` are (or would be), without touching them."""
        if is_v2():
            return cls(name, True, {"unified": _v2_base() / "arena" / (PREFIX + name)})
        return cls(name, False, {c: p / "arena" / (PREFIX + name) for c, p in _v1_hierarchies().items()})

    @classmethod
    def create(cls, name: str, limits: SandboxLimits) -> "BotCgroups":
        cg = cls.locate(name)
        cg.remove()  # a leftover of a referee that died with this name (names are leased, so it is stale)
        try:
            cg._make(limits)
        except OSError as exc:
            cg.remove()
            raise SandboxUnavailable(f"cannot set up cgroups for a bot: {exc}. Use --no-sandbox only for your "
                                     "own bot on your own machine.") from exc
        return cg

    def _make(self, limits: SandboxLimits) -> None:
        memory = limits.memory_mb * 1024 * 1024
        quota = max(1000, int(limits.cpu_rate * CFS_PERIOD_US))
        if self.v2:
            d = self.dirs["unified"]
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
            _write(d / "memory.max", memory)
            if (d / "memory.swap.max").exists():
                _write(d / "memory.swap.max", 0)
            _write(d / "pids.max", limits.pids)
            _write(d / "cpu.max", f"{quota} {CFS_PERIOD_US}")
            return
        for d in {p for p in self.dirs.values()}:
            d.parent.mkdir(exist_ok=True)
            d.mkdir(exist_ok=True)
        mem = self.dirs["memory"]
        _write(mem / "memory.limit_in_bytes", memory)
        if (mem / "memory.memsw.limit_in_bytes").exists():
            _write(mem / "memory.memsw.limit_in_bytes", memory)  # no escape into swap
        _write(self.dirs["pids"] / "pids.max", limits.pids)
        _write(self.dirs["cpu"] / "cpu.cfs_period_us", CFS_PERIOD_US)
        _write(self.dirs["cpu"] / "cpu.cfs_quota_us", quota)

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
    def from_record(cls, name: str, state: Path) -> "BotCgroups | None":
        try:
            data = json.loads(cls._record_path(name, state).read_text())
        except (OSError, ValueError):
            return None
        return cls(name, bool(data["v2"]), {k: Path(v) for k, v in data["dirs"].items()})

    def procs_files(self) -> list[str]:
        """The cgroup.procs files a process writes its pid into to join every cgroup of this bot."""
        return sorted({str(d / "cgroup.procs") for d in self.dirs.values()})

    def pids(self) -> list[int]:
        """Every process in the bot's cgroups now."""
        d = self.dirs["unified"] if self.v2 else self.dirs["pids"]
        return [int(x) for x in _read(d / "cgroup.procs").split()]

    def cpu_seconds(self) -> float:
        """CPU time used by every process that ever ran in the bot's cgroups (user + system)."""
        if self.v2:
            for line in _read(self.dirs["unified"] / "cpu.stat").splitlines():
                key, _, value = line.partition(" ")
                if key == "usage_usec":
                    return int(value) / 1e6
            return 0.0
        text = _read(self.dirs["cpuacct"] / "cpuacct.usage").strip()
        return int(text) / 1e9 if text else 0.0

    def oom_kills(self) -> int:
        """How many processes the OOM killer killed in the bot's memory cgroup."""
        if self.v2:
            text = _read(self.dirs["unified"] / "memory.events")
        else:
            text = _read(self.dirs["memory"] / "memory.oom_control")
        for line in text.splitlines():
            key, _, value = line.partition(" ")
            if key == "oom_kill":
                return int(value)
        return 0

    def memory_limit_hits(self) -> int:
        """How often an allocation hit the memory limit (v1 failcnt, v2 `max` events)."""
        if self.v2:
            for line in _read(self.dirs["unified"] / "memory.events").splitlines():
                key, _, value = line.partition(" ")
                if key == "max":
                    return int(value)
            return 0
        hits = 0
        for name in ("memory.failcnt", "memory.memsw.failcnt"):
            text = _read(self.dirs["memory"] / name).strip()
            hits += int(text) if text else 0
        return hits

    def kill_all(self, timeout: float = 5.0) -> bool:
        """SIGKILL every process in the bot's cgroups until none is left. A fork bomb is bounded by pids.max,
        and each round kills whatever was forked during the last one. True when the cgroups are empty."""
        if self.v2 and (self.dirs["unified"] / "cgroup.kill").exists():
            try:
                _write(self.dirs["unified"] / "cgroup.kill", 1)
            except OSError:
                pass
        return kill_until_gone(self.pids, timeout, pause=0.005)

    def remove(self, timeout: float = 3.0) -> bool:
        """rmdir the bot's cgroups (they must be empty). A cgroup can stay busy for a moment after its last
        process was killed, so retry until `timeout`. True when none is left."""
        deadline = time.monotonic() + timeout
        pending = sorted({d for d in self.dirs.values()})
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
                    for pid in [int(x) for x in _read(d / "cgroup.procs").split()]:
                        try:
                            os.kill(pid, signal.SIGKILL)
                        except ProcessLookupError:
                            pass
                    left.append(d)
            pending = left
            if pending:
                if time.monotonic() > deadline:
                    return False
                time.sleep(0.01)
        return True

    def exists(self) -> bool:
        return any(d.exists() for d in self.dirs.values())
