"""A seccomp filter for sandboxed bots: the system calls a game bot never needs and that widen the kernel's
attack surface are refused (the open risk "no seccomp filter" of shared/design/sandbox.md).

The filter is a deny list on top of what an unprivileged uid in a user namespace may do anyway, close to the
calls Docker's default profile refuses: kernel keyrings, BPF, perf, ptrace and cross-process memory access,
io_uring, userfaultfd, module loading, mounts and namespaces, clocks, swap, reboot. Refused calls fail with
EPERM (ENOSYS for io_uring, so that runtimes such as Node's libuv fall back to ordinary I/O). System calls of
another architecture (the 32-bit `int 0x80` entry on x86-64) kill the caller: libseccomp's default for them.

No channel between sandboxes. Every sandbox sees the same inodes: the host's /usr, the runtime, and the package's
folder (every bot of one package binds the same cached folder). Whatever the kernel lets one process observe about
another's use of a shared inode is a channel between bots that must not talk (two rotations of one deal, two
bots at one table), and a frozen bot's events queue up for it meanwhile. So the filter also refuses:
- file-event watches: `inotify_*` and `fanotify_*` (ENOSYS, "not on this system", which runtimes treat as such)
  and `fcntl(F_NOTIFY)` (dnotify, EPERM);
- file locks, which another process sees by failing to take its own or by asking. Taking or releasing a lock
  (`flock`, `fcntl` `F_SETLK`, `F_SETLKW` and their `F_OFD_` forms) succeeds without doing anything: runtimes
  and tools that lock their own files (Go's build cache, the JVM, SQLite) work as alone on the machine, which
  each sandbox is meant to be, while no other process ever sees the lock (within one sandbox a lock then excludes
  nothing: a bot needs no lock against itself). Asking (`F_GETLK`, `F_OFD_GETLK`) fails with ENOLCK, "no locks
  available"; leases (`F_SETLEASE`, `F_GETLEASE`) with EPERM.
A bot needs none of them to play: its /tmp is its own, and a game is a conversation with the referee only.
Private copies of /usr and the runtime for each sandbox would close the same channels at the cost of copying
hundreds of MB per start; refusing the calls costs nothing. What no filter can close is listed in
`arena.sandbox`'s docstring (shared CPU and caches, timing).

It is built once per process with libseccomp (Debian's libseccomp2, installed with systemd) through ctypes and
handed to bubblewrap, which loads it just before it execs the bot. Without libseccomp the sandbox runs without
the filter (`available()` says so).
"""

from __future__ import annotations

import ctypes
import errno
import functools
import os

SCMP_ACT_ALLOW = 0x7FFF0000
DENY_EPERM = (
    "acct", "add_key", "bpf", "chroot", "clock_adjtime", "clock_settime", "create_module", "delete_module",
    "finit_module", "fsconfig", "fsmount", "fsopen", "fspick", "get_kernel_syms", "init_module", "ioperm", "iopl",
    "kcmp", "kexec_file_load", "kexec_load", "keyctl", "lookup_dcookie", "mount", "mount_setattr", "move_mount",
    "name_to_handle_at", "nfsservctl", "open_by_handle_at", "open_tree", "perf_event_open", "pivot_root",
    "process_vm_readv", "process_vm_writev", "ptrace", "query_module", "quotactl", "reboot", "request_key",
    "setns", "settimeofday", "swapoff", "swapon", "syslog", "sysfs", "_sysctl", "umount2", "unshare", "uselib",
    "userfaultfd", "ustat", "vm86", "vm86old",
)
DENY_ENOSYS = ("io_uring_setup", "io_uring_enter", "io_uring_register",
               "inotify_init", "inotify_init1", "inotify_add_watch", "fanotify_init", "fanotify_mark")
PRETEND = ("flock",)  # "succeeds" (errno 0) without locking anything
# fcntl commands (linux/fcntl.h; the same numbers for the 64-bit forms on x86-64 and arm64), filtered by argument
F_GETLK, F_SETLK, F_SETLKW, F_OFD_GETLK, F_OFD_SETLK, F_OFD_SETLKW = 5, 6, 7, 36, 37, 38
F_SETLEASE, F_GETLEASE, F_NOTIFY = 1024, 1025, 1026
FCNTL_PRETEND = (F_SETLK, F_SETLKW, F_OFD_SETLK, F_OFD_SETLKW)
FCNTL_ENOLCK = (F_GETLK, F_OFD_GETLK)
FCNTL_EPERM = (F_SETLEASE, F_GETLEASE, F_NOTIFY)
SCMP_CMP_EQ = 4


