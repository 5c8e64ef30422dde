"""A solo result names the opponent the engine played (E-01): Rhadamanthus' VP and rank travel with the match
result (`MatchResult.engine_opponents`), so every page and message that shows the result can say who came first,
and a replay whose recorded opponent result differs from the re-simulated one is refused."""

from __future__ import annotations

import copy
import random

import pytest

from arena import games
from arena import replay as replays
from arena.match.types import MatchResult


def _solo_replay(seed: int) -> dict:
    game = games.load("minos", players=1)
    return replays.of_selfplay(game, seed, [games.policies("minos")["greedy"]()], [random.Random(seed)], ["me"])


def test_a_solo_result_carries_rhadamanthus_score_and_rank():
    for seed in (1, 2, 3):
        replay = _solo_replay(seed)
        (seat,) = replay["result"]["seats"]
        (bot,) = replay["result"]["engine_opponents"]
        assert bot["name"] == "Rhadamanthus"
        assert sorted([seat["rank"], bot["rank"]]) == [1, 2], "exactly one of the two came first"
        assert (seat["rank"] == 1) == (seat["score"] > bot["score"]), "the human wins only with strictly more VP"
        typed = MatchResult.from_json(replay["result"])
        assert typed.engine_opponents == [bot] and MatchResult.from_json(typed.to_json()) == typed
        replays.verify(replay)


def test_games_without_an_engine_opponent_record_none():
    game = games.load("minos", players=2)
    policies = [games.policies("minos")["greedy"]() for _ in range(2)]
    replay = replays.of_selfplay(game, 5, policies, [random.Random(5)] * 2, ["a", "b"])
    assert replay["result"]["engine_opponents"] == []


def test_a_replay_that_misreports_rhadamanthus_is_refused():
    replay = _solo_replay(4)
    forged = copy.deepcopy(replay)
    forged["result"]["engine_opponents"][0]["score"] += 10
    with pytest.raises(replays.ReplayMismatch, match="engine's opponents differ"):
        replays.verify(forged)
    older = copy.deepcopy(replay)
    del older["result"]["engine_opponents"]  # a result recorded before the field existed still verifies
    replays.verify(older)
