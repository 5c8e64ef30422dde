"""A solo match keeps the game's own ranking: the one seat that loses to the engine's opponent (Minos'
Rhadamanthus) is rank 2 in the MatchResult and the replay, not rank 1 among the seats; a disqualified solo seat
ranks after Rhadamanthus whatever its points."""

from __future__ import annotations

from pathlib import Path

from arena import games, replay
from arena.match import BotSpec, TimeControl, run_match
from arena.match.ranking import final_ranks

ROOT = Path(__file__).resolve().parents[3]
BOTS = Path(__file__).resolve().parent / "bots"


def _final_state(rp: dict):
    game = games.load(rp["header"]["game"], **rp["header"]["params"])
    state = game.new_state(rp["header"]["seed"])
    for d in rp["decisions"]:
        state.apply_text(d["action"])
    return state


def test_a_solo_loss_to_rhadamanthus_is_rank_two(tmp_path):
    path = tmp_path / "solo.replay.json.gz"
    result = run_match("minos", {"players": 1}, 3, [BotSpec(str(ROOT / "bots/python/minos-random"))],
                       replay_path=str(path), time_control=TimeControl(decision_ms=2000, bank_ms=10_000))
    seat = result.seats[0]
    assert seat.faults == [] and not seat.disqualified
    rp = replay.load(path)
    state = _final_state(rp)
    assert state.ranking() == [2] and not state.solo_won(), "the random bot lost to Rhadamanthus"
    assert seat.rank == 2 and rp["result"]["seats"][0]["rank"] == 2
    replay.verify(rp)  # re-simulated ranks agree with the recorded ones


def test_a_disqualified_solo_seat_ranks_after_rhadamanthus(tmp_path):
    # no bot.toml: disqualified before the first decision; the referee's fallback plays the game out
    result = run_match("minos", {"players": 1}, 3, [BotSpec(str(BOTS / "nomanifest"))], sandbox=False)
    assert result.seats[0].disqualified and result.seats[0].rank == 2


def test_final_ranks_keep_the_games_ranks_less_the_disqualified_ahead():
    assert final_ranks([2], [False], engine_opponents=1) == [2]
    assert final_ranks([1], [False], engine_opponents=1) == [1]
    assert final_ranks([1], [True], engine_opponents=1) == [2]
    assert final_ranks([1, 1, 3], [True, False, False]) == [3, 1, 2]
    assert final_ranks([3, 1, 1], [False, False, False]) == [3, 1, 1]
