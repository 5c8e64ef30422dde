"""Time control: each decision may take decision_ms; beyond it time comes from the match's bank; when the bank is
empty a late answer is a timeout. The time used is recorded per decision and per seat."""

import re

from arena import replay
from arena.match import TimeControl

from referee_helpers import play_nim


def test_slow_bot_draws_on_its_bank_then_times_out(tmp_path):
    # sleepy takes 150 ms per decision: 50 ms over a 100 ms limit, against a 120 ms bank
    tc = TimeControl(decision_ms=100, bank_ms=120, startup_ms=5000, max_faults=10)
    result = play_nim("good", "sleepy", seed=11, time_control=tc, replay_path=tmp_path / "r.replay.json.gz")
    sleepy = result.seats[1]
    decisions = [d for d in replay.load(result.replay_path)["decisions"] if d["seat"] == 1]
    # the first two answers (50 + 50 ms over) fit in the bank; the third has only 20 ms of bank left
    assert decisions[0]["fault"] is None and decisions[1]["fault"] is None
    assert all(140 <= d["ms"] < 400 for d in decisions[:2])
    assert decisions[2]["fault"]["kind"] == "timeout"
    left = int(re.search(r"100 ms \+ (\d+) ms of bank", decisions[2]["fault"]["message"]).group(1))
    assert 0 <= left <= 20  # 120 ms of bank minus two answers 50-odd ms over the limit
    assert 100 + left - 5 <= decisions[2]["ms"] < 400
    # once the bank is empty every answer over the limit is late
    assert all(d["fault"] and d["fault"]["kind"] == "timeout" for d in decisions[3:])
    assert not sleepy.disqualified
    assert abs(sleepy.time_ms - sum(d["ms"] for d in decisions)) < 1.0
    assert sleepy.decisions == len(decisions)


def test_bank_is_per_match_and_generous_limits_give_no_fault():
    tc = TimeControl(decision_ms=1000, bank_ms=0, startup_ms=5000, max_faults=0)
    result = play_nim("good", "sleepy", time_control=tc)
    assert all(s.faults == [] for s in result.seats)
    assert result.seats[1].time_ms >= 150 * result.seats[1].decisions
