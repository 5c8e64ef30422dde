"""A bot cannot fill the host's disk: /tmp is a small private tmpfs and the socket directory a tiny one."""

import pytest
from sandbox_helpers import requires_sandbox, result_of

from arena.sandbox import SandboxLimits
from arena.sandbox.mounts import SOCKET_DIR_BYTES, SOCKET_DIR_INODES

pytestmark = [pytest.mark.sandbox, requires_sandbox]


def test_filling_tmp_and_socket_dir_stops_at_their_size(run_program):
    bot = run_program("fill_disk.py", SandboxLimits(tmp_mb=8, file_mb=64))
    with open("/proc/mounts") as f:  # the socket dir is a tmpfs of its own while the bot runs
        assert any(line.split()[1] == str(bot.socket_path.rsplit("/", 1)[0]) and line.split()[2] == "tmpfs"
                   for line in f)
    r = result_of(bot)
    assert r["tmp"] == {"errno": "ENOSPC", "bytes": 8 << 20}
    assert r["sock_data"]["errno"] == "ENOSPC" and r["sock_data"]["bytes"] <= SOCKET_DIR_BYTES
    assert r["sock_files"]["errno"] == "ENOSPC" and r["sock_files"]["files"] < SOCKET_DIR_INODES
    # teardown: the tmpfs is unmounted and its directory gone
