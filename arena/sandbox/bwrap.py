"""The command line that starts one bot in the sandbox (see shared/design/sandbox.md for why each part is there).

    sh (joins the bot's cgroups, as root) -> setpriv (drops to the bot's uid, no groups, no capabilities)
      -> prlimit (rlimits) -> bwrap (no network, nothing of the host but /usr, the runtime, the bot, the socket dir)

The order matters: cgroups must be joined while still root and before anything of the bot runs, so that every
descendant inherits them; bwrap must not run as root or the bot would keep root's capabilities and RLIMIT_NPROC
would not apply.
"""

from __future__ import annotations

import os

from arena.sandbox.limits import SandboxLimits

SANDBOX_SOCKET = "/sock/bot.sock"
# tini (Debian package) as the sandbox's pid 1 instead of bwrap's own init: when a bot exits by itself, bwrap's
# outer process returns without reaping its own init, leaving a zombie for the host's init to reap (which took
# ~1-2 s here); tini is reaped by bwrap at once. Without tini, close() waits for the host's init instead.
TINI = "/usr/bin/tini"
MiB = 1024 * 1024

# joins every cgroup named in $ARENA_CGROUP_PROCS, then execs the rest of its arguments
JOIN_CGROUPS = 'for f in $ARENA_CGROUP_PROCS; do echo $$ > "$f" || exit 125; done; exec "$@"'


def runtime_env(runtime: str | None) -> dict[str, str]:
    """The environment a runtime needs inside the sandbox (the host's environment is never passed in)."""
    if runtime == "python":
        return {"PATH": "/runtime/bin:/usr/bin", "PYTHONDONTWRITEBYTECODE": "1", "PYTHONUNBUFFERED": "1"}
    if runtime == "node":
        return {"PATH": "/usr/bin", "NODE_PATH": "/runtime/node_modules"}
    return {"PATH": "/usr/bin"}


def command_line(*, uid: int, limits: SandboxLimits, command: list[str], runtime: str | None,
                 bot_dir: str, socket_dir: str, runtime_dir: str | None,
                 env: dict[str, str] | None = None) -> list[str]:
    """argv for the wrapper, which gets ARENA_CGROUP_PROCS in its environment. The three directories must be
    reachable by `uid` (see arena.sandbox.mounts)."""
    cpu = max(1, int(limits.cpu_seconds))
    argv = [
        "/bin/sh", "-c", JOIN_CGROUPS, "arena-sandbox",
        "/usr/bin/setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups", "--inh-caps=-all",
        "--bounding-set=-all", "--no-new-privs",
        "/usr/bin/prlimit", f"--as={limits.address_space_mb * MiB}", f"--nproc={limits.pids}",
        f"--cpu={cpu}:{cpu + 1}", f"--fsize={limits.file_mb * MiB}", f"--nofile={limits.open_files}",
        "--core=0", "--",
        "/usr/bin/bwrap",
        "--ro-bind", "/usr", "/usr",
        "--symlink", "usr/lib", "/lib", "--symlink", "usr/lib64", "/lib64",
        "--symlink", "usr/bin", "/bin", "--symlink", "usr/sbin", "/sbin",
        "--proc", "/proc", "--dev", "/dev",
        "--size", str(limits.tmp_mb * MiB), "--tmpfs", "/tmp",
    ]
    if runtime_dir is not None:
        argv += ["--ro-bind", runtime_dir, "/runtime"]
    argv += [
        "--ro-bind", bot_dir, "/bot",
        "--bind", socket_dir, "/sock",
        "--remount-ro", "/",  # the root bwrap builds is a tmpfs: nothing may be written there
        "--unshare-all", "--unshare-user", "--disable-userns", "--hostname", "bot",
        "--die-with-parent", "--new-session", "--chdir", "/bot", "--clearenv",
    ]
    init: list[str] = []
    if os.path.exists(TINI):
        argv += ["--as-pid-1"]
        init = [TINI, "--"]
    variables = {"HOME": "/tmp", "LANG": "C.UTF-8", "TMPDIR": "/tmp", **runtime_env(runtime), **(env or {}),
                 "ARENA_SOCKET": SANDBOX_SOCKET}
    for key, value in variables.items():
        argv += ["--setenv", key, value]
    return argv + ["--", *init, *command]
