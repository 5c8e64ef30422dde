"""The seccomp filter refuses system calls a bot never needs (ptrace, kernel keyrings, io_uring, ...), while
ordinary calls work; outside the sandbox the same calls succeed, so the refusals are the filter's."""

import json
import subprocess

import pytest
from sandbox_helpers import PROGRAMS, PYTHON, requires_sandbox, result_of

from arena.sandbox import SandboxLimits, seccomp

pytestmark = [pytest.mark.sandbox, requires_sandbox,
              pytest.mark.skipif(not seccomp.available(), reason="libseccomp2 is not installed")]


def test_filter_refuses_dangerous_calls(run_program):
    outside = subprocess.run([PYTHON, str(PROGRAMS / "syscalls.py")], capture_output=True, text=True, timeout=10)
    unfiltered = json.loads(outside.stdout.split("RESULT ", 1)[1])
    assert unfiltered["ptrace_traceme"] == "ok" and unfiltered["add_key"] == "ok"

    inside = result_of(run_program("syscalls.py", SandboxLimits()))
    assert inside == {"ptrace_traceme": "EPERM", "add_key": "EPERM", "io_uring_setup": "ENOSYS", "getpid": "ok"}
