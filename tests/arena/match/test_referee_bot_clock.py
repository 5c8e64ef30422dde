"""The bot's clock (arena.match.botclock, issue 21): a bot is charged the CPU the host gave it, not the wall clock.

Starvation here is the test's own doing, never hoped-for load: the bots' cgroup quota (`SandboxLimits.cpu_rate`)
is set to 5 % of a core, so every bot gets its CPU twenty times slower than the wall clock runs, whatever else
the machine does. A busier machine only starves them more, which the rule forgives as well.
"""

from __future__ import annotations

import pytest
from referee_helpers import FIXED_KEY, bot

from arena import narration
from arena import replay as replays
from arena.commands.replay import show_lines
from arena.match import TimeControl, run_match
from arena.match.types import FaultKind
from arena.sandbox.limits import SandboxLimits

#: A twentieth of a core: cruncher's 0.3 s of start-up CPU (plus Python's own) takes over 6 s of wall time, and
#: each of its 0.1 s decisions 2 s; the limits below are far shorter than that on the wall, far longer in CPU.
STARVED = SandboxLimits(cpu_rate=0.05)


@pytest.mark.timeout(300)
def test_a_bot_starved_of_cpu_at_start_up_and_mid_decision_is_not_faulted():
    tc = TimeControl(decision_ms=400, bank_ms=0, startup_ms=2000, max_faults=0)
    result = run_match("nim", {}, 5, [bot("cruncher"), bot("good")], time_control=tc, limits=STARVED,
                       bot_seed_key=FIXED_KEY)
    assert not result.void, result.void
    cruncher = result.seats[0]
    # before the bot's clock: "did not open its socket within 2000 ms", and every decision a timeout
    assert cruncher.faults == [] and not cruncher.disqualified, cruncher.faults
    assert cruncher.decisions >= 1
    # charged about its 0.1 s of CPU a decision, though each took ~2 s of wall time
    assert cruncher.time_ms / cruncher.decisions < tc.decision_ms


@pytest.mark.timeout(120)
def test_a_bot_that_burns_its_budget_without_answering_is_faulted_and_its_turns_marked(tmp_path):
    tc = TimeControl(decision_ms=300, bank_ms=0, startup_ms=5000, max_faults=0)
    path = tmp_path / f"m{replays.SUFFIX}"
    result = run_match("nim", {}, 5, [bot("spinner"), bot("good")], time_control=tc, bot_seed_key=FIXED_KEY,
                       replay_path=str(path))
    spinner = result.seats[0]
    assert not result.void
    assert spinner.faults[0].kind == FaultKind.TIMEOUT and spinner.disqualified
    assert "of CPU" in spinner.faults[0].message  # the clock says what it charged
    assert result.seats[1].faults == []

    replay = replays.load(path)
    replays.verify(replay)
    decisions = replay["decisions"]
    mine = [d for d in decisions if d["seat"] == 0 and not d["forced"]]
    assert mine and all(d["substitute"] for d in mine)  # the timed-out one and every one after it
    assert not any(d["substitute"] for d in decisions if d["seat"] == 1)
    assert spinner.substituted == len(mine)

    frames = replays.frames(replay)
    story = narration.story("nim", frames, ["spinner", "good"])
    first = next(i for i, f in enumerate(frames) if f.get("substitute"))
    assert story["turns"][first]["substitute"]
    assert "The referee played this for spinner, timed out" in " ".join(story["turns"][first]["lines"])
    later = [i for i, f in enumerate(frames) if f.get("substitute") and not f.get("fault")]
    if later:
        assert "disqualified" in " ".join(story["turns"][later[0]]["lines"])
    shown = "\n".join(show_lines(replay, None))
    assert "(played by the referee: the seat faulted)" in shown


def test_a_replay_written_before_substitute_was_recorded_still_verifies_and_reads_the_substitutes_back(tmp_path):
    path = tmp_path / f"m{replays.SUFFIX}"
    run_match("nim", {}, 5, [bot("spinner"), bot("good")], bot_seed_key=FIXED_KEY, replay_path=str(path),
              time_control=TimeControl(decision_ms=200, bank_ms=0, startup_ms=5000, max_faults=0))
    replay = replays.load(path)
    recorded = [d.pop("substitute") for d in replay["decisions"]]
    assert any(recorded)
    replays.verify(replay)
    frames = replays.frames(replay)
    # read from the faults and the result as the referee recorded it: a faulted turn, and every later unforced
    # turn of the disqualified seat
    assert [f["substitute"] for f in frames[1:]] == recorded


def test_a_decision_marked_both_forced_and_substitute_does_not_verify(tmp_path):
    path = tmp_path / f"m{replays.SUFFIX}"
    run_match("nim", {}, 5, [bot("good"), bot("good")], bot_seed_key=FIXED_KEY, replay_path=str(path),
              time_control=TimeControl(startup_ms=5000))
    replay = replays.load(path)
    forced = [d for d in replay["decisions"] if d["forced"]]
    if not forced:
        pytest.skip("this seed's game has no forced decision")
    forced[0]["substitute"] = True
    with pytest.raises(replays.ReplayMismatch, match="forced"):
        replays.verify(replay)


@pytest.mark.timeout(120)
def test_a_match_in_which_every_seat_failed_to_start_is_void_not_played():
    tc = TimeControl(startup_ms=500, max_faults=0)
    result = run_match("nim", {}, 5, [bot("silent"), bot("silent")], time_control=tc, bot_seed_key=FIXED_KEY)
    assert result.void.startswith("void — host trouble: every seat failed to start"), result.void
    assert [s.rank for s in result.seats] == [0, 0]  # no ranks: nobody won or lost it
    assert result.to_json()["void"] == result.void
    assert result.replay_path is None


def test_one_seat_failing_to_start_is_that_bot_s_fault_not_a_void_match():
    tc = TimeControl(startup_ms=500, max_faults=0)
    result = run_match("nim", {}, 5, [bot("silent"), bot("good")], time_control=tc, bot_seed_key=FIXED_KEY)
    assert not result.void
    assert result.seats[0].faults[0].kind == FaultKind.STARTUP and result.seats[0].disqualified
