"""Local tournaments of bot folders: the schedule, and the Elo table with intervals.

Schedule (`schedule`): round robin — every set of `players` distinct bots plays `rounds` deals — or a gauntlet —
one challenger against every set of `players - 1` others. Each deal is played once per seat rotation (a 2-player
deal twice, the bots swapping seats; a 3-player deal three times, rotated), with the same engine seed, so seat
order and luck of the deal cancel out inside each group of games.

Ratings (`elo_table`): each game counts as the pairwise results of its seats (a better rank wins, the same rank
draws); Bradley–Terry strengths are fitted by the minorise–maximise iteration (Hunter 2004) with one virtual draw
between every two bots (a weak prior that keeps a bot that never won finite), shown as Elo (400 log10, mean 0).
The 95 % interval of each bot's Elo is the 2.5th–97.5th percentile over `bootstrap` resamples of the games (a
resample draws whole games with replacement, so the dependence between the pairs of one game is kept).
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Pairing", "elo_table", "fit_elo", "schedule"]


@dataclass(frozen=True)
class Pairing:
    """One game of the schedule: `bots[s]` (indices into the tournament's bot list) sits at seat s; `deal` is the
    index of its engine seed (the games of one rotation group share it)."""

    index: int
    deal: int
    bots: tuple[int, ...]


def schedule(n_bots: int, players: int, rounds: int, gauntlet: bool = False) -> list[Pairing]:
    """The games of a round robin (or, with `gauntlet`, of bot 0 against the others): `rounds` deals per set of
    bots, each played in every seat rotation."""
    if players < 1:
        raise ValueError("players must be at least 1")
    if gauntlet:
        if n_bots < players:
            raise ValueError(f"a {players}-player gauntlet needs the challenger and at least {players - 1} others")
        groups = [(0, *rest) for rest in itertools.combinations(range(1, n_bots), players - 1)]
    else:
        if n_bots < players:
            raise ValueError(f"{players}-player games need at least {players} bots, got {n_bots}")
        groups = list(itertools.combinations(range(n_bots), players))
    out: list[Pairing] = []
    deal = 0
    for group in groups:
        for _ in range(rounds):
            for shift in range(players):
                out.append(Pairing(len(out), deal, tuple(group[shift:] + group[:shift])))
            deal += 1
    return out


Game = Sequence[tuple[int, int]]  # one game: (bot, rank) per seat


def _pair_counts(n: int, games: Sequence[Game]) -> tuple[list[float], list[list[float]]]:
    wins = [0.0] * n
    meet = [[0.0] * n for _ in range(n)]
    for i in range(n):  # the prior: one virtual draw between every two bots
        for j in range(n):
            if i != j:
                meet[i][j] += 1.0
                wins[i] += 0.5
    for game in games:
        for (a, ra), (b, rb) in itertools.combinations(game, 2):
            if a == b:
                continue
            meet[a][b] += 1.0
            meet[b][a] += 1.0
            if ra < rb:
                wins[a] += 1.0
            elif rb < ra:
                wins[b] += 1.0
            else:
                wins[a] += 0.5
                wins[b] += 0.5
    return wins, meet


def fit_elo(n: int, games: Sequence[Game], iterations: int = 200) -> list[float]:
    """Elo (mean 0) of `n` bots from games of (bot, rank) per seat."""
    if n == 1:
        return [0.0]
    wins, meet = _pair_counts(n, games)
    p = [1.0] * n
    for _ in range(iterations):
        new = [wins[i] / sum(meet[i][j] / (p[i] + p[j]) for j in range(n) if meet[i][j]) for i in range(n)]
        scale = math.exp(sum(math.log(x) for x in new) / n)
        p = [x / scale for x in new]
    return [400.0 * math.log10(x) for x in p]


def elo_table(n: int, games: Sequence[Game], bootstrap: int = 200, seed: int = 0
              ) -> list[tuple[float, float, float]]:
    """(Elo, low, high) per bot: the fit and its 95 % bootstrap interval (see the module's docstring)."""
    elo = fit_elo(n, games)
    if not games:
        return [(e, e, e) for e in elo]
    rng = random.Random(seed)
    samples: list[list[float]] = [[] for _ in range(n)]
    for _ in range(bootstrap):
        resample = [games[rng.randrange(len(games))] for _ in games]
        for i, e in enumerate(fit_elo(n, resample, iterations=100)):
            samples[i].append(e)
    out = []
    for i in range(n):
        s = sorted(samples[i])
        out.append((elo[i], s[int(0.025 * (len(s) - 1))], s[int(math.ceil(0.975 * (len(s) - 1)))]))
    return out
