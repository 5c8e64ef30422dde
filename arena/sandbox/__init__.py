"""Running untrusted bots: cgroups + a uid per bot + rlimits + bubblewrap + seccomp (see shared/design/sandbox.md).

    check_available()                 raises SandboxUnavailable when this host cannot sandbox (says why)
    launch(bot_dir, command, runtime, limits, sandbox=True, env=None) -> BotProcess
    BotProcess: socket_path, wait_for_socket, poll, exit_reason, cpu_seconds, over_cpu_budget, output_tail,
                close

The modules, in the order a launch uses them: `uids` (a uid leased per bot, across processes), `mounts` (the
bot's socket tmpfs and the binds of its folder and runtime), `cgroups` (memory, pids, CPU rate and accounting;
v1 or v2), `seccomp` (the system-call filter), `bwrap` (the command line), `process` (start, watch, explain,
clean up), `output` (the bounded tail of what the bot prints), `reap` (killing processes that may still fork),
`runtimes` (the Python and Node runtimes and the C++ build kit bound at /runtime, built by `arena runtimes
install`).
"""

from arena.sandbox.errors import SandboxUnavailable
from arena.sandbox.limits import SandboxLimits
from arena.sandbox.process import BotProcess, check_available, launch
from arena.sandbox.runtimes import RuntimeMissing

__all__ = ["SandboxUnavailable", "SandboxLimits", "check_available", "launch", "BotProcess", "RuntimeMissing"]
