"""A bot runs only during its own decisions: the referee freezes its cgroup once it has answered StartMatch and
after every answer, and thaws it just before asking. So a bot's background threads get no CPU on the other seats'
time (which would slow the other bots on a shared worker) and the clock charges what it really computed."""

import re

import pytest
from referee_helpers import play_nim

from arena.match import TimeControl
from tests.arena.sandbox.sandbox_helpers import requires_sandbox

pytestmark = [pytest.mark.sandbox, requires_sandbox]


def test_background_threads_get_no_cpu_between_decisions():
    logs: list[list[str]] = []
    tc = TimeControl(decision_ms=2000, bank_ms=2000, startup_ms=10_000, max_faults=2)
    result = play_nim("burner", "dawdler", time_control=tc, logs=logs)
    burner, dawdler = result.seats
    assert burner.faults == [] and dawdler.faults == []
    burned = float(re.search(r"burned=([\d.]+)", "\n".join(logs[0])).group(1))
    # the burner was frozen through all of the dawdler's turns (>= 1.5 s of wall time, in which an unfrozen
    # busy thread gets up to a whole core); it can only have run during its own, quick decisions and EndMatch,
    # plus the moments between a thaw and the clock's start and between an answer and the freeze, which a loaded
    # machine stretches: the slack is for those
    assert dawdler.time_ms >= 1500
    assert burned <= burner.time_ms / 1000 + 0.75, (burned, burner.time_ms)
