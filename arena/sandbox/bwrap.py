"""The command line that starts one bot in the sandbox (see shared/design/sandbox.md for why each part is there).

    dash (as root: joins the bot's cgroups, sets its rlimits) -> setpriv (drops to the bot's uid, no groups, no
      capabilities, no new privileges) -> bwrap (no network, nothing of the host but /usr, the runtime, the bot
      and its socket dir; host-wide /proc files replaced by neutral copies, arena.sandbox.procview; loads the
      seccomp filter last) -> tini (the sandbox's pid 1) -> the bot's command

The order matters: cgroups must be joined while still root and before anything of the bot runs, so that every
descendant inherits them; bwrap must not run as root or the bot would keep root's capabilities and RLIMIT_NPROC
would not apply. The rlimits are set by the shell's `ulimit` (they survive setuid and exec), which saves the exec
of `prlimit` that sandbox.md used: every exec in the chain costs 1-5 ms of start-up.
"""

from __future__ import annotations

import os

from arena.sandbox import procview
from arena.sandbox.limits import SandboxLimits

SHELL = "/usr/bin/dash"  # Debian's essential /bin/sh; its `ulimit` flags (-p processes, -f 512-byte blocks)
SANDBOX_SOCKET = "/sock/bot.sock"
# tini (Debian package) as the sandbox's pid 1 instead of bwrap's own init: when a bot exits by itself, bwrap's
# outer process returns without reaping its own init, leaving a zombie for the host's init to reap (which took
# ~1-2 s here); tini is reaped by bwrap at once. Without tini, close() waits for the host's init instead.
TINI = "/usr/bin/tini"
# Debian's JDK keeps its configuration (conf/security/java.security, without which no JVM starts) under /etc,
# linked from /usr/lib/jvm: shown read-only where it exists, for Java bots (bots/java). Nothing else of /etc is.
JDK_CONFIG = ("/etc/java-17-openjdk",)
MiB = 1024 * 1024


def wrapper_script(limits: SandboxLimits) -> str:
    """dash code that joins every cgroup named in $ARENA_CGROUP_PROCS, sets the rlimits, then execs "$@"."""
    cpu = max(1, int(limits.cpu_seconds))
    return ('for f in $ARENA_CGROUP_PROCS; do echo $$ > "$f" || exit 125; done; '
            f"ulimit -S -t {cpu} && ulimit -H -t {cpu + 1} && ulimit -v {limits.address_space_mb * 1024} && "
            f"ulimit -p {limits.pids} && ulimit -f {limits.file_mb * 2048} && ulimit -n {limits.open_files} && "
            'ulimit -c 0 || exit 125; exec "$@"')


def runtime_env(runtime: str | None) -> dict[str, str]:
    """The environment a runtime needs inside the sandbox (the host's environment is never passed in)."""
    if runtime == "python":
        return {"PATH": "/runtime/bin:/usr/bin", "PYTHONDONTWRITEBYTECODE": "1", "PYTHONUNBUFFERED": "1"}
    if runtime == "node":
        return {"PATH": "/usr/bin", "NODE_PATH": "/runtime/node_modules"}
    return {"PATH": "/usr/bin"}


def command_line(*, uid: int, limits: SandboxLimits, command: list[str], runtime: str | None,
                 bot_dir: str, socket_dir: str, runtime_dir: str | None,
                 env: dict[str, str] | None = None, seccomp_fd: int | None = None,
                 bot_writable: bool = False) -> list[str]:
    """argv for the wrapper, which gets ARENA_CGROUP_PROCS in its environment. The three directories must be
    reachable by `uid` (see arena.sandbox.mounts); `seccomp_fd`, passed to the child, holds the seccomp filter
    (arena.sandbox.seccomp). `bot_writable` binds the bot folder read-write (a build, arena.botbuild)."""
    argv = [
        SHELL, "-c", wrapper_script(limits), "arena-sandbox",
        "/usr/bin/setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups", "--inh-caps=-all",
        "--bounding-set=-all", "--no-new-privs", "--",
        "/usr/bin/bwrap",
        "--ro-bind", "/usr", "/usr",
        "--symlink", "usr/lib", "/lib", "--symlink", "usr/lib64", "/lib64",
        "--symlink", "usr/bin", "/bin", "--symlink", "usr/sbin", "/sbin",
        "--proc", "/proc", "--dev", "/dev",
        "--size", str(limits.tmp_mb * MiB), "--tmpfs", "/tmp",
    ]
    for copy, path in procview.replacements():  # the host-wide files of /proc, neutral (arena.sandbox.procview)
        argv += ["--ro-bind", copy, path]
    for config in JDK_CONFIG:
        argv += ["--ro-bind-try", config, config]
    if runtime_dir is not None:
        argv += ["--ro-bind", runtime_dir, "/runtime"]
    argv += [
        "--bind" if bot_writable else "--ro-bind", bot_dir, "/bot",
        "--bind", socket_dir, "/sock",
        "--remount-ro", "/",  # the root bwrap builds is a tmpfs: nothing may be written there
        "--unshare-all", "--unshare-user", "--disable-userns", "--hostname", "bot",
        "--die-with-parent", "--new-session", "--chdir", "/bot", "--clearenv",
    ]
    if seccomp_fd is not None:
        argv += ["--seccomp", str(seccomp_fd)]
    init: list[str] = []
    if os.path.exists(TINI):
        argv += ["--as-pid-1"]
        init = [TINI, "--"]
    variables = {"HOME": "/tmp", "LANG": "C.UTF-8", "TMPDIR": "/tmp", **runtime_env(runtime), **(env or {}),
                 "ARENA_SOCKET": SANDBOX_SOCKET}
    for key, value in variables.items():
        argv += ["--setenv", key, value]
    return argv + ["--", *init, *command]
