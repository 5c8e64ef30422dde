"""Bots that hang, crash, answer garbage, illegal or huge answers, or never serve are faulted with the right
reason; the match is played to its end, the opponent without a single fault, and nothing is left behind."""

import pytest
from hostile_helpers import RANDOM, hostile_copy, play

from tests.arena.sandbox.sandbox_helpers import assert_no_traces, requires_sandbox

pytestmark = [pytest.mark.sandbox, requires_sandbox]

CASES = [
    # bot, fault kind, words in the first fault's message
    ("hang", "timeout", "no answer within 600 ms"),
    ("crash", "crash", "exited with code 7"),
    ("illegal", "illegal", "legal actions"),
    ("garbage", "malformed", "not a valid DecideResponse"),
    ("huge", "malformed", "too large"),
    ("mute", "startup", "did not open its socket"),
]


@pytest.mark.parametrize("name,kind,words", CASES, ids=[c[0] for c in CASES])
def test_offender_is_faulted_and_the_match_goes_on(monkeypatch, tmp_path, name, kind, words):
    played = play(monkeypatch, RANDOM, hostile_copy(name, tmp_path))
    good, bad = played.result.seats
    assert not good.faults and not good.disqualified and good.rank == 1
    assert good.decisions > 10
    assert bad.disqualified and bad.rank == 2
    faults = [f for f in bad.faults if f.kind != "disqualified"]
    assert faults and faults[0].kind == kind, bad.faults
    assert words in faults[0].message, faults[0].message
    assert len(played.processes) == 2
    for process in played.processes:
        assert_no_traces(process)
