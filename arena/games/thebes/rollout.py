"""The Thebes rollout policy of the built-in search bots: a fast greedy read straight from the engine's state.

A rollout plays a sampled position on to the end, thousands of times a decision, so its policy must be cheap: it
reads the state's fields directly instead of building an observation dict per step (as the engine's in-process
`policies.GreedyPolicy` does). It lives here, beside the engine, so that `arena engines build` compiles it with
the rules (`arena.games.native.MODULES`): the SDK's `arena_bot.rollout` re-exports it, so the built-in search
bots and every Python bot's runtime play their rollouts compiled (pure Python where the engines are).

Its play is part of no replay contract (only bots use it), but compiled and pure must choose alike for the same
random numbers (tests/bots/test_rollout.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from arena.games.thebes import actions as A
from arena.games.thebes import data as T
from arena.games.thebes.actions import ThebesAction
from arena.games.thebes.state import (
    _ASSISTANTS,
    _BOOKS,
    _CARS,
    _CONGRESSES,
    _GENERAL_KNOWLEDGE,
    _PLACE,
    _SHOVELS,
    _STRIDE,
    _TIME,
    ThebesState,
    _knowledge,
)

#: each action's value is scaled by a random factor in [1 - NOISE, 1 + NOISE] (varied rollouts)
NOISE: Final = 0.05
#: how a card counts when taken, by kind (knowledge cards per point of knowledge); others 0.5
_KIND_WORTH: Final = {"specialized_knowledge": 1.2, "general_knowledge": 0.8, "rumors": 1.0, "assistant": 1.5,
                      "shovel": 1.5, "car": 2.0, "zeppelin": 1.0, "special_permission": 0.8}
_SPEND: Final = A.F_RUMORS | A.F_ASSISTANT | A.F_SHOVEL | A.F_PERMISSION | A.F_ZEPPELIN
_BAG_CACHE_MAX: Final = 100_000


def _card_worth(c: int) -> float:
    kind = T.KIND_NAMES[T.CARD_KIND[c]]
    if kind.endswith("knowledge"):
        return _KIND_WORTH[kind] * T.CARD_VALUE[c]
    return float(T.CARD_VALUE[c]) if kind == "exhibition" else _KIND_WORTH.get(kind, 0.5)


#: a card's worth when taken (before it fades with the end of the game) or exhibited
CARD_WORTH: Final[tuple[float, ...]] = tuple(_card_worth(c) for c in range(T.N_CARDS))
#: a one-use card spent could have helped later: 0.5 points each, as the greedy bot counts it (by flag set)
SPENT_COST: Final[tuple[float, ...]] = tuple(0.5 * (f & _SPEND).bit_count() for f in range(64))


class ThebesRollout:
    """A fast greedy for Thebes rollouts: points per week of the action, travel included, as the greedy bot
    estimates them (exhibitions their points, digs the expected worth of their draws from the bag, cards a fixed
    worth that fades as the year 1904 nears); retiring only when nothing else is worth anything."""

    def __init__(self, noise: float = NOISE) -> None:
        self.noise = noise
        self.bag_worth: dict[tuple[int, ...], float] = {}  # a bag's contents -> the mean worth of a draw

    def choose(self, state: ThebesState, legal: Sequence[ThebesAction], rand: Callable[[], float]) -> ThebesAction:
        """The chosen action (not its index): the best points per week, each value scaled by a random factor in
        [1 - noise, 1 + noise] (`rand` is a `random.Random().random`, called once per action); the last legal
        action (retire) when nothing is worth anything."""
        noise = self.noise
        best = legal[-1]
        best_value = 0.0
        values = self.values(state, legal)
        for i in range(len(values)):
            value = values[i] * (1 - noise + 2 * noise * rand())
            if value > best_value:
                best, best_value = legal[i], value
        return best

    def values(self, state: ThebesState, legal: Sequence[ThebesAction]) -> list[float]:
        """Each action's estimated points per week (retiring: 0). The same arithmetic as the engine's
        `dig_draws` and `_trip`, with what depends only on the seat (knowledge per site and cards spent, the
        travel per destination) computed once per call."""
        p = state.current_player()
        ints = state._ints  # the seat's numbers (see ThebesState): read in place, no per-seat lists built
        seat = p * _STRIDE
        late = min(max(T.END_TIME - ints[seat + _TIME], 1) / 104.0, 1.0)
        cars = ints[seat + _CARS]
        trip_row = T.TRIP[1 if cars else 0][ints[seat + _PLACE]]
        walk_row = T.TRIP[0][ints[seat + _PLACE]]
        a = ints[seat + _ASSISTANTS]
        assist = T.ASSISTANT_BONUS[a if a < 3 else 3]
        general = ints[seat + _GENERAL_KNOWLEDGE]
        sh = ints[seat + _SHOVELS]
        shovel = T.SHOVEL_BONUS[sh if sh < 3 else 3]
        bags = state._held  # the bag of site s at s
        base = seat + _BOOKS
        worth_of = self.bag_worth
        # per call: each site's draw worth (-1: not yet computed) and knowledge by (site, rumors/assistant spent)
        site_worth = [-1.0] * len(T.SITES)
        knowledge = [-1] * (len(T.SITES) * 8)
        out: list[float] = []
        for action in legal:
            kind = action.kind
            if kind == A.RETIRE:
                out.append(0.0)
                continue
            flags = action.flags
            gain: float
            if kind == A.DIG:
                site = action.site
                w = site_worth[site]
                if w < 0:
                    bag = bags[site]
                    cached = worth_of.get(bag)
                    if cached is None:
                        if len(worth_of) > _BAG_CACHE_MAX:
                            worth_of.clear()
                        total = 0
                        for t in bag:
                            total += t if t <= 7 else 1
                        cached = total / len(bag) if bag else 0.0
                        worth_of[bag] = cached
                    w = site_worth[site] = cached
                key = site * 8 + (flags & (A.F_RUMORS | A.F_ASSISTANT))
                know = knowledge[key]
                if know < 0:
                    spec = (ints[base + site] + assist + (2 if flags & A.F_RUMORS else 0)
                            + (1 if flags & A.F_ASSISTANT else 0))
                    know = knowledge[key] = _knowledge(spec, general) if spec > 0 else 0
                draws = T.WHEEL[know][action.weeks] + shovel + (1 if flags & A.F_SHOVEL else 0)
                gain = draws * w + (1.0 if state.first_dig_bonus >> site & 1 else 0.0)
                weeks, dest = action.weeks, T.SITE_PLACE[site]
            elif kind == A.EXCHANGE:
                gain, weeks, dest = 0.2, state._exchange_weeks(p), T.WARSAW
            else:
                c = action.card
                card_kind = T.CARD_KIND[c]
                if kind == A.EXHIBIT:
                    gain = CARD_WORTH[c]
                elif card_kind == T.K_CONGRESS:
                    held = ints[seat + _CONGRESSES]
                    gain = float(T.congress_points(held + 1) - T.congress_points(held))
                elif (card_kind == T.K_ASSISTANT and a >= 3
                      or card_kind == T.K_SHOVEL and sh >= 3 or card_kind == T.K_CAR and cars):
                    gain = 0.0
                else:
                    gain = CARD_WORTH[c] * late
                weeks, dest = T.CARD_WEEKS[c], T.CARD_CITY[c]
            gain -= SPENT_COST[flags]
            if flags & A.F_ZEPPELIN:
                travel = 0
            elif flags & A.F_NOCAR:
                travel = walk_row[dest]
            else:
                travel = trip_row[dest]
            out.append(gain / (travel + weeks))
        return out

    def playout(self, state: ThebesState, rand: Callable[[], float], max_decisions: int = -1,
                random_share: float = 0.0) -> int:
        """Play `state` on (in place, unchecked `step`s) until it is terminal or `max_decisions` were played
        (negative: no limit); a uniformly random legal action `random_share` of the time (then `rand` is called
        once more per decision). Returns the decisions played."""
        k = 0
        while not state.is_terminal() and (max_decisions < 0 or k < max_decisions):
            legal = state.legal_actions()
            if random_share > 0.0 and rand() < random_share:
                action = legal[int(rand() * len(legal))]
            else:
                action = self.choose(state, legal, rand)
            state.step(action)
            k += 1
        return k
