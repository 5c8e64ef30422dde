"""A sandboxed bot has no network: it cannot reach a server on the host's loopback nor a host unix socket."""

import os
import socket

import pytest
from sandbox_helpers import requires_sandbox, result_of

pytestmark = [pytest.mark.sandbox, requires_sandbox]


def test_bot_cannot_reach_host_tcp_or_abstract_socket(run_program):
    tcp = socket.create_server(("127.0.0.1", 0))
    tcp.settimeout(0.3)
    abstract_name = f"arena-test-{os.getpid()}"
    unix = socket.socket(socket.AF_UNIX)
    unix.bind("\0" + abstract_name)
    unix.listen()
    unix.settimeout(0.3)
    try:
        bot = run_program("network.py", env={"TEST_PORT": str(tcp.getsockname()[1]),
                                             "TEST_ABSTRACT": abstract_name})
        result = result_of(bot)
        assert result["tcp"].startswith(("ConnectionRefusedError", "OSError")), result
        assert result["abstract"].startswith(("ConnectionRefusedError", "FileNotFoundError")), result
        assert result["interfaces"] == ["lo"]
        for server in (tcp, unix):  # nothing arrived on the host side
            with pytest.raises(TimeoutError):
                server.accept()
    finally:
        tcp.close()
        unix.close()
