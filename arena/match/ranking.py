"""Final ranks of a match: the game's ranking, with disqualified seats moved after everyone else."""

from __future__ import annotations

from collections.abc import Sequence


def final_ranks(game_ranks: Sequence[int], disqualified: Sequence[bool], engine_opponents: int = 0) -> list[int]:
    """Competition ranks (1 = best, ties share the better rank) from the game's own `ranking()`.

    A seat that was not disqualified keeps its game rank, less one for every disqualified seat the game ranked
    strictly before it: so a solo seat that lost to the game's own opponent keeps rank 2. Disqualified seats come
    after every other competitor, the seats still playing and the game's `engine_opponents` (opponents the engine
    plays itself, e.g. Minos' Rhadamanthus), in the game's order among themselves.
    E.g. game ranks [1, 2, 3, 4] with seat 0 disqualified give [4, 1, 2, 3]; a solo game rank [2] stays [2];
    a disqualified solo seat ranks 2 behind the engine's opponent whatever its game rank."""
    n = len(game_ranks)
    out = [s for s in range(n) if disqualified[s]]
    behind = n - len(out) + engine_opponents  # the competitors still in the game
    ranks = [0] * n
    for s in range(n):
        if disqualified[s]:
            ranks[s] = behind + 1 + sum(1 for t in out if game_ranks[t] < game_ranks[s])
        else:
            ranks[s] = game_ranks[s] - sum(1 for t in out if game_ranks[t] < game_ranks[s])
    return ranks
