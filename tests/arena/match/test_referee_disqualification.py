"""Disqualification: more than max_faults faults or a crash puts a seat out; it ranks last even with more points,
its process is stopped, and fallback actions play its seat to the end of the game."""

from referee_helpers import play_nim

from arena import replay
from arena.match import TimeControl
from arena.match.ranking import final_ranks


def test_faults_up_to_the_limit_are_tolerated_and_one_more_disqualifies(tmp_path):
    # illegal faults at every one of its decisions
    tc = TimeControl(decision_ms=500, bank_ms=0, startup_ms=5000, max_faults=2)
    result = play_nim("good", "illegal", time_control=tc, replay_path=tmp_path / "r.replay.json.gz")
    bad = result.seats[1]
    kinds = [f.kind for f in bad.faults]
    assert kinds == ["illegal", "illegal", "illegal", "disqualified"]
    assert bad.faults[-1].decision == bad.faults[-2].decision
    # after disqualification the bot is asked nothing: the rest of its seat's moves are instant fallbacks
    decisions = replay.load(result.replay_path)["decisions"]
    mine = [d for d in decisions if d["seat"] == 1]
    assert len(mine) > 3, "the game went on past the disqualification"
    assert all(d["ms"] == 0 and d["fault"] is None for d in mine[3:])
    assert bad.decisions == 3


def test_disqualified_seat_ranks_last_whatever_its_score():
    assert final_ranks([1, 2, 3, 4], [True, False, False, False]) == [4, 1, 2, 3]
    assert final_ranks([1, 2, 2, 4], [False, False, False, True]) == [1, 2, 2, 4]
    assert final_ranks([2, 1, 3], [True, True, False]) == [3, 2, 1]
    assert final_ranks([1, 1], [False, True]) == [1, 2]


def test_crash_disqualifies_at_once_and_the_other_seat_finishes():
    result = play_nim("good", "crash")
    bad = result.seats[1]
    assert [f.kind for f in bad.faults] == ["crash", "disqualified"]
    assert bad.rank == 2 and result.seats[0].rank == 1