class _ArgCmp(ctypes.Structure):
    """libseccomp's `struct scmp_arg_cmp`: argument `arg` compared with `op` to `datum_a` (masked by `datum_b`)."""

    _fields_ = [("arg", ctypes.c_uint), ("op", ctypes.c_int), ("datum_a", ctypes.c_uint64),
                ("datum_b", ctypes.c_uint64)]


def _errno_action(code: int) -> int:
    return 0x00050000 | (code & 0xFFFF)  # SCMP_ACT_ERRNO(code)


@functools.cache
def bpf_program() -> bytes | None:
    """The compiled filter (raw BPF, as `bwrap --seccomp FD` reads it), or None without libseccomp."""
    try:
        lib = ctypes.CDLL("libseccomp.so.2", use_errno=True)
    except OSError:
        return None
    lib.seccomp_init.restype = ctypes.c_void_p
    lib.seccomp_init.argtypes = [ctypes.c_uint32]
    lib.seccomp_syscall_resolve_name.argtypes = [ctypes.c_char_p]
    lib.seccomp_rule_add.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_int, ctypes.c_uint]
    lib.seccomp_rule_add_array.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_int, ctypes.c_uint,
                                           ctypes.POINTER(_ArgCmp)]
    lib.seccomp_export_bpf.argtypes = [ctypes.c_void_p, ctypes.c_int]
    lib.seccomp_release.argtypes = [ctypes.c_void_p]
    ctx = lib.seccomp_init(SCMP_ACT_ALLOW)
    if not ctx:
        return None
    try:
        for names, action in ((DENY_EPERM, _errno_action(errno.EPERM)),
                              (DENY_ENOSYS, _errno_action(errno.ENOSYS)),
                              (PRETEND, _errno_action(0))):
            for name in names:
                number = lib.seccomp_syscall_resolve_name(name.encode())
                if number < 0:
                    continue  # not a system call of this architecture (vm86 on x86-64, ...)
                rc = lib.seccomp_rule_add(ctx, action, number, 0)
                if rc < 0:
                    raise OSError(-rc, f"seccomp_rule_add({name}): {os.strerror(-rc)}")
        fcntl_number = lib.seccomp_syscall_resolve_name(b"fcntl")
        for commands, code in ((FCNTL_PRETEND, 0), (FCNTL_ENOLCK, errno.ENOLCK), (FCNTL_EPERM, errno.EPERM)):
            for command in commands:
                rc = lib.seccomp_rule_add_array(ctx, _errno_action(code), fcntl_number, 1,
                                                (_ArgCmp * 1)(_ArgCmp(1, SCMP_CMP_EQ, command, 0)))
                if rc < 0:
                    raise OSError(-rc, f"seccomp_rule_add(fcntl {command}): {os.strerror(-rc)}")
        fd = os.memfd_create("arena-seccomp", os.MFD_CLOEXEC)
        try:
            rc = lib.seccomp_export_bpf(ctx, fd)
            if rc < 0:
                raise OSError(-rc, f"seccomp_export_bpf: {os.strerror(-rc)}")
            os.lseek(fd, 0, os.SEEK_SET)
            chunks = []
            while chunk := os.read(fd, 65536):
                chunks.append(chunk)
            return b"".join(chunks)
        finally:
            os.close(fd)
    finally:
        lib.seccomp_release(ctx)


def available() -> bool:
    return bpf_program() is not None


def program_fd() -> int | None:
    """A fresh descriptor to read the filter from (a pipe already holding it, write end closed), to pass to
    bwrap as `--seccomp FD`; the caller closes it after starting bwrap. None without libseccomp."""
    program = bpf_program()
    if program is None:
        return None
    read_fd, write_fd = os.pipe()
    try:
        os.write(write_fd, program)  # a few hundred bytes: well within a pipe's buffer
    finally:
        os.close(write_fd)
    return read_fd
