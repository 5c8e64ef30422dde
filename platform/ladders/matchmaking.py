"""Choosing the next table of a ladder, free of Django so the rules can be tested on plain values.

1. The seed is the bot that most needs a game: fewest games, then longest idle (never played first), then the
   newest version (a fresh upload gets its first games quickly).
2. The other seats come from bots of nearby rating: for each seat, a random pick among the `window` nearest
   (by Elo) remaining candidates, so neighbours meet often but not always the same ones.
3. Never two bots of the same owner at one table (collusion, kingmaking). The house's built-in bots are
   exempt: they are reference opponents with no interest of their own.
4. Seats are shuffled, so no bot keeps the first-move advantage or disadvantage.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True)
class Candidate:
    bot_id: int
    owner_id: int
    version_id: int
    version_created_at: datetime
    elo: float
    games: int
    last_played_at: datetime | None
    house: bool = False

    @property
    def owner_key(self) -> int | None:
        return None if self.house else self.owner_id


def need_key(c: Candidate) -> tuple:
    """Sort key: the bot that most needs a game first."""
    idle = c.last_played_at.timestamp() if c.last_played_at is not None else float("-inf")
    return (c.games, idle, -c.version_created_at.timestamp(), c.bot_id)


def pick_table(candidates: list[Candidate], players: int, rng: random.Random, window: int = 4
               ) -> list[Candidate] | None:
    """The bots of the next table in seat order, or None when no valid table can be formed."""
    if len(candidates) < players:
        return None
    for seed in sorted(candidates, key=need_key):
        table = _fill(seed, candidates, players, rng, window)
        if table is not None:
            rng.shuffle(table)
            return table
    return None


def _fill(seed: Candidate, candidates: list[Candidate], players: int, rng: random.Random, window: int
          ) -> list[Candidate] | None:
    table = [seed]
    owners = {seed.owner_key} - {None}
    pool = sorted((c for c in candidates if c.bot_id != seed.bot_id),
                  key=lambda c: (abs(c.elo - seed.elo), c.bot_id))
    while len(table) < players:
        eligible = [c for c in pool if c.owner_key is None or c.owner_key not in owners]
        if not eligible:
            return None
        pick = rng.choice(eligible[:max(1, window)])
        table.append(pick)
        pool.remove(pick)
        if pick.owner_key is not None:
            owners.add(pick.owner_key)
    return table
