"""Who meets whom: the next table of a ladder, and the opponents of a version test. Free of Django, so the
rules can be tested on plain values (and simulated: `bench/rating_calibration.py`).

A ladder table:

1. The seed is the bot that most needs a game: a new version still playing its first games (`Candidate.new`:
   its rating's interval is widest then, and the leaderboard shows the new version's rating), then fewest
   games, then longest idle (never played first), then the newest version. A bot sits in one pending match at
   a time, so a new version takes one table of the ladder's pending ones and everyone else keeps playing. A
   ladder match of the bot's version that failed counts as a game (also towards its first games), and its end
   as when the bot last played: a version whose matches all fail (a package no worker could run) would
   otherwise stay at 0 games and seed every table.
2. The other seats are drawn at random, each remaining candidate weighted by the information a game between it
   and the seed carries about their ratings, p·(1 − p) with p the expected score from the leaderboard rating
   (¼ for equals, ~1/12 at 400 points apart, ~1/100 at 800): neighbours meet most, but everyone can meet
   everyone. Always picking among the few nearest ratings (the old rule) plays a ladder as a chain of
   neighbourhoods, and the incremental Elo of such a ladder drifts apart: in `bench/rating_calibration.py` its
   slope against the true strength grew to ~2 after 1,000 games a bot; this draw keeps it near 1 and the
   leaderboard's fitted rating, which does not depend on how opponents were chosen, calibrated.
   `window` (a number) restores the old rule, for the simulation's comparison and for tests.
3. Never two bots with a stake in common at one table (collusion, kingmaking). A personal bot's stake is its
   owner's; a team bot's is its team's and each member's (`Candidate.stakes`). So two bots of one team never
   meet, nor a member's personal bot and their team's bot (the member could throw one's game to the other),
   nor the bots of two teams that share a member. The house's built-in bots are exempt: they are reference
   opponents with no interest of their own.
4. Seats are shuffled, so no bot keeps the first-move advantage or disadvantage.

A version test's opponents (`pick_opponents`, the same draw as the other seats of a ladder table, around the
tested bot's rating, its owner's bots excluded by rule 3): random among the `window` nearest ratings per seat, so
that they are about as strong as the tested bot, as the head-to-head reading of the pair scores assumes.
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
    rating: float           # the leaderboard rating (ladders.rating_fit), Elo scale
    games: int = 0
    last_played_at: datetime | None = None
    house: bool = False     # a built-in bot of the house: exempt from the one-bot-per-owner rule
    team_id: int | None = None  # the team that owns the bot, if a team does
    member_ids: tuple[int, ...] = ()  # that team's members: each has a stake in the bot
    failed: int = 0         # ladder matches of this version that failed (never played: no rating games)
    last_failed_at: datetime | None = None
    new: bool = False       # its active version has not played its first games on the ladder yet (rule 1)

    @property
    def stakes(self) -> frozenset[tuple[str, int]]:
        """Who has a stake in the bot, for rule 3: ("team", id) and ("user", id) of each member for a team bot,
        ("user", owner) for a personal one; none for the house's bots (exempt)."""
        if self.house:
            return frozenset()
        if self.team_id is None:
            return frozenset({("user", self.owner_id)})
        return frozenset({("team", self.team_id), *(("user", m) for m in self.member_ids)})


def need_key(c: Candidate) -> tuple[bool, int, float, float, int]:
    """Sort key: the bot that most needs a game first."""
    seen = [t.timestamp() for t in (c.last_played_at, c.last_failed_at) if t is not None]
    idle = max(seen) if seen else float("-inf")
    return (not c.new, c.games + c.failed, idle, -c.version_created_at.timestamp(), c.bot_id)


def information(rating: float, opponent: float) -> float:
    """p·(1 − p): the Fisher information of one game between these ratings (logistic, Elo scale 400)."""
    x = min(abs(opponent - rating) / 400.0, 300.0)  # capped: 10^300 is still a float, and p(1−p) is 0 anyway
    p: float = 1.0 / (1.0 + 10.0 ** x)  # a float (typeshed: float ** float may be complex)
    return p * (1.0 - p)


def pick_table(candidates: list[Candidate], players: int, rng: random.Random, window: int | None = None
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


def _fill(seed: Candidate, candidates: list[Candidate], players: int, rng: random.Random, window: int | None
          ) -> list[Candidate] | None:
    others = pick_opponents(seed.rating, set(seed.stakes), [c for c in candidates if c.bot_id != seed.bot_id],
                            players - 1, rng, window)
    return None if others is None else [seed, *others]


def pick_opponents(rating: float, owners: set[tuple[str, int]], candidates: list[Candidate], seats: int,
                   rng: random.Random,
                   window: int | None = None) -> list[Candidate] | None:
    """`seats` opponents for a player of `rating` whose stakes are `owners` (no bot with a stake among them is
    picked, nor two bots with a stake in common; house bots exempt: `Candidate.stakes`), drawn one seat at a time: by information (`window` None) or at
    random among the `window` nearest ratings. None when the candidates run out first."""
    owners = set(owners)
    pool = sorted(candidates, key=lambda c: (abs(c.rating - rating), c.bot_id))
    picked: list[Candidate] = []
    while len(picked) < seats:
        eligible = [c for c in pool if not c.stakes & owners]
        if not eligible:
            return None
        if window is not None:
            pick = rng.choice(eligible[:max(1, window)])
        else:
            # the floor keeps the draw defined (and everyone reachable) however far apart the ratings are
            weights = [max(information(rating, c.rating), 1e-9) for c in eligible]
            pick = rng.choices(eligible, weights=weights)[0]
        picked.append(pick)
        pool.remove(pick)
        owners |= pick.stakes
    return picked
