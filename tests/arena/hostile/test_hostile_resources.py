"""Bots that exhaust resources (processes, memory, CPU) are faulted with the right reason and removed, while
their opponent plays every one of its decisions without a fault."""

import pytest
from hostile_helpers import LIMITS, RANDOM, hostile_copy, play

from tests.arena.sandbox.sandbox_helpers import assert_no_traces, requires_sandbox

pytestmark = [pytest.mark.sandbox, requires_sandbox]


def check_match(played, kind: str, words: str, last: bool = False):
    """The opponent played on untouched; the offender's first (or `last`) fault is `kind`, saying `words`."""
    good, bad = played.result.seats
    assert not good.faults and not good.disqualified and good.rank == 1
    assert good.decisions > 10  # it played on to the end
    assert bad.disqualified and bad.rank == 2
    faults = [f for f in bad.faults if f.kind != "disqualified"]
    fault = faults[-1 if last else 0] if faults else None
    assert fault and fault.kind == kind, bad.faults
    assert words in fault.message, fault.message
    assert len(played.processes) == 2
    for process in played.processes:
        assert_no_traces(process)


def test_fork_bomb_is_stopped(monkeypatch, tmp_path):
    played = play(monkeypatch, RANDOM, hostile_copy("forkbomb", tmp_path))
    check_match(played, "timeout", "no answer within 600 ms")


def test_memory_hog_is_oom_killed(monkeypatch, tmp_path):
    played = play(monkeypatch, RANDOM, hostile_copy("memhog", tmp_path))
    # on a busy machine, filling 160 MB can outlast a decision or two (timeouts) before the OOM killer strikes
    faults = [f for f in played.result.seats[1].faults if f.kind != "disqualified"]
    assert {f.kind for f in faults[:-1]} <= {"timeout"}, faults
    check_match(played, "crash", f"killed by the OOM killer (memory limit {LIMITS.memory_mb} MB)", last=True)


def test_spinning_forever_times_out(monkeypatch, tmp_path):
    played = play(monkeypatch, RANDOM, hostile_copy("spinner", tmp_path))
    check_match(played, "timeout", "no answer within 600 ms")
