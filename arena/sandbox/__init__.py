"""Running untrusted bots: bubblewrap + cgroups + a uid per bot + rlimits (see shared/design/sandbox.md).

    check_available()                 raises SandboxUnavailable when this host cannot sandbox (says why)
    launch(bot_dir, command, runtime, limits, sandbox=True, env=None) -> BotProcess
    BotProcess: socket_path, wait_for_socket, poll, exit_reason, cpu_seconds, over_cpu_budget, output_tail,
                close
"""

from arena.sandbox.errors import SandboxUnavailable
from arena.sandbox.limits import SandboxLimits
from arena.sandbox.process import BotProcess, check_available, launch
from arena.sandbox.runtimes import RuntimeMissing

__all__ = ["SandboxUnavailable", "SandboxLimits", "check_available", "launch", "BotProcess", "RuntimeMissing"]
