"""Running untrusted bots: cgroups + a uid per bot + rlimits + bubblewrap + seccomp (see shared/design/sandbox.md).

    check_available()                 raises SandboxUnavailable when this host cannot sandbox (says why)
    launch(bot_dir, command, runtime, limits, sandbox=True, env=None) -> BotProcess
    BotProcess (a SandboxedBot, or a PlainBot for sandbox=False): socket_path, wait_for_socket, server_address,
                freeze, thaw, poll, exit_reason, cpu_seconds, over_cpu_budget, output, output_tail, close

The modules, in the order a launch uses them: `uids` (a uid leased per bot, across processes), `mounts` (the
bot's socket tmpfs and the binds of its folder and runtime), `cgroups` (memory, pids, CPU rate and accounting:
`CgroupsV1` and `CgroupsV2`, one interface), `seccomp` (the system-call filter), `bwrap` (the command line),
`procview` (the host-wide /proc files replaced), `process` (start, watch, explain, clean up: `SandboxedBot`,
`PlainBot`), `output` (the bounded tail of what the bot prints), `reap` (the one kill loop, for processes that may still fork), `runtimes` (the Python and Node
runtimes and the C++ build kit bound at /runtime, built by `arena runtimes install`), `endpoint` (how the referee
reaches the bot's server: the socket pinned by inode, never through a path the bot controls, and its peer
credentials checked: served by the bot's uid from inside its cgroup).

Between its decisions a bot is frozen (`BotProcess.freeze` / `thaw`: the cgroup freezer, v1 `freezer.state` or
v2 `cgroup.freeze`), so that its background threads take no CPU on the other seats' time; every kill thaws first
(a frozen v1 process does not die). On a v1 host without the freezer hierarchy, bots are not frozen (a warning
is logged once); `python bench/bot_latency.py --freezer` measures the cost per decision.

No channel between sandboxes (issue 22). Sandboxes share inodes (/usr, the runtime, a package's folder) and one
kernel. Closed: file-event watches and file locks (`seccomp`: refused, or a lock granted without being held), the
host-wide /proc files (`procview`: neutral copies), two matches of one deal at once (the platform chains a
duplicate set's rotations). Not hidden, and documented for bot authors (bots/README.md, Fair play):
- `/proc/self/mountinfo` lists the host paths of the binds (the package cache, the runtime) and the host's file
  systems: a bind's root is the source's own path, which only a private copy of each folder would change (100s
  of MB per start); no secret lives in those paths;
- `/proc/self/stat` counts the process's start time from the host's boot, and `sysinfo()` reads the host's
  uptime, load and free memory (the JVM and glibc's `sysconf` need it: not refused);
- timing through shared CPU caches and cores, and the time-stamp counter: another bot's activity is visible
  only as noise on one's own clock. The freezer keeps a bot off the CPU between its decisions, and no two
  matches of one deal overlap, so what could be timed is never the deal.
"""

from arena.sandbox.endpoint import ForeignServer
from arena.sandbox.errors import SandboxUnavailable
from arena.sandbox.limits import SandboxLimits
from arena.sandbox.process import BotProcess, PlainBot, SandboxedBot, check_available, launch
from arena.sandbox.runtimes import RuntimeMissing

__all__ = ["SandboxUnavailable", "ForeignServer", "SandboxLimits", "check_available", "launch", "BotProcess",
           "SandboxedBot", "PlainBot", "RuntimeMissing"]
