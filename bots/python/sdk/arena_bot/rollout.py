"""Fast rollout policies for planning bots: the ones the built-in search plays its rollouts with (`arena_bot.search`).

A rollout plays a sampled state (`arena_bot.forward.determinize`) on to the end, thousands of times a decision, so
its policy must be cheap: these read the engine's state directly instead of building an observation dict per step
as the engine's in-process policies (`arena.games.<game>.policies.GreedyPolicy`) do, and are that much faster
(`bench/rollout_policy.py` measures it: Thebes' about 6x the greedy policy's decisions per second on one core).

Stable interface (this module's names and signatures keep working across Arena versions; their play may get
stronger):

- `ThebesRollout(noise=0.05)`: `choose(state, legal, rand) -> action` (an engine action of `legal`, the state's
  legal actions; `rand` a `random.Random().random`) and `values(state, legal) -> [float]`, each action's
  estimated points per week of game time;
- `MinosRollout(random_share=0.3)`: `choose(state, legal, rand) -> action` — the greedy text scores of the engine's
  Minos greedy policy, a random legal action `random_share` of the time;
- `rollout_policy(game_name)`: the one for a game; `playout(state, policy, rng, max_decisions=None)`: play `state`
  (modified in place) on until it is terminal or `max_decisions` were played; returns the decisions played.

```python
from arena_bot.forward import determinize
from arena_bot.rollout import playout, rollout_policy

policy = rollout_policy("thebes")
sample = determinize(request, rng)
after = sample.clone(); after.apply(candidate)
playout(after, policy, rng)
value = after.scores()[request.seat]
```
"""

from __future__ import annotations

import random
from typing import Any

try:  # the engine's own knowledge rule (general knowledge counts up to the specialized side, capped)
    from arena.games.thebes.state import _knowledge
except ImportError:  # pragma: no cover - a runtime without Thebes
    _knowledge = None

__all__ = ["MinosRollout", "ThebesRollout", "playout", "rollout_policy"]

#: Thebes: each action's value is scaled by a random factor in [1 - NOISE, 1 + NOISE] (varied rollouts)
NOISE = 0.05
#: Minos: the share of random legal actions among the greedy ones
RANDOM_SHARE = 0.3


