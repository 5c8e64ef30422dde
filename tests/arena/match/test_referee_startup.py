"""Bots that never get ready: a broken package, a bot that dies at start, one that never opens its socket. Each
is disqualified before the first decision with a startup fault saying why; the other seat plays on."""

from referee_helpers import play_nim

from arena.match import TimeControl


def _startup_fault(result, other_seat_ok=True):
    bad = result.seats[1]
    assert bad.disqualified and bad.decisions == 0
    if other_seat_ok:
        assert bad.rank == 2
        assert result.seats[0].faults == []
        assert result.seats[0].decisions > 0
    return next(f for f in bad.faults if f.kind == "startup")


def test_missing_manifest():
    fault = _startup_fault(play_nim("good", "nomanifest"))
    assert "no bot.toml" in fault.message


def test_bot_that_dies_at_start_is_explained_with_its_output():
    logs = []
    fault = _startup_fault(play_nim("good", "broken", logs=logs))
    assert "exited with code 1 before serving" in fault.message
    assert "ModuleNotFoundError" in "\n".join(logs[1])


def test_bot_that_never_opens_its_socket_is_given_up_after_the_startup_limit():
    tc = TimeControl(decision_ms=200, bank_ms=300, startup_ms=1000, max_faults=2)
    # (the short limit applies to the good bot too: on a loaded machine it may miss it as well)
    fault = _startup_fault(play_nim("good", "silent", time_control=tc), other_seat_ok=False)
    assert "did not open its socket $ARENA_SOCKET within 1000 ms" in fault.message
