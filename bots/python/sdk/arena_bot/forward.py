"""The forward model: the referee's own game engines, for bots that plan.

The Python runtime installs `arena.games` (the engines the referee runs, copied from the same tree by `arena
runtimes install`), so a bot can simulate the game exactly as it will be played:

```python
from arena_bot import Bot, run
from arena_bot.forward import determinize, legal_index

class Planner(Bot):
    def decide(self, request):
        state = determinize(request, self.rng)      # a full state consistent with what this seat knows
        for action in state.legal_actions():        # the request's legal actions, in the same order
            after = state.clone()
            after.apply(action)                     # the referee's rules, chance drawn from the sample
            ...
        return legal_index(request, best_action)
```

`determinize(request, rng)` samples the hidden parts (deck orders, other seats' hidden cards, bags, covered
tiles, Rhadamanthus' deck, the dice and draws still to come) from what is still possible, so repeated samples
cover the seat's uncertainty: average over several before trusting a plan. What each game hides and how it is
sampled: `arena/games/<game>/determinize.py`; the engine's interface: `arena/games/base.py` (`legal_actions`,
`apply`, `clone`, `current_player`, `is_terminal`, `scores`, `ranking`, `observation`).
"""

from __future__ import annotations

import importlib
import random
from typing import Any

from arena import games
from arena.games.base import Action, Game, State

__all__ = ["Action", "Game", "Sampler", "State", "determinize", "game_for", "legal_index", "legal_texts",
           "observation_of"]

_GAMES: dict[tuple[str, str], Game] = {}


def game_for(name: str, params: dict[str, Any] | None = None) -> Game:
    """The rule set a match is played with, e.g. `game_for(bot.game, bot.params)` (cached: games are values)."""
    params = dict(params or {})
    key = (name, repr(sorted(params.items())))
    game = _GAMES.get(key)
    if game is None:
        game = _GAMES[key] = games.load(name, **params)
    return game


def observation_of(request: Any) -> tuple[str, dict[str, Any]]:
    """(the game's name, the observation as the engine's `observation(seat)` dict) of a DecideRequest."""
    from google.protobuf import (
        json_format,  # imported here: it costs ~15 ms of a bot's start
    )

    which = request.WhichOneof("observation")
    if which is None:
        raise ValueError("the request carries no observation: this game has no forward model")
    obs = json_format.MessageToDict(getattr(request, which), preserving_proto_field_name=True,
                                    always_print_fields_with_no_presence=True)
    return which, obs


def legal_texts(request: Any) -> list[str]:
    """The canonical texts of the request's legal actions, in order (the engine's `str(action)`)."""
    return [a.text for a in request.legal_actions]


def legal_index(request: Any, action: Action | str) -> int:
    """The index in `request.legal_actions` of an engine action (or its text): the answer to give."""
    text = str(action)
    for a in request.legal_actions:
        if a.text == text:
            return a.index
    raise ValueError(f"{text!r} is not a legal action of this request")


class Sampler:
    """Determinizations of one request, many times: the request is read once (a search samples a state per
    iteration; `determinize` would convert the protobuf observation each time, ~0.6 ms)."""

    def __init__(self, request: Any, game: Game | None = None):
        self.name, self.observation = observation_of(request)
        self.game = game or game_for(self.name, {"players": int(self.observation["players"])})
        self.legal = legal_texts(request)
        module = importlib.import_module(f"arena.games.{self.name}.determinize")
        if self.name == "minos":  # the legal actions settle which own copies of a card others can tell apart
            self._determinizer = module.Determinizer(self.game, self.observation, self.legal)
        else:
            self._determinizer = module.Determinizer(self.game, self.observation)

    def sample(self, rng: random.Random) -> State:
        """A state consistent with the request (see `determinize`)."""
        return self._determinizer.sample(rng)


def determinize(request: Any, rng: random.Random, game: Game | None = None) -> State:
    """A full game state consistent with everything the request's seat knows, the hidden parts drawn with `rng`.

    Its `observation(seat)` is the request's observation and its `legal_actions()` are the request's legal
    actions, in order; `current_player()` is the request's seat. `game` (default: the request's game with its
    player count) matters only for rule options such as Minos' solo difficulty: pass `game_for(self.game,
    self.params)` from a `Bot` to be exact."""
    return Sampler(request, game).sample(rng)
