"""Host-wide /proc files show a bot neutral copies (issue 22, item 1): the host's load, CPU counters, boot time and
identifier, uptime, free memory and every lock on the machine moved with what other sandboxes did (a channel) and
told a bot about the host; what cannot be hidden is documented in `arena.sandbox`."""

import fcntl
import os

import pytest
from sandbox_helpers import requires_sandbox, result_of

from arena.sandbox import SandboxLimits

pytestmark = [pytest.mark.sandbox, requires_sandbox]


def test_host_wide_proc_files_are_neutral(run_program, tmp_path):
    with open(tmp_path / "held", "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)  # a lock on the host: /proc/locks lists it to anyone who reads it
        with open("/proc/locks") as f:
            assert f.read().strip()
        seen = result_of(run_program("host_view.py", SandboxLimits()))
    with open("/proc/sys/kernel/random/boot_id") as f:
        host_boot_id = f.read()
    assert seen["boot_id"] != host_boot_id
    assert seen["loadavg"].split()[:3] == ["0.00", "0.00", "0.00"]
    assert seen["uptime"].split()[0] == "0.00"
    assert seen["locks"] == ""
    assert seen["interrupts"] == ""
    stat = dict(line.split(maxsplit=1) for line in seen["stat"].splitlines())
    assert stat["btime"] == "0" and set(stat["cpu"].split()) == {"0"}
    meminfo = {line.split(":")[0]: line.split()[1] for line in seen["meminfo"].splitlines()}
    assert meminfo["MemFree"] == meminfo["MemTotal"] == meminfo["MemAvailable"]
    assert seen["cpus"] == os.cpu_count()  # the CPUs are still counted as before: runtimes size their pools by it
