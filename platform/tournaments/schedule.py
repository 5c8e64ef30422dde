"""Tournament schedules and standings, as pure functions (no Django): the Django app stores what these return.

Entrants are any hashable, orderable ids (the app uses entry primary keys); the order in which they are given is
their seeding (best first). A *table* is one game: entrants in seat order plus the seed the game is played with.

Formats
- `round_robin`: every entrant meets every other equally often. Two players: the circle (Berger) method, one round
  per turn of the circle. Three or four players: every k-subset of entrants plays one table (so each pair meets
  exactly C(n-2, k-2) times), tables packed into rounds in which nobody plays twice — when k divides n into full
  rounds with no byes (Baranyai's construction: 12 entrants at 3 players, 55 rounds of 4 tables) — and seat orders
  chosen so that each entrant sits in each seat as equally often as the design allows, counting every repeat of
  a table (`games_per_pairing` rotates its seats: 6 entrants at 4 players, 2 games a table, sit 5/5/5/5).
- `swiss_round`: one round at a time, entrants ordered by current standings and grouped top-down into tables,
  avoiding rematches where any grouping can (then the fewest rematches). Entrants left over (n mod k) get a bye,
  worth `bye_points` (the expected points of an average entrant), among those with fewest byes; which of them is
  chosen inside the same search (the fewest rematches first, then the lowest-ranked), so a bye never forces a
  rematch that another, equally entitled bye would avoid.
- `knockout_round`: two players; a seeded bracket (1 v n, 2 v n-1, top seeds meet as late as possible) padded to
  a power of two with byes for the top seeds; a pairing's winner has more points over its games, then more total
  game score, then the better seed.
- Duplicate sets (`duplicate=True`): each table is played once per rotation of its seats with the same seed; the
  set is scored as one unit by comparing each entrant's total score over the rotations, so the luck of the deal
  is shared by everyone at the table.

Points: a game (or duplicate set) gives each entrant the fraction of its opponents it finished ahead of, ties
counting half: 1 / 0.5 / 0 for two players, 1, 2/3, 1/3, 0 for four. This is the pairwise-win score used for
multiplayer Elo, so a 2-player and a 4-player tournament read the same way.
"""

from __future__ import annotations

import functools
import itertools
import math
import random
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from arena.games.base import rank_by_keys  # competition ranking (1, 2, 2, 4), as the games rank their seats
from ladders.rating import shares_beaten  # the points of a game: the share of opponents beaten (plain Python)
from matches import seeds  # stdlib only: keeps this module free of Django

Entrant = Any  # any hashable, orderable id (entry keys in the app, strings in tests): no type says "orderable"

FORMATS = ("round_robin", "swiss", "knockout")


@dataclass(frozen=True)
class Table:
    """One game to play: `seats[i]` plays seat i. Games with the same `set_key` form one duplicate set."""

    seats: tuple[Entrant, ...]
    seed: int
    set_key: str | None = None


@dataclass(frozen=True)
class Round:
    number: int  # 1-based
    tables: tuple[Table, ...]
    byes: tuple[Entrant, ...] = ()  # entrants who sit this round out


@dataclass(frozen=True)
class GameResult:
    """A finished (or forfeited) game. `ranks[i]` is seat i's rank (1 = best, ties share the better rank);
    a forfeiting seat is ranked last by whoever builds this."""

    seats: tuple[Entrant, ...]
    ranks: tuple[int, ...]
    scores: tuple[float, ...]
    set_key: str | None = None
    round: int | None = None


@dataclass
class Standing:
    entrant: Entrant
    rank: int = 0
    points: float = 0.0
    buchholz: float = 0.0  # sum of the points of every opponent met, once per table
    wins: int = 0  # units (games or duplicate sets) won outright: ahead of every opponent
    units: int = 0  # games (or duplicate sets) played
    byes: int = 0
    score_total: float = 0.0  # raw game score, summed over every game
    mean: float | None = None  # mean points per unit
    ci95: float | None = None  # half-width of the 95% confidence interval of `mean` (None below 2 units)
    opponents: list[Entrant] = field(default_factory=list, repr=False)


def derive_seed(base: int | str, *parts: object) -> int:
    """A game seed from the tournament's secret and the table's place in the schedule: stable across machines
    (a duplicate set replays one seed), not computable without the secret (`matches.seeds.derive_seed`: HMAC,
    63 bits), so finished games' seeds tell nothing about the games to come."""
    return seeds.derive_seed(base, *parts)


