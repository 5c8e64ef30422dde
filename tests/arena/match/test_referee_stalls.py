"""Time the referee itself was frozen is not charged to bots (issue 12): a worker stopped (SIGSTOP, a paused VM)
while a bot decides would otherwise time the bot out, or draw the stall from its bank. The referee runs in a
process of its own here, stopped and continued by the test, as an operator or a hypervisor would."""

from __future__ import annotations

import json
import time

import pytest
from referee_helpers import BOTS, run_stopping_the_referee

from arena import replay
from arena.match.stalls import StallWatch

REFEREE = """
import json, sys
from arena import games
games._REGISTRY["nim"] = "tests.arena.match.nim_game:NimGame"
from arena.match import BotSpec, TimeControl, run_match
bots = sys.argv[1]
tc = TimeControl(decision_ms=int(sys.argv[3]), bank_ms=int(sys.argv[4]), startup_ms=10000, max_faults=5)
result = run_match("nim", {}, 5, [BotSpec(bots + "/good"), BotSpec(bots + "/signaller")], time_control=tc,
                   sandbox=False, replay_path=sys.argv[2], bot_seed_key=bytes(32))
print(json.dumps(result.to_json()))
"""


def play_with_the_referee_stopped(tmp_path, decision_ms: int, bank_ms: int, first_decision_s: float,
                                  stop_s: float) -> tuple[dict, list[dict], str]:
    """A Nim match, good against signaller, whose referee process is stopped for `stop_s` right after the
    signaller started its first decision; returns the signaller's seat, its decisions and the referee's log."""
    signal_file = tmp_path / "deciding"
    replay_path = tmp_path / "r.replay.json.gz"
    out, err = run_stopping_the_referee(
        [REFEREE, str(BOTS), str(replay_path), str(decision_ms), str(bank_ms)],
        {"ARENA_TEST_SIGNAL": str(signal_file), "ARENA_TEST_FIRST_S": str(first_decision_s)},
        signal_file, stop_s, "the bot's first decision")
    seat = json.loads(out.strip().splitlines()[-1])["seats"][1]
    decisions = [d for d in replay.load(str(replay_path))["decisions"] if d["seat"] == 1 and not d["forced"]]
    return seat, decisions, err


@pytest.mark.timeout(120)
def test_a_bot_is_not_timed_out_or_charged_while_the_referee_is_stopped(tmp_path):
    # the bot has its 200 ms decision under way: the referee stops for 2.5 s, far past the decision's 300 ms
    # + 200 ms of bank; the bot answers meanwhile
    seat, decisions, _ = play_with_the_referee_stopped(tmp_path, 300, 200, 0.2, 2.5)
    assert seat["faults"] == [] and not seat["disqualified"]  # without the fix: a timeout at the stopped decision
    # the stopped decision cost the bot what it computed (~200 ms), not the 2.5 s stop; all its decisions
    # together (~5 × 200 ms) cost less than the stop alone would have
    assert max(d["ms"] for d in decisions) < 1000, [d["ms"] for d in decisions]
    assert seat["time_ms"] < 2500


@pytest.mark.timeout(120)
def test_a_budget_that_passed_on_the_wall_while_the_referee_was_stopped_is_not_charged(tmp_path):
    # the bot's first decision takes 2.6 s of wall time, longer than its 2.5 s, while the referee is stopped
    # (3 s); the stop is taken off the bot's clock (arena.match.botclock), so its answer is on time
    seat, decisions, log = play_with_the_referee_stopped(tmp_path, 2500, 0, 2.6, 3.0)
    assert seat["faults"] == [] and not seat["disqualified"]
    assert "not charged" in log
    assert decisions[0]["ms"] < 2500


def test_the_watch_counts_only_the_part_of_a_stall_inside_a_call():
    watch = StallWatch(tick_s=0.01, stall_s=0.25)
    watch._last = time.perf_counter()
    t0 = time.perf_counter()
    time.sleep(0.4)  # no tick: as if the process had been stopped
    t1 = time.perf_counter()
    assert 0.3 < watch.overlap(t0, t1) <= t1 - t0  # the gap still open is counted before the thread ticks
    watch.tick()
    after = time.perf_counter()
    assert 0.3 < watch.overlap(t0, t1) <= t1 - t0
    assert watch.overlap(after, after + 5) == 0.0  # nothing after it
    watch.tick()
    assert watch.overlap(t0 - 10, t0 - 5) == 0.0  # nor before
