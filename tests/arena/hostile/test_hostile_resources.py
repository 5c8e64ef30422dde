"""Bots that exhaust resources (processes, memory, CPU) are faulted with the right reason and removed, while
their opponent plays every one of its decisions without a fault."""

import pytest

from hostile_helpers import LIMITS, RANDOM, hostile_copy, play
from tests.arena.sandbox.sandbox_helpers import assert_no_traces, requires_sandbox

pytestmark = [pytest.mark.sandbox, requires_sandbox]


def check_match(played, kind: str, words: str):
    good, bad = played.result.seats
    assert not good.faults and not good.disqualified and good.rank == 1
    assert good.decisions > 10  # it played on to the end
    assert bad.disqualified and bad.rank == 2
    faults = [f for f in bad.faults if f.kind != "disqualified"]
    assert faults and faults[0].kind == kind, bad.faults
    assert words in faults[0].message, faults[0].message
    assert len(played.processes) == 2
    for process in played.processes:
        assert_no_traces(process)


def test_fork_bomb_is_stopped(monkeypatch, tmp_path):
    played = play(monkeypatch, RANDOM, hostile_copy("forkbomb", tmp_path))
    check_match(played, "timeout", "no answer within 250 ms")


def test_memory_hog_is_oom_killed(monkeypatch, tmp_path):
    played = play(monkeypatch, RANDOM, hostile_copy("memhog", tmp_path))
    check_match(played, "crash", f"killed by the OOM killer (memory limit {LIMITS.memory_mb} MB)")


def test_spinning_forever_times_out(monkeypatch, tmp_path):
    played = play(monkeypatch, RANDOM, hostile_copy("spinner", tmp_path))
    check_match(played, "timeout", "no answer within 250 ms")
