"""The referee reaches a bot's server without following any path the bot controls, and only when that server
runs in the bot's own sandbox (its uid, its cgroup): a symbolic link, a server of the host or a process of the
bot's uid outside its cgroup are refused with the reason; a socket swapped after it was pinned changes nothing."""

import json
import os
import socket
import subprocess

import pytest
from sandbox_helpers import requires_sandbox, wait_output

from arena.sandbox import ForeignServer, SandboxLimits

pytestmark = [pytest.mark.sandbox, requires_sandbox]


@pytest.fixture
def host_server(tmp_path):
    """A unix socket of the host, in a folder only root may enter."""
    folder = tmp_path / "host"
    folder.mkdir(mode=0o700)
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(folder / "host.sock"))
    server.listen()
    server.settimeout(0.2)
    yield server
    server.close()


def test_a_link_in_place_of_the_socket_is_refused_and_never_followed(run_program, host_server):
    bot = run_program("silent.py")
    wait_output(bot, "SLEEPING", 5)
    os.symlink(host_server.getsockname(), bot.socket_path)  # what the bot's own uid can do in its folder
    with pytest.raises(ForeignServer, match="symbolic link"):
        bot.wait_for_socket(3)
    with pytest.raises(TimeoutError):
        host_server.accept()  # the referee never connected to it


def test_a_server_of_another_uid_is_refused(run_program):
    bot = run_program("silent.py")
    wait_output(bot, "SLEEPING", 5)
    impostor = socket.socket(socket.AF_UNIX)  # root's, in the bot's socket folder
    impostor.bind(bot.socket_path)
    impostor.listen()
    try:
        with pytest.raises(ForeignServer, match=rf"uid 0, not by the bot's sandbox \(uid {bot.uid}\)"):
            bot.wait_for_socket(3)
    finally:
        impostor.close()


def test_a_server_of_the_bots_uid_outside_its_cgroup_is_refused(run_program):
    bot = run_program("silent.py")
    wait_output(bot, "SLEEPING", 5)
    code = ("import socket,sys,time; s=socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.listen(); "
            "print('LISTENING', flush=True); time.sleep(30)")
    outsider = subprocess.Popen(["/usr/bin/setpriv", f"--reuid={bot.uid}", f"--regid={bot.uid}", "--clear-groups",
                                 "/usr/bin/python3", "-c", code, bot.socket_path], stdout=subprocess.PIPE)
    try:
        assert outsider.stdout.readline() == b"LISTENING\n"
        with pytest.raises(ForeignServer, match=r"pid \d+\) outside the bot's sandbox"):
            bot.wait_for_socket(3)
    finally:
        outsider.kill()
        outsider.wait()


def test_the_pinned_socket_stays_the_bots_own_after_a_swap(run_program, host_server):
    bot = run_program("listen.py")
    assert bot.wait_for_socket(5)
    os.rename(bot.socket_path, bot.socket_path + ".moved")
    os.symlink(host_server.getsockname(), bot.socket_path)
    with socket.socket(socket.AF_UNIX) as client:
        client.settimeout(5)
        client.connect(bot.server_address)
        view = json.loads(client.recv(65536))
    assert view["uid"] == bot.uid
    with pytest.raises(TimeoutError):
        host_server.accept()


def test_a_plain_bot_is_pinned_too(make_bot_dir, host_server):
    from sandbox_helpers import PYTHON

    from arena.sandbox import launch

    bot = launch(make_bot_dir("listen.py"), [PYTHON, "bot.py"], None, SandboxLimits(), sandbox=False)
    try:
        assert bot.wait_for_socket(5)
        assert bot.server_address.startswith("/proc/self/fd/")
        os.unlink(bot.socket_path)
        os.symlink(host_server.getsockname(), bot.socket_path)
        with socket.socket(socket.AF_UNIX) as client:
            client.settimeout(5)
            client.connect(bot.server_address)
            assert json.loads(client.recv(65536))["uid"] == os.getuid()
    finally:
        bot.close()
