"""Resource limits for one sandboxed bot, configurable per match."""

from __future__ import annotations

from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class SandboxLimits:
    memory_mb: int = 512        # memory cgroup (RSS + swap); the OOM killer ends a bot above it
    address_space_mb: int = 2048  # RLIMIT_AS backstop (Node needs >= 768 MiB to start)
    pids: int = 64              # cgroup pids.max and RLIMIT_NPROC for the bot's own uid
    cpu_rate: float = 1.0       # share of one core (cfs quota / period)
    cpu_seconds: int = 600      # total CPU time for the whole match (cpuacct), and RLIMIT_CPU per process
    tmp_mb: int = 64            # size of the private /tmp tmpfs
    file_mb: int = 64           # RLIMIT_FSIZE
    open_files: int = 256       # RLIMIT_NOFILE

    def to_dict(self) -> dict[str, int | float]:
        return asdict(self)
