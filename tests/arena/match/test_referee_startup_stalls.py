"""Time the referee itself was stopped is not charged to a bot's start-up either (issue 12): a worker stopped
(SIGSTOP, a paused VM) while it waits for a bot's socket or for its StartMatch answer would otherwise fault the
bot for a slow start it did not have. The referee runs in a process of its own, stopped and continued by the
test, as tests/arena/match/test_referee_stalls.py does for decisions."""

from __future__ import annotations

import json

import pytest
from referee_helpers import BOTS, run_stopping_the_referee

REFEREE = """
import json, sys
from arena import games
games._REGISTRY["nim"] = "tests.arena.match.nim_game:NimGame"
from arena.match import BotSpec, TimeControl, run_match
bots = sys.argv[1]
tc = TimeControl(decision_ms=2000, startup_ms=int(sys.argv[2]), max_faults=5)
result = run_match("nim", {}, 5, [BotSpec(bots + "/good"), BotSpec(bots + "/latestarter")], time_control=tc,
                   sandbox=False, bot_seed_key=bytes(32))
print(json.dumps(result.to_json()))
"""

STARTUP_MS = 2500  # the bot's start-up limit
STOP_S = 2.5       # the referee is stopped this long: its start-up deadline passes meanwhile
SLEEP_S = 2.9      # the bot's slow step: it ends after the referee continues, so the stop is what it waited on


def start_with_the_referee_stopped(tmp_path, phase: str) -> tuple[dict, str]:
    """A Nim match, good against latestarter, whose referee is stopped for STOP_S as soon as latestarter
    signals the start-up `phase` ("socket": before it serves; "start": inside StartMatch) under way; returns
    latestarter's seat and the referee's log."""
    signal_file = tmp_path / "starting"
    out, err = run_stopping_the_referee(
        [REFEREE, str(BOTS), str(STARTUP_MS)],
        {"ARENA_TEST_SIGNAL": str(signal_file), "ARENA_TEST_PHASE": phase, "ARENA_TEST_SLEEP_S": str(SLEEP_S)},
        signal_file, STOP_S, "the bot's start-up")
    return json.loads(out.strip().splitlines()[-1])["seats"][1], err


@pytest.mark.timeout(120)
def test_a_bot_waited_for_while_the_referee_is_stopped_is_not_faulted_for_its_start(tmp_path):
    # the referee waits for the bot's socket; it is stopped past the 2.5 s start-up limit; the bot serves 0.4 s
    # after it continues (its own start-up time is well within the limit)
    seat, log = start_with_the_referee_stopped(tmp_path, "socket")
    assert seat["faults"] == [] and not seat["disqualified"], seat  # without the fix: "did not open its socket"
    assert "not charged" in log


@pytest.mark.timeout(120)
def test_a_startmatch_under_way_while_the_referee_is_stopped_is_not_faulted(tmp_path):
    # StartMatch is under way when the referee stops for 2.5 s, past the start-up limit; the stop is taken off
    # the bot's clock (arena.match.botclock), and the bot's answer after the referee continues is on time
    seat, log = start_with_the_referee_stopped(tmp_path, "start")
    assert seat["faults"] == [] and not seat["disqualified"], seat  # without the fix: "StartMatch failed"
    assert "not charged" in log