# ---------------------------------------------------------------------------------------------------- expansion

def _expand(group: Sequence[Entrant], seed: int, set_key: str, games: int, duplicate: bool) -> list[Table]:
    """The games a table of `group` (already in its seat order) plays: `games` repeats, each with its own seed
    and seats rotated by one; with `duplicate`, each repeat is a set of k rotations sharing one seed."""
    k = len(group)
    out = []
    for g in range(games):
        game_seed = derive_seed(seed, set_key, g)
        if duplicate:
            for r in range(k):
                out.append(Table(tuple(group[(i + r) % k] for i in range(k)), game_seed, f"{set_key}.{g}"))
        else:
            out.append(Table(tuple(group[(i + g) % k] for i in range(k)), game_seed, None))
    return out


def _repeat_seats(position: int, k: int, repeats: int) -> list[int]:
    """The seats the entrant at `position` of a table's seat order takes over its `repeats` games: `_expand`
    rotates the order by one seat a game, so in game g it sits in seat (position − g) mod k."""
    return [(position - g) % k for g in range(repeats)]


def _seat_order(group: Sequence[Entrant], seat_counts: dict[Entrant, Counter], repeats: int = 1
                ) -> tuple[Entrant, ...]:
    """The permutation of `group` that puts each entrant, over all `repeats` games of the table, in the seats it
    has sat in least (the sum of squared seat counts afterwards is smallest; ties: given order)."""
    k = len(group)
    best, best_cost = tuple(group), None
    for perm in itertools.permutations(group):
        cost = 0
        for pos, e in enumerate(perm):
            extra = Counter(_repeat_seats(pos, k, repeats))
            cost += sum((seat_counts[e][s] + c) ** 2 - seat_counts[e][s] ** 2 for s, c in extra.items())
        if best_cost is None or cost < best_cost:
            best, best_cost = perm, cost
    _count_seats(best, seat_counts, repeats, +1)
    return best


def _count_seats(order: Sequence[Entrant], seat_counts: dict[Entrant, Counter], repeats: int, sign: int) -> None:
    for pos, e in enumerate(order):
        for s in _repeat_seats(pos, len(order), repeats):
            seat_counts[e][s] += sign


# -------------------------------------------------------------------------------------------------- round robin

def round_robin(entrants: Sequence[Entrant], players: int, *, games_per_pairing: int = 1,
                duplicate: bool = False, seed: int = 0) -> list[Round]:
    """The whole round-robin schedule. Every pair of entrants meets the same number of times.
    Deterministic, and memoised: a tournament asks for it once per round."""
    _check(list(entrants), players)
    return list(_round_robin(tuple(entrants), players, games_per_pairing, duplicate, seed))


def round_robin_games(n_entrants: int, players: int, *, games_per_pairing: int = 1, duplicate: bool = False) -> int:
    """How many games a round robin of this size plays (every k-subset for k > 2), without building it."""
    tables = math.comb(n_entrants, players)
    return tables * games_per_pairing * (players if duplicate else 1)


@functools.lru_cache(maxsize=64)
def _round_robin(entrants: tuple[Entrant, ...], players: int, games_per_pairing: int, duplicate: bool,
                 seed: int) -> tuple[Round, ...]:
    if players == 2:
        groups_by_round = _circle(list(entrants))
    else:
        groups_by_round = _pack(list(itertools.combinations(entrants, players)), list(entrants), seed)
    # a duplicate set plays every rotation of a table, so only plain repeats need balancing across repeats
    ordered_rounds = _balance_seats(groups_by_round, 1 if duplicate else games_per_pairing)
    rounds = []
    for number, groups in enumerate(ordered_rounds, 1):
        tables: list[Table] = []
        for t, group in enumerate(groups):
            tables += _expand(group, seed, f"r{number}t{t + 1}", games_per_pairing, duplicate)
        playing = {e for g in groups for e in g}
        rounds.append(Round(number, tuple(tables), tuple(e for e in entrants if e not in playing)))
    return tuple(rounds)


def _balance_seats(groups_by_round: list[list[tuple]], repeats: int = 1) -> list[list[tuple]]:
    """Seat orders for every table so that each entrant sits in each seat as equally often as possible, counting
    all `repeats` games of every table (each repeat rotates the seats by one, `_expand`): a greedy pass in
    playing order, then coordinate descent (re-seat one table given all the others) until stable; a few
    deterministic restarts from shuffled orders when that leaves someone 2+ seats out of balance."""
    best, best_spread = groups_by_round, None
    rng = random.Random(0)
    for attempt in range(8):
        start = [[tuple(rng.sample(g, len(g))) if attempt else g for g in groups] for groups in groups_by_round]
        seated, spread = _descend(start, repeats)
        if best_spread is None or spread < best_spread:
            best, best_spread = seated, spread
        if spread <= 1:
            break
    return best


