"""Final ranks of a match: the game's ranking, with disqualified seats moved after everyone else."""

from __future__ import annotations

from typing import Sequence


def final_ranks(game_ranks: Sequence[int], disqualified: Sequence[bool]) -> list[int]:
    """Competition ranks (1 = best, ties share the better rank). Seats that were not disqualified keep the
    game's order among themselves; disqualified seats come after all of them, in the game's order among
    themselves. E.g. game ranks [1, 2, 3, 4] with seat 0 disqualified give [4, 1, 2, 3]."""
    n = len(game_ranks)
    ranks = [0] * n
    playing = [s for s in range(n) if not disqualified[s]]
    out = [s for s in range(n) if disqualified[s]]
    for group, offset in ((playing, 0), (out, len(playing))):
        for s in group:
            ranks[s] = offset + 1 + sum(1 for t in group if game_ranks[t] < game_ranks[s])
    return ranks
