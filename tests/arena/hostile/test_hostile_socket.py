"""A bot cannot get its moves played by a server that is not its own: not by linking its socket to the other
seat's socket, nor to a socket of the host, nor by swapping its socket for a link in the middle of the match, nor
by proxying to a bot of another match (which it cannot reach at all). A seat that tries is disqualified with the
reason, and the match goes on for the others."""

import json
import socket

import pytest
from hostile_helpers import LIMITS, RANDOM, hostile_copy, play

from arena import sandbox
from tests.arena.sandbox.sandbox_helpers import assert_no_traces, requires_sandbox

pytestmark = [pytest.mark.sandbox, requires_sandbox]


def aim_at_first_seat(monkeypatch, bot, mode: str):
    """Once seat 0 is launched, tell the impostor (seat 1) to use seat 0's socket."""
    real_launch = sandbox.launch

    def launch(*args, **kwargs):
        process = real_launch(*args, **kwargs)
        if not (bot / "target.json").exists():
            (bot / "target.json").write_text(json.dumps({"mode": mode, "socket": process.socket_path}))
            (bot / "target.json").chmod(0o644)
        return process

    monkeypatch.setattr(sandbox, "launch", launch)


def assert_fair_for_seat_0(played):
    honest, impostor = played.result.seats
    assert honest.faults == [] and not honest.disqualified and honest.decisions > 0
    assert impostor.disqualified and impostor.rank == 2
    for process in played.processes:
        assert_no_traces(process)


def test_a_link_to_the_other_seats_socket_disqualifies(monkeypatch, tmp_path):
    bot = hostile_copy("impostor", tmp_path)
    aim_at_first_seat(monkeypatch, bot, "link")
    played = play(monkeypatch, RANDOM, bot)
    impostor = played.result.seats[1]
    assert impostor.decisions == 0
    assert [f.kind for f in impostor.faults] == ["startup", "disqualified"]
    assert "its socket is a symbolic link" in impostor.faults[0].message
    assert impostor.faults[1].message == "served from outside its sandbox"
    assert_fair_for_seat_0(played)


def test_a_link_to_a_socket_of_the_host_disqualifies_and_is_never_followed(monkeypatch, tmp_path):
    folder = tmp_path / "host"
    folder.mkdir(mode=0o700)
    host = socket.socket(socket.AF_UNIX)
    host.bind(str(folder / "host.sock"))
    host.listen()
    host.settimeout(0.2)
    try:
        bot = hostile_copy("impostor", tmp_path, {"mode": "link", "socket": host.getsockname()})
        played = play(monkeypatch, RANDOM, bot)
        with pytest.raises(TimeoutError):
            host.accept()  # the referee, root, never connected to it
    finally:
        host.close()
    assert "its socket is a symbolic link" in played.result.seats[1].faults[0].message
    assert_fair_for_seat_0(played)


def test_swapping_the_socket_for_a_link_mid_match_reaches_nothing(monkeypatch, tmp_path):
    bot = hostile_copy("impostor", tmp_path)
    aim_at_first_seat(monkeypatch, bot, "relink")
    played = play(monkeypatch, RANDOM, bot)
    assert "ATTACK linked" in played.log_text(1)
    impostor = played.result.seats[1]
    kinds = [f.kind for f in impostor.faults]
    # its calls go on to the pinned socket, where nothing listens any more: the seat crashes (a call in flight
    # when it stopped its server may fail first, cancelled) instead of being played by seat 0's bot
    assert kinds[-2:] == ["crash", "disqualified"] and set(kinds[:-2]) <= {"malformed"}, impostor.faults
    assert_fair_for_seat_0(played)


def test_a_bot_of_another_match_cannot_be_reached_to_proxy_to(monkeypatch, tmp_path):
    other = sandbox.launch(RANDOM, ["python", "bot.py"], "python", LIMITS)  # a seat of a concurrent match
    try:
        assert other.wait_for_socket(10), other.output_tail()
        bot = hostile_copy("impostor", tmp_path, {"mode": "proxy", "socket": other.socket_path})
        played = play(monkeypatch, RANDOM, bot)
    finally:
        other.close()
    report = [line for line in played.log_text(1).splitlines() if line.startswith("ATTACK ")]
    assert report == ["ATTACK path: FileNotFoundError; abstract: ConnectionRefusedError; folder: FileNotFoundError"]
    assert all(s.faults == [] for s in played.result.seats)  # it played on its own, as a random bot
    for process in [other, *played.processes]:
        assert_no_traces(process)
