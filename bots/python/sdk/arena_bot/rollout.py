"""Fast rollout policies for planning bots: the ones the built-in search plays its rollouts with (`arena_bot.search`).

A rollout plays a sampled state (`arena_bot.forward.determinize`) on to the end, thousands of times a decision, so
its policy must be cheap: these read the engine's state directly instead of building an observation dict per step
as the engine's in-process policies (`arena.games.<game>.policies.GreedyPolicy`) do, and are that much faster
(`bench/rollout_policy.py` measures it: Thebes' about 6x the greedy policy's decisions per second on one core).
They are the engine's own `arena.games.thebes.rollout` and `arena.games.minos.rollout`, re-exported: compiled
with the engines (`arena engines build`, `arena runtimes install`), pure Python where the engines are.

Stable interface (this module's names and signatures keep working across Arena versions; their play may get
stronger):

- `ThebesRollout(noise=0.05)`: `choose(state, legal, rand) -> action` (an engine action of `legal`, the state's
  legal actions; `rand` a `random.Random().random`) and `values(state, legal) -> [float]`, each action's
  estimated points per week of game time;
- `MinosRollout(random_share=0.3)`: `choose(state, legal, rand) -> action` — the greedy text scores of the engine's
  Minos greedy policy, a random legal action `random_share` of the time;
- both: `playout(state, rand, max_decisions=-1) -> int`, the whole loop in the (compiled) engine;
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

from arena.games.minos.rollout import RANDOM_SHARE, MinosRollout
from arena.games.thebes.rollout import NOISE, ThebesRollout

__all__ = ["NOISE", "RANDOM_SHARE", "MinosRollout", "ThebesRollout", "playout", "rollout_policy"]


def rollout_policy(game: str) -> ThebesRollout | MinosRollout:
    """The fast rollout policy of a game by name."""
    if game == "thebes":
        return ThebesRollout()
    if game == "minos":
        return MinosRollout()
    raise ValueError(f"no rollout policy for {game!r}")


def playout(state: Any, policy: Any, rng: random.Random, max_decisions: int | None = None) -> int:
    """Play `state` on with `policy` (in place) to the end, or for `max_decisions`; returns the decisions played.
    The built-in policies play the whole loop in the engine (`policy.playout`); any other policy with a
    `choose(state, legal, rand)` works too."""
    rand = rng.random
    fast = getattr(policy, "playout", None)
    if fast is not None:
        return int(fast(state, rand, -1 if max_decisions is None else max_decisions))
    play = getattr(state, "step", None) or state.apply
    k = 0
    while not state.is_terminal() and (max_decisions is None or k < max_decisions):
        play(policy.choose(state, state.legal_actions(), rand))
        k += 1
    return k
