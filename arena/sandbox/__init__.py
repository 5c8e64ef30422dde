"""Running untrusted bots: cgroups + a uid per bot + rlimits + bubblewrap + seccomp (see shared/design/sandbox.md).

    check_available()                 raises SandboxUnavailable when this host cannot sandbox (says why)
    launch(bot_dir, command, runtime, limits, sandbox=True, env=None) -> BotProcess
    BotProcess (a SandboxedBot, or a PlainBot for sandbox=False): socket_path, wait_for_socket, server_address,
                freeze, thaw, poll, exit_reason, cpu_seconds, over_cpu_budget, output, output_tail, close

The modules, in the order a launch uses them: `uids` (a uid leased per bot, across processes), `mounts` (the
bot's socket tmpfs and the binds of its folder and runtime), `cgroups` (memory, pids, CPU rate and accounting:
`CgroupsV1` and `CgroupsV2`, one interface), `seccomp` (the system-call filter), `bwrap` (the command line),
`process` (start, watch, explain, clean up: `SandboxedBot`, `PlainBot`), `output` (the bounded tail of what the
bot prints), `reap` (the one kill loop, for processes that may still fork), `runtimes` (the Python and Node
runtimes and the C++ build kit bound at /runtime, built by `arena runtimes install`), `endpoint` (how the referee
reaches the bot's server: the socket pinned by inode, never through a path the bot controls, and its peer
credentials checked: served by the bot's uid from inside its cgroup).

Between its decisions a bot is frozen (`BotProcess.freeze` / `thaw`: the cgroup freezer, v1 `freezer.state` or
v2 `cgroup.freeze`), so that its background threads take no CPU on the other seats' time; every kill thaws first
(a frozen v1 process does not die). On a v1 host without the freezer hierarchy, bots are not frozen (a warning
is logged once); `python bench/bot_latency.py --freezer` measures the cost per decision.
"""

from arena.sandbox.endpoint import ForeignServer
from arena.sandbox.errors import SandboxUnavailable
from arena.sandbox.limits import SandboxLimits
from arena.sandbox.process import BotProcess, PlainBot, SandboxedBot, check_available, launch
from arena.sandbox.runtimes import RuntimeMissing

__all__ = ["SandboxUnavailable", "ForeignServer", "SandboxLimits", "check_available", "launch", "BotProcess",
           "SandboxedBot", "PlainBot", "RuntimeMissing"]
