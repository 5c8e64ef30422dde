"""Hostile: system calls an unprivileged process may normally make, that open kernel attack surface."""
import ctypes
import errno
import json

libc = ctypes.CDLL(None, use_errno=True)


def call(number, *args):
    rc = libc.syscall(number, *args)
    return "ok" if rc >= 0 else errno.errorcode[ctypes.get_errno()]


PTRACE, ADD_KEY, IO_URING_SETUP, PROCESS_VM_READV = 101, 248, 425, 310
params = ctypes.create_string_buffer(120)  # struct io_uring_params, zeroed
print("RESULT " + json.dumps({
    "ptrace_traceme": call(PTRACE, 0, 0, 0, 0),
    "add_key": call(ADD_KEY, b"user", b"arena-test", b"x", 1, -3),  # KEY_SPEC_SESSION_KEYRING
    "io_uring_setup": call(IO_URING_SETUP, 4, params),
    "getpid": call(39),
}), flush=True)
