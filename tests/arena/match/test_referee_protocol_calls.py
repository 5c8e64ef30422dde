"""What a bot is told: StartMatch describes the match and its seat, Decide comes only for the bot's own decisions
with the time it has, EndMatch brings the final result; bots start at the same time, not one after another."""

import re

from referee_helpers import play_nim

from arena.match import TimeControl


def test_bot_hears_start_its_own_decisions_and_the_end():
    logs = []
    result = play_nim("good", "reporter", time_control=TimeControl(decision_ms=700, bank_ms=900), logs=logs)
    said = "\n".join(logs[1])
    assert ("start game=nim seat=1 players=['good', 'reporter'] params={'players': 2} decision_ms=700 "
            "protocol=arena.v1") in said
    decisions = re.findall(r"decide decision=(\d+) seat=(\d+) legal=(\d) time_left=700\+900", said)
    assert len(decisions) == result.seats[1].decisions > 0
    assert all(seat == "1" for _, seat, _ in decisions)
    assert all(int(d) % 2 == 1 for d, _, _ in decisions)  # Nim alternates and seat 0 begins: its own turns only
    r0, r1 = result.seats
    assert f"end seat0:rank{r0.rank}:score{r0.score:g} seat1:rank{r1.rank}:score{r1.score:g}" in said


def test_bots_start_in_parallel():
    # each takes 1.5 s to serve: started one after the other, the second would start after the first served
    logs = []
    result = play_nim("slowstart", "slowstart", time_control=TimeControl(startup_ms=10_000), logs=logs)
    assert all(s.faults == [] for s in result.seats), [s.faults for s in result.seats]
    started = [float(re.search(r"started at ([\d.]+)", "\n".join(log)).group(1)) for log in logs]
    served = [float(re.search(r"serving at ([\d.]+)", "\n".join(log)).group(1)) for log in logs]
    assert max(started) < min(served), (started, served)
