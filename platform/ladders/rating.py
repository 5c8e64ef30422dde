"""Rating math, free of Django: Elo pairwise from a finishing order, and OpenSkill (Plackett–Luce) μ/σ.

Elo for N players (the "multiplayer Elo" of pairwise decomposition): every pair of seats is one virtual game,
won by the better rank (equal ranks draw). A seat's change is K/(N−1) · Σ_j (S_ij − E_ij), so one N-player game
moves a rating about as much as one 2-player game does: splitting a game into N−1 correlated pairings would
otherwise count the same evidence N−1 times. In a 2-player game one side gains exactly what the other loses;
in any game the changes sum to zero (the same K for everyone, and E_ji = 1 − E_ij).

OpenSkill gives the uncertainty shown beside the Elo: σ shrinks as a bot plays; μ − 3σ is its conservative skill.

The pairwise reading of a finishing order is the one home of "the share of opponents beaten" (`pairing_score`,
`share_beaten`, `shares_beaten`): the Elo here, a tournament's points (`tournaments.schedule`) and its
cross-table, and a version test's game score (`versiontests`) all score a game with it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

_MODEL = PlackettLuce()


def expected_score(rating: float, opponent: float) -> float:
    """Probability that `rating` beats `opponent` under Elo's logistic curve (scale 400)."""
    odds: float = 10.0 ** ((opponent - rating) / 400.0)  # a float (typeshed: float ** float may be complex)
    return 1.0 / (1.0 + odds)


def pairing_score(rank: int, other: int) -> float:
    """One pairing of a game read as a two-player game: 1 for finishing ahead of `other` (the smaller rank is
    better), ½ for a tie, 0 behind."""
    return 1.0 if rank < other else 0.5 if rank == other else 0.0


def ranks_for_rating(ranks: Sequence[int | None]) -> list[int]:
    """The finishing order a rating reads: a seat without a rank (a bot disqualified before the end) counts as
    last, tied with any other such seat."""
    last = len(ranks)
    return [r if r is not None else last for r in ranks]


def share_beaten(rank: int, opponent_ranks: Sequence[int]) -> float:
    """The share of the opponents this seat finished ahead of, ties half: 1 / ½ / 0 with two players; 1, ⅔, ⅓, 0
    for the four places of a four-player game."""
    if not opponent_ranks:
        raise ValueError("a game needs at least one opponent")
    return sum(pairing_score(rank, other) for other in opponent_ranks) / len(opponent_ranks)


def shares_beaten(ranks: Sequence[int]) -> list[float]:
    """`share_beaten` of every seat of a game, from its ranks in seat order (0 for a lone seat)."""
    if len(ranks) < 2:
        return [0.0] * len(ranks)
    return [share_beaten(r, [o for j, o in enumerate(ranks) if j != i]) for i, r in enumerate(ranks)]


def elo_changes(ratings: list[float], ranks: list[int], k: float = 32.0) -> list[float]:
    """The Elo change of each seat from its rating and finishing rank (1 = best, equal ranks draw)."""
    if len(ratings) != len(ranks):
        raise ValueError("one rank per rating")
    n = len(ratings)
    if n < 2:
        return [0.0] * n
    k_pair = k / (n - 1)
    changes = [0.0] * n
    for i in range(n):
        for j in range(i + 1, n):
            expected = expected_score(ratings[i], ratings[j])
            actual = pairing_score(ranks[i], ranks[j])
            delta = k_pair * (actual - expected)
            changes[i] += delta
            changes[j] -= delta  # the pair's other side: (1 − S) − (1 − E) = −(S − E)
    return changes


@dataclass(frozen=True)
class Skill:
    mu: float
    sigma: float


def openskill_update(skills: list[Skill], ranks: list[int]) -> list[Skill]:
    """New μ/σ per seat after a game with these finishing ranks (Plackett–Luce, ties allowed)."""
    teams = [[_MODEL.create_rating([s.mu, s.sigma])] for s in skills]
    rated = _MODEL.rate(teams, ranks=[float(r) for r in ranks])
    return [Skill(team[0].mu, team[0].sigma) for team in rated]


def initial_skill() -> Skill:
    rating = _MODEL.rating()
    return Skill(rating.mu, rating.sigma)