def _descend(groups_by_round: list[list[tuple]], repeats: int = 1) -> tuple[list[list[tuple]], int]:
    counts: dict[Entrant, Counter] = defaultdict(Counter)
    seated = [[_seat_order(g, counts, repeats) for g in groups] for groups in groups_by_round]
    for _ in range(50):
        changed = False
        for groups in seated:
            for t, group in enumerate(groups):
                _count_seats(group, counts, repeats, -1)
                best = _seat_order(group, counts, repeats)
                changed |= best != group
                groups[t] = best
        if not changed:
            break
    k = len(seated[0][0]) if seated and seated[0] else 1
    spread = max((max(c[s] for s in range(k)) - min(c[s] for s in range(k)) for c in counts.values()), default=0)
    return seated, spread


def _circle(entrants: list[Entrant]) -> list[list[tuple[Entrant, Entrant]]]:
    """Berger tables: n-1 rounds (n even) in which everyone meets everyone once; odd n adds a sit-out."""
    slots: list[Entrant | None] = list(entrants) + ([None] if len(entrants) % 2 else [])
    n = len(slots)
    rounds = []
    for _ in range(n - 1):
        pairs = [(slots[i], slots[n - 1 - i]) for i in range(n // 2)]
        rounds.append([p for p in pairs if None not in p])
        slots = [slots[0], slots[-1], *slots[1:-1]]
    return rounds


# Baranyai's construction below is a bipartite matching per entrant over C(n−1, k−1) rounds: quick up to here
BARANYAI_MAX_TABLES = 5000


def _pack(tables: list[tuple], entrants: list[Entrant], seed: int) -> list[list[tuple]]:
    """Packs tables into rounds in which nobody plays twice. When the table size divides the field, every round
    can be full (Baranyai's theorem: the k-subsets of an n-set split into C(n−1, k−1) partitions of it), and
    `_baranyai` builds such rounds: 12 entrants at 3 players play 55 rounds of 4 tables, no byes. Otherwise
    each round greedily takes the waiting tables whose entrants have waited longest, so play is spread evenly."""
    k = len(tables[0]) if tables else 0
    if k and len(entrants) % k == 0 and len(tables) <= BARANYAI_MAX_TABLES \
            and len(tables) == math.comb(len(entrants), k):
        try:
            rounds = _baranyai(entrants, k)
        except RuntimeError:  # (RecursionError included) never seen; the greedy packing below still works
            pass
        else:
            random.Random(seed).shuffle(rounds)
            return rounds
    rng = random.Random(seed)
    rng.shuffle(tables)
    played: Counter = Counter()
    rounds = []
    while tables:
        busy: set = set()
        chosen = []
        # Prefer tables of entrants who have played least so far: nobody idles for long.
        for tab in sorted(tables, key=lambda t: sum(played[e] for e in t)):
            if busy.isdisjoint(tab):
                chosen.append(tab)
                busy.update(tab)
        for tab in chosen:
            tables.remove(tab)
            played.update(tab)
        rounds.append(chosen)
    return rounds


def _baranyai(entrants: list[Entrant], k: int) -> list[list[tuple]]:
    """All k-subsets of `entrants` (k divides their number n) as C(n−1, k−1) rounds, each a partition of the
    field into n/k tables: the constructive proof of Baranyai's theorem (Brouwer & Schrijver's flow version).

    Every round starts as n/k empty tables; entrants join one at a time, each joining exactly one table of every
    round. The invariant: after the first i entrants, a set S of them is a table's partial content exactly
    C(n−i, k−|S|) times over all rounds (the number of k-sets completing S from the rest). Entrant i+1 must
    join S in C(n−i−1, k−|S|−1) rounds: a bipartite b-matching of rounds to partial tables, which exists because
    the fractional one does (every table takes the entrant with weight (k−|S|)/(n−i)) and so an integral one
    does too; augmenting paths find it. At the end every table is a k-set and every k-set appears once."""
    n = len(entrants)
    m = n // k
    rounds: list[list[frozenset]] = [[frozenset()] * m for _ in range(math.comb(n - 1, k - 1))]
    for i, e in enumerate(entrants):
        # capacity of each partial table content S: how many rounds must add e to an S
        need = {}
        for r in rounds:
            for part in r:
                if part not in need and len(part) < k:
                    need[part] = math.comb(n - i - 1, k - len(part) - 1)
        choice = _b_matching([sorted({p for p in r if len(p) < k}, key=sorted) for r in rounds], need)
        for r, part in zip(rounds, choice):
            r[r.index(part)] = part | {e}
    position = {e: i for i, e in enumerate(entrants)}
    return [sorted((tuple(sorted(p, key=position.__getitem__)) for p in r), key=lambda t: position[t[0]])
            for r in rounds]


def _b_matching(options: list[list], capacity: dict) -> list:
    """One option per row, each option used at most `capacity[option]` times (augmenting paths; raises if no
    complete assignment exists, which Baranyai's theorem rules out)."""
    assigned: list = [None] * len(options)
    users: dict = defaultdict(list)

    def augment(row: int, seen: set) -> bool:
        for opt in options[row]:
            if opt in seen:
                continue
            seen.add(opt)
            if len(users[opt]) < capacity[opt]:
                users[opt].append(row)
                assigned[row] = opt
                return True
            for other in users[opt]:
                if augment(other, seen):
                    users[opt].remove(other)
                    users[opt].append(row)
                    assigned[row] = opt
                    return True
        return False

    for row in range(len(options)):
        # greedy first: most rows find a free option at once
        free = next((o for o in options[row] if len(users[o]) < capacity[o]), None)
        if free is not None:
            users[free].append(row)
            assigned[row] = free
        elif not augment(row, set()):
            raise RuntimeError("no complete assignment")
    return assigned


# -------------------------------------------------------------------------------------------------------- swiss

def swiss_rounds(n_entrants: int, players: int) -> int:
    """A default number of Swiss rounds: enough for a clear winner, log_k of the field, at least 3 (if possible)."""
    return max(1, min(max(3, math.ceil(math.log(max(n_entrants, 2), players))), n_entrants - 1))


def swiss_round(entrants: Sequence[Entrant], players: int, results: Iterable[GameResult], number: int, *,
                byes_so_far: Mapping[Entrant, int] | None = None, games_per_pairing: int = 1,
                duplicate: bool = False, seed: int = 0, bye_points: float = 0.5,
                search_budget: int = 20000) -> Round:
    """Round `number` of a Swiss tournament from the results so far (round 1: by seeding)."""
    entrants = list(entrants)
    _check(entrants, players)
    results = list(results)
    byes_so_far = dict(byes_so_far or {})
    table = standings(entrants, results, {e: bye_points * c for e, c in byes_so_far.items()},
                      bye_counts=byes_so_far)
    order = [s.entrant for s in table]
    met: Counter = Counter()
    seat_counts: dict[Entrant, Counter] = defaultdict(Counter)
    for r in results:
        for a, b in itertools.combinations(r.seats, 2):
            met[frozenset((a, b))] += 1
        for s, e in enumerate(r.seats):
            seat_counts[e][s] += 1
    byes, groups = _byes_and_groups(order, players, met, byes_so_far, search_budget)
    tables: list[Table] = []
    for t, group in enumerate(groups):
        ordered = _seat_order(group, seat_counts)
        tables += _expand(ordered, seed, f"r{number}t{t + 1}", games_per_pairing, duplicate)
    return Round(number, tuple(tables), tuple(e for e in entrants if e in byes))


def bye_options(order: list[Entrant], k: int, byes_so_far: Mapping[Entrant, int]) -> list[tuple]:
    """The sets of entrants who may sit out this round (n mod k of them), most preferred first. Entitled are those
    with the fewest byes so far: everyone below the bye count of the (n mod k)-th in line must sit out, the rest
    are chosen among those tied at that count, the lowest standings first."""
    n_byes = len(order) % k
    if not n_byes:
        return [()]
    # reversed: a stable sort then keeps the lowest standings first among equal bye counts
    line = sorted(reversed(order), key=lambda e: byes_so_far.get(e, 0))  # noqa: C414
    cut = byes_so_far.get(line[n_byes - 1], 0)
    forced = [e for e in line if byes_so_far.get(e, 0) < cut]
    tied = [e for e in line if byes_so_far.get(e, 0) == cut]
    return [tuple(forced) + extra for extra in itertools.combinations(tied, n_byes - len(forced))]


def _byes_and_groups(order: list[Entrant], k: int, met: Counter, byes_so_far: Mapping[Entrant, int],
                     budget: int) -> tuple[list[Entrant], list[tuple]]:
    """Who sits out and the tables of the rest, chosen together: the fewest rematches over every entitled
    choice of byes (`bye_options`), then the most preferred byes. (Fixing the byes first could force a rematch
    that another, equally entitled bye avoids.) One search budget per rematch level, shared by the bye choices."""
    options = bye_options(order, k, byes_so_far)
    max_pairs = len(order) * (k - 1) // 2
    for allowed in range(0, max_pairs + 1):
        steps = [0]
        for byes in options:
            playing = [e for e in order if e not in byes]
            found = _search_groups(playing, k, met, allowed, budget, steps)
            if found is not None:
                return list(byes), found
            if steps[0] > budget:
                break
    # Budget exhausted at every level (huge fields): the preferred byes, plain top-down grouping.
    playing = [e for e in order if e not in options[0]]
    return list(options[0]), [tuple(playing[i:i + k]) for i in range(0, len(playing), k)]


def _search_groups(order: list[Entrant], k: int, met: Counter, allowed: int, budget: int, steps: list[int]
                   ) -> list[tuple] | None:
    """Tables of k from `order`, top-down, with at most `allowed` repeated pairs in all (None if none within
    the budget; `steps` counts the search's nodes, shared with the caller)."""

    def cost(group: tuple) -> int:
        return sum(met[frozenset(p)] > 0 for p in itertools.combinations(group, 2))

    def search(rest: list[Entrant], allowed: int) -> list[tuple] | None:
        if not rest:
            return []
        steps[0] += 1
        if steps[0] > budget:
            return None
        head, others = rest[0], rest[1:]
        for partners in itertools.combinations(others, k - 1):
            group = (head, *partners)
            c = cost(group)
            if c > allowed:
                continue
            remaining = [e for e in others if e not in partners]
            found = search(remaining, allowed - c)
            if found is not None:
                return [group, *found]
        return None

    return search(order, allowed)


# ----------------------------------------------------------------------------------------------------- knockout

def bracket_slots(n: int) -> list[int | None]:
    """Seed numbers (0-based) in bracket order for n entrants, padded with None (byes) to a power of two;
    seeds 0 and 1 can only meet in the final, and byes go to the top seeds."""
    size = 1
    while size < n:
        size *= 2
    order = [0]
    while len(order) < size:
        m = len(order) * 2
        order = [x for s in order for x in (s, m - 1 - s)]
    return [s if s < n else None for s in order]


def knockout_round(entrants: Sequence[Entrant], results: Iterable[GameResult], number: int, *,
                   games_per_pairing: int = 1, duplicate: bool = False, seed: int = 0) -> Round | None:
    """Round `number` of a 2-player knockout, from the results of the earlier rounds (`GameResult.round` set).
    None once a champion is decided (see `knockout_champion`)."""
    entrants = list(entrants)
    _check(entrants, 2)
    alive = _knockout_alive(entrants, list(results), number)
    if alive is None or len([e for e in alive if e is not None]) < 2:
        return None
    tables: list[Table] = []
    byes = []
    for i in range(0, len(alive), 2):
        a, b = alive[i], alive[i + 1]
        if a is None or b is None:
            if a is not None or b is not None:
                byes.append(a if a is not None else b)
            continue
        tables += _expand((a, b), seed, f"r{number}m{i // 2 + 1}", games_per_pairing, duplicate)
    return Round(number, tuple(tables), tuple(byes))


def knockout_champion(entrants: Sequence[Entrant], results: Iterable[GameResult], rounds_played: int):
    """The winner once the final has been played, else None."""
    alive = _knockout_alive(list(entrants), list(results), rounds_played + 1)
    if alive is None:
        return None
    left = [e for e in alive if e is not None]
    return left[0] if len(left) == 1 else None


def _knockout_alive(entrants: list[Entrant], results: list[GameResult], number: int) -> list | None:
    """The bracket slots standing at the start of round `number`."""
    alive: list = [entrants[s] if s is not None else None for s in bracket_slots(len(entrants))]
    seed_of = {e: i for i, e in enumerate(entrants)}
    for r in range(1, number):
        if len(alive) == 1:
            return alive
        games = [g for g in results if g.round == r]
        nxt = []
        for i in range(0, len(alive), 2):
            a, b = alive[i], alive[i + 1]
            if a is None or b is None:
                nxt.append(a if a is not None else b)
                continue
            mine = [g for g in games if set(g.seats) == {a, b}]
            if not mine:
                return None  # round r not played yet
            nxt.append(_pairing_winner(a, b, mine, seed_of))
        alive = nxt
    return alive


def _pairing_winner(a, b, games: list[GameResult], seed_of: Mapping) -> Entrant:
    table = standings([a, b], games)
    pts = {s.entrant: (s.points, s.score_total, -seed_of[s.entrant]) for s in table}
    return a if pts[a] > pts[b] else b


# ---------------------------------------------------------------------------------------------------- standings

def units(results: Iterable[GameResult]) -> list[tuple[tuple[Entrant, ...], list[float], list[float]]]:
    """Scoring units: each plain game, and each duplicate set merged into one. Yields (entrants, points per
    entrant, raw score per entrant) with entrants in a fixed order."""
    out = []
    sets: dict[str, list[GameResult]] = defaultdict(list)
    for r in results:
        if r.set_key is None:
            out.append((r.seats, shares_beaten(r.ranks), list(r.scores)))
        else:
            sets[r.set_key].append(r)
    for key in sorted(sets):
        games = sets[key]
        members = tuple(sorted(games[0].seats, key=games[0].seats.index))
        total = dict.fromkeys(members, 0.0)
        pair_pts = dict.fromkeys(members, 0.0)
        for g in games:
            for e, sc, p in zip(g.seats, g.scores, shares_beaten(g.ranks)):
                total[e] += sc
                pair_pts[e] += p
        # The set is one game whose result is the order of total score over the rotations; equal totals are
        # split by the games' own finishing orders (a forfeit ranks last even at an equal score).
        keys = [(total[e], pair_pts[e]) for e in members]
        ranks = rank_by_keys([k[0] * 1e6 + k[1] for k in keys])
        out.append((members, shares_beaten(ranks), [total[e] for e in members]))
    return out


def standings(entrants: Sequence[Entrant], results: Iterable[GameResult],
              bye_points: Mapping[Entrant, float] | None = None, *,
              bye_counts: Mapping[Entrant, int] | None = None) -> list[Standing]:
    """The table, best first. Order: points, then Buchholz (strength of the opponents met), then units won,
    then total game score, then seeding. Entrants equal on all of these share a rank.
    `mean ± ci95` is the per-unit points with a normal 95% interval (1.96 · sd / √n)."""
    rows = {e: Standing(e) for e in entrants}
    samples: dict[Entrant, list[float]] = defaultdict(list)
    for members, pts, raw in units(results):
        for e, p, sc in zip(members, pts, raw):
            row = rows[e]
            row.points += p
            row.units += 1
            row.score_total += sc
            row.wins += p == 1.0
            row.opponents += [o for o in members if o != e]
            samples[e].append(p)
    for e, bye in (bye_points or {}).items():
        if e in rows:
            rows[e].points += bye
    for e, c in (bye_counts or {}).items():
        if e in rows:
            rows[e].byes = c
    for row in rows.values():
        row.buchholz = sum(rows[o].points for o in row.opponents if o in rows)
        row.mean, row.ci95 = mean_ci(samples[row.entrant])
    seeding = {e: i for i, e in enumerate(entrants)}

    def key(r: Standing):
        return (-round(r.points, 9), -round(r.buchholz, 9), -r.wins, -round(r.score_total, 9))

    ordered = sorted(rows.values(), key=lambda r: (key(r), seeding[r.entrant]))
    for pos, row in enumerate(ordered):
        row.rank = ordered[pos - 1].rank if pos and key(row) == key(ordered[pos - 1]) else pos + 1
    return ordered


def mean_ci(samples: Sequence[float]) -> tuple[float | None, float | None]:
    """Mean and the half-width of its normal 95% confidence interval (None when it cannot be estimated)."""
    n = len(samples)
    if n == 0:
        return None, None
    mean = sum(samples) / n
    if n < 2:
        return mean, None
    var = sum((x - mean) ** 2 for x in samples) / (n - 1)
    return mean, 1.96 * math.sqrt(var / n)


def _check(entrants: list, players: int) -> None:
    if players < 2:
        raise ValueError("a table needs at least 2 players")
    if len(set(entrants)) != len(entrants):
        raise ValueError("an entrant is listed twice")
    if len(entrants) < players:
        raise ValueError(f"{len(entrants)} entrants cannot fill a {players}-player table")
