"""Final (and running) scoring: artifacts, exhibitions, congress, specialized-knowledge majority.

Works on the state's flat per-player tables so the same code scores a finished game and a position mid-game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from arena.games.thebes.data import MAJORITY_SOLE, MAJORITY_TIED, SITES, congress_points

N_SITES: Final = len(SITES)


def majority_points(books: Sequence[int], players: int) -> list[int]:
    """Per player, the majority points: for each site, the sole player with the most specialized books scores
    MAJORITY_SOLE, each of several tied leaders MAJORITY_TIED; a site where the most is 0 scores nobody
    (NOTES decision 5). `books[p * 5 + s]` counts specialized-knowledge books on cards and tokens only."""
    points = [0] * players
    for s in range(N_SITES):
        best = max(books[p * N_SITES + s] for p in range(players))
        if best <= 0:
            continue
        leaders = [p for p in range(players) if books[p * N_SITES + s] == best]
        gain = MAJORITY_SOLE if len(leaders) == 1 else MAJORITY_TIED
        for p in leaders:
            points[p] += gain
    return points


def breakdown(players: int, artifact_value: Sequence[int], exhibition_points: Sequence[int],
              congress: Sequence[int], books: Sequence[int]) -> list[dict[str, int]]:
    """Per player {"artifacts", "exhibitions", "congress", "majority", "total"}; total is the sum of the parts."""
    majority = majority_points(books, players)
    out = []
    for p in range(players):
        parts = {"artifacts": artifact_value[p], "exhibitions": exhibition_points[p],
                 "congress": congress_points(congress[p]), "majority": majority[p]}
        parts["total"] = sum(parts.values())
        out.append(parts)
    return out
