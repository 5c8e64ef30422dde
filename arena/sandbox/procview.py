"""What a bot reads in /proc about the host as a whole, replaced by neutral copies (issue 22: host-wide state is a
channel between sandboxes and tells a bot what else runs on the machine).

bwrap gives each sandbox a procfs of its own pid namespace, but a few of its files describe the whole host: the
load (`loadavg`), the CPU and interrupt counters and boot time (`stat`, `interrupts`, `softirqs`, `schedstat`,
`vmstat`, `diskstats`), how long it has been up (`uptime`), free memory (`meminfo`), every file lock on the machine
(`locks`) and the boot's identifier (`sys/kernel/random/boot_id`). A bot that burns CPU in one sandbox moves the
load another sandbox reads; these files are bound over, read-only, with copies that never change:

- `stat` keeps one `cpuN` line per CPU of the host (glibc and libuv count CPUs there), with every counter 0;
- `meminfo` keeps the host's fields with MemTotal as it is and free memory equal to it;
- the others are zeros, or empty (`locks`).

The copies are written once per process under the sandbox's state folder (`proc/`, readable by the bots' uids)
and the same for every sandbox, so they carry nothing from one to another. What cannot be replaced this way is
listed in `arena.sandbox`'s docstring.
"""

from __future__ import annotations

import os
from pathlib import Path

from arena.sandbox.uids import state_dir

BOOT_ID = "00000000-0000-4000-8000-000000000000\n"
ZEROED = ("interrupts", "softirqs", "schedstat", "vmstat", "diskstats")


def _stat() -> str:
    cpus = []
    with open("/proc/stat") as f:
        for line in f:
            word = line.split(maxsplit=1)[0] if line.strip() else ""
            if word.startswith("cpu") and word != "cpu":
                cpus.append(word)
    zeros = " 0" * 10
    lines = [f"cpu {zeros}", *(f"{cpu}{zeros}" for cpu in cpus),
             "intr 0", "ctxt 0", "btime 0", "processes 1", "procs_running 1", "procs_blocked 0", "softirq 0"]
    return "\n".join(lines) + "\n"


def _meminfo() -> str:
    fields: list[tuple[str, int]] = []
    with open("/proc/meminfo") as f:
        for line in f:
            name, _, rest = line.partition(":")
            fields.append((name, int(rest.split()[0]) if rest.split() else 0))
    total = dict(fields).get("MemTotal", 0)
    shown = {"MemTotal": total, "MemFree": total, "MemAvailable": total}
    return "".join(f"{name + ':':<16}{shown.get(name, 0):>8} kB\n" for name, _ in fields)


def _contents() -> dict[str, str]:
    out = {"loadavg": "0.00 0.00 0.00 1/1 1\n", "uptime": "0.00 0.00\n", "stat": _stat(), "meminfo": _meminfo(),
           "locks": "", "sys/kernel/random/boot_id": BOOT_ID}
    for name in ZEROED:
        out[name] = ""
    return out


_written: dict[Path, tuple[tuple[str, str], ...]] = {}


def replacements() -> tuple[tuple[str, str], ...]:
    """(host copy, path in the sandbox) for each /proc file to bind over, in the order to bind them; only files
    this kernel has. Written at the first call of this process (and again if the state folder was removed)."""
    root = state_dir() / "proc"
    known = _written.get(root)
    if known is not None and all(os.path.exists(copy) for copy, _ in known):
        return known
    root.mkdir(parents=True, exist_ok=True)
    for d in (state_dir(), root):
        os.chmod(d, 0o711 if d == state_dir() else 0o755)  # the bots' uids (bwrap) read the copies
    pairs = []
    for rel, text in _contents().items():
        if not Path("/proc", rel).exists():
            continue
        copy = root / rel.replace("/", "_")
        tmp = copy.with_name(f".{copy.name}.{os.getpid()}")
        tmp.write_text(text)
        os.chmod(tmp, 0o444)
        os.replace(tmp, copy)  # atomic: a sandbox starting in another process reads a whole copy
        pairs.append((str(copy), f"/proc/{rel}"))
    _written[root] = tuple(pairs)
    return _written[root]