class ThebesRollout:
    """A fast greedy for Thebes rollouts, read straight from the engine's state (building an observation per
    step would cost more than the rest of the rollout): points per week of the action, travel included, as
    the greedy bot estimates them (exhibitions their points, digs the expected worth of their draws from the
    bag, cards a fixed worth that fades as the year 1904 nears); retiring only when nothing else is worth
    anything."""

    def __init__(self, noise: float = NOISE):
        from arena.games.thebes import actions as A
        from arena.games.thebes import data as T
        self.A, self.T = A, T
        self.noise = noise
        worth = {"specialized_knowledge": 1.2, "general_knowledge": 0.8, "rumors": 1.0, "assistant": 1.5,
                 "shovel": 1.5, "car": 2.0, "zeppelin": 1.0, "special_permission": 0.8}
        self.card_kind = T.CARD_KIND
        self.card_worth = []
        for c in range(T.N_CARDS):
            kind = T.KIND_NAMES[T.CARD_KIND[c]]
            if kind.endswith("knowledge"):
                self.card_worth.append(worth[kind] * T.CARD_VALUE[c])
            else:
                self.card_worth.append(float(T.CARD_VALUE[c]) if kind == "exhibition" else worth.get(kind, 0.5))
        self.bag_worth: dict[tuple[int, ...], float] = {}  # a bag's contents -> the mean worth of a draw
        spend = A.F_RUMORS | A.F_ASSISTANT | A.F_SHOVEL | A.F_PERMISSION | A.F_ZEPPELIN
        # a one-use card spent could have helped later: 0.5 points each, as the greedy bot counts it
        self.spent_cost = [0.5 * (f & spend).bit_count() for f in range(64)]

    def choose(self, state, legal, rand):
        """The chosen action (not its index): the best points per week, each value scaled by a random factor
        in [1 - noise, 1 + noise] (`rand` is a `random.Random().random`); the last legal action (retire) when
        nothing is worth anything."""
        noise = self.noise
        best, best_value = legal[-1], 0.0
        for action, value in zip(legal, self.values(state, legal)):
            value *= 1 - noise + 2 * noise * rand()
            if value > best_value:
                best, best_value = action, value
        return best

    def values(self, state, legal) -> list[float]:
        """Each action's estimated points per week (retiring: 0). The same arithmetic as the engine's
        `dig_draws` and `_trip`, with what depends only on the seat (knowledge per site and cards spent, the
        travel per destination) computed once per call: this runs for every legal action of every rollout
        step, most of a rollout's time."""
        A, T = self.A, self.T
        p = state.current_player()
        late = min(max(T.END_TIME - state.time[p], 1) / 104.0, 1.0)
        trip_row = T.TRIP[1 if state.cars[p] else 0][state.place[p]]
        walk_row = T.TRIP[0][state.place[p]]
        books = state.books
        n_sites = len(T.SITES)
        a = state.assistants[p]
        assist = T.ASSISTANT_BONUS[a if a < 3 else 3]
        general = state.general_knowledge[p]
        sh = state.shovels[p]
        shovel = T.SHOVEL_BONUS[sh if sh < 3 else 3]
        wheel = T.WHEEL
        spent_cost = self.spent_cost
        site_place = T.SITE_PLACE
        RETIRE, DIG, EXCHANGE, EXHIBIT = A.RETIRE, A.DIG, A.EXCHANGE, A.EXHIBIT
        F_ZEPPELIN, F_NOCAR, F_RUMORS, F_ASSISTANT, F_SHOVEL = (A.F_ZEPPELIN, A.F_NOCAR, A.F_RUMORS,
                                                                A.F_ASSISTANT, A.F_SHOVEL)
        bag_worth: dict[int, float] = {}
        worth_of = self.bag_worth
        knowledge: dict[int, int] = {}
        out = []
        for action in legal:
            kind = action.kind
            if kind == RETIRE:
                out.append(0.0)
                continue
            flags = action.flags
            if kind == DIG:
                site = action.site
                w = bag_worth.get(site)
                if w is None:
                    bag = state.bags[site]  # a tuple: the worth of each bag seen is kept (hashing is C-fast)
                    w = worth_of.get(bag)
                    if w is None:
                        if len(worth_of) > 100_000:
                            worth_of.clear()
                        w = worth_of[bag] = (sum(t if t <= 7 else 1 for t in bag) / len(bag)) if bag else 0.0
                    bag_worth[site] = w
                key = site * 8 + (flags & (F_RUMORS | F_ASSISTANT))
                know = knowledge.get(key)
                if know is None:
                    spec = (books[p * n_sites + site] + assist + (2 if flags & F_RUMORS else 0)
                            + (1 if flags & F_ASSISTANT else 0))
                    know = knowledge[key] = _knowledge(spec, general) if spec > 0 else 0
                draws = wheel[know][action.weeks] + shovel + (1 if flags & F_SHOVEL else 0)
                gain = draws * w + (1.0 if state.first_dig_bonus >> site & 1 else 0.0)
                weeks, dest = action.weeks, site_place[site]
            elif kind == EXCHANGE:
                gain, weeks, dest = 0.2, state._exchange_weeks(p), T.WARSAW
            else:
                c = action.card
                card_kind = self.card_kind[c]
                if kind == EXHIBIT:
                    gain = self.card_worth[c]
                elif card_kind == T.K_CONGRESS:
                    held = state.congresses[p]
                    gain = float(T.congress_points(held + 1) - T.congress_points(held))
                elif (card_kind == T.K_ASSISTANT and state.assistants[p] >= 3
                      or card_kind == T.K_SHOVEL and state.shovels[p] >= 3 or card_kind == T.K_CAR and state.cars[p]):
                    gain = 0.0
                else:
                    gain = self.card_worth[c] * late
                weeks, dest = T.CARD_WEEKS[c], T.CARD_CITY[c]
            gain -= spent_cost[flags]
            if flags & F_ZEPPELIN:
                travel = 0
            elif flags & F_NOCAR:
                travel = walk_row[dest]
            else:
                travel = trip_row[dest]
            out.append(gain / (travel + weeks))
        return out


class MinosRollout:
    """Minos rollouts: the engine's greedy text scores (`arena.games.minos.policies.GreedyPolicy._score`, an
    action's text alone: no observation), ties broken at random, and a random legal action `random_share` of the
    time."""

    def __init__(self, random_share: float = RANDOM_SHARE):
        from arena.games.minos.policies import GreedyPolicy

        self.score = GreedyPolicy()._score
        self.random_share = random_share

    def choose(self, state: Any, legal: list[Any], rand: Any) -> Any:
        if rand() < self.random_share:
            return legal[int(rand() * len(legal))]
        values = [self.score(str(a)) for a in legal]
        top = max(values)
        best = [i for i, v in enumerate(values) if v == top]
        return legal[best[int(rand() * len(best))]]


def rollout_policy(game: str) -> ThebesRollout | MinosRollout:
    """The fast rollout policy of a game by name."""
    if game == "thebes":
        return ThebesRollout()
    if game == "minos":
        return MinosRollout()
    raise ValueError(f"no rollout policy for {game!r}")


def playout(state: Any, policy: Any, rng: random.Random, max_decisions: int | None = None) -> int:
    """Play `state` on with `policy` (in place) to the end, or for `max_decisions`; returns the decisions played."""
    play = getattr(state, "step", None) or state.apply  # Thebes' step() skips building the events
    rand = rng.random
    k = 0
    while not state.is_terminal() and (max_decisions is None or k < max_decisions):
        play(policy.choose(state, state.legal_actions(), rand))
        k += 1
    return k
