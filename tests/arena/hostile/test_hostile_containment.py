"""Bots that attack the host (network, other bots' files, host files) get nothing, and because their attacks
change nothing, their match is exactly the match of the same seed between two plain random bots."""

import hashlib
import json
import os
import socket

import pytest
from hostile_helpers import RANDOM, hostile_copy, outcome, play

from arena.botpkg import package_sha256
from tests.arena.sandbox.sandbox_helpers import assert_no_traces, requires_sandbox

pytestmark = [pytest.mark.sandbox, requires_sandbox]


@pytest.fixture(scope="module")
def baseline():
    from hostile_helpers import FIXED_KEY, LIMITS, QUICK, SEED

    from arena.match import BotSpec, run_match

    result = run_match("thebes", {"players": 2}, SEED, [BotSpec(str(RANDOM)), BotSpec(str(RANDOM))],
                       time_control=QUICK, limits=LIMITS, bot_seed_key=FIXED_KEY)
    assert all(not s.faults for s in result.seats)
    return outcome(result)


def attack_report(played, seat: int) -> str:
    lines = [line for line in played.log_text(seat).splitlines() if line.startswith("ATTACK ")]
    assert lines, f"the attack never ran: {played.logs[seat]}"
    return lines[-1][len("ATTACK "):]


def assert_clean(played):
    assert len(played.processes) == 2
    for process in played.processes:
        assert_no_traces(process)


def test_network_attack_gets_nowhere(monkeypatch, tmp_path, baseline):
    tcp = socket.create_server(("127.0.0.1", 0))
    tcp.settimeout(0.2)
    name = f"arena-hostile-{os.getpid()}"
    unix = socket.socket(socket.AF_UNIX)
    unix.bind("\0" + name)
    unix.listen()
    unix.settimeout(0.2)
    try:
        bot = hostile_copy("network", tmp_path, {"port": tcp.getsockname()[1], "abstract": name})
        played = play(monkeypatch, RANDOM, bot)
        assert attack_report(played, 1) == "tcp: refused (ConnectionRefusedError); abstract: refused " \
                                           "(ConnectionRefusedError)"
        for server in (tcp, unix):
            with pytest.raises(TimeoutError):
                server.accept()
    finally:
        tcp.close()
        unix.close()
    assert outcome(played.result) == baseline
    assert_clean(played)


def test_reading_host_secrets_and_the_other_bot_gets_nothing(monkeypatch, tmp_path, baseline):
    bot = hostile_copy("snoop", tmp_path, {"other_bot": str(RANDOM)})
    played = play(monkeypatch, RANDOM, bot)
    report = json.loads(attack_report(played, 1))
    assert report == dict.fromkeys(("passwd", "shadow", "other_bot", "other_bot_file", "host_root"), "denied (FileNotFoundError)")
    assert outcome(played.result) == baseline
    assert_clean(played)


def test_writing_outside_tmp_and_filling_disks_changes_nothing_on_the_host(monkeypatch, tmp_path, baseline):
    host_path = tmp_path / "vandalised-host-file.txt"
    random_before = package_sha256(RANDOM)
    passwd_before = hashlib.sha256(open("/etc/passwd", "rb").read()).hexdigest()
    bot = hostile_copy("vandal", tmp_path, {"other_bot": str(RANDOM), "host_path": str(host_path)})
    bot_before = package_sha256(bot)

    played = play(monkeypatch, RANDOM, bot)

    report = json.loads(attack_report(played, 1))
    assert report["own_folder"] == report["usr"] == report["root"] == "denied (OSError)"  # read-only
    assert report["other_bot"] == report["host_path"] == "denied (FileNotFoundError)"  # not even there
    assert report["tmp"] == "stopped at 16 MB (OSError)"  # its own 16 MB /tmp is full, nothing else
    assert report["socket_dir"].startswith("stopped at 0 MB (OSError)")
    assert not host_path.exists()
    assert package_sha256(RANDOM) == random_before
    assert package_sha256(bot) == bot_before
    assert hashlib.sha256(open("/etc/passwd", "rb").read()).hexdigest() == passwd_before
    assert outcome(played.result) == baseline
    assert_clean(played)
