"""A learned bot: one-step lookahead with a trained value function, plain Python (the sandbox has no numpy).

For each decision it draws one state consistent with what its seat knows (`arena_bot.forward.Sampler`, the
referee's own engine), plays each legal action on a copy, encodes its own seat's observation of the result
(`arena.games.features`, encoding "arena-obs-hash-1": only what the seat may know) and scores it with the game's
linear model `model-<game>.json` (the logit of "this seat finishes first", trained by `train.py` from self-play
games); it answers the action with the highest score and annotates its estimate. A decision with one legal action
is answered at once; a position the forward model cannot rebuild falls back to the first legal action.

The model files are inside the bot's folder (no network): `{"game", "obs_version", "bias", "weights": {slot:
weight}}` with the features' scaling folded into the weights.
"""

from __future__ import annotations

import json
import math
import sys
import traceback
from pathlib import Path
from typing import Any

from arena_bot import Bot, run
from arena_bot.forward import Sampler, game_for

from arena.games.features import OBS_VERSION, observation_features

HERE = Path(__file__).resolve().parent


class ValueModel:
    """A linear model over the sparse features: `logit(features)`."""

    def __init__(self, data: dict[str, Any]):
        if data["obs_version"] != OBS_VERSION:
            raise ValueError(f"model made for {data['obs_version']}, the engine encodes {OBS_VERSION}")
        self.bias = float(data["bias"])
        self.weights = {int(k): float(v) for k, v in data["weights"].items()}

    @classmethod
    def load(cls, game: str) -> ValueModel:
        return cls(json.loads((HERE / f"model-{game}.json").read_text()))

    def logit(self, features: dict[int, float]) -> float:
        w = self.weights
        return self.bias + sum(w.get(slot, 0.0) * value for slot, value in features.items())


def choose(model: ValueModel, request: Any, rng: Any, game: Any = None) -> tuple[int, float]:
    """(index of the chosen legal action, its estimated probability of finishing first)."""
    sampler = Sampler(request, game)
    state = sampler.sample(rng)
    seat, players = request.seat, sampler.game.players
    best, best_value = 0, -math.inf
    for i, action in enumerate(state.legal_actions()):
        after = state.clone()
        after.apply(action)
        value = model.logit(observation_features(after.observation(seat), seat, players))
        if value > best_value:
            best, best_value = i, value
    return best, 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, best_value))))


class LearnedBot(Bot):
    def start(self, request):
        super().start(request)
        self.model = ValueModel.load(self.game)

    def decide(self, request):
        if len(request.legal_actions) == 1:
            return 0
        try:
            index, p_first = choose(self.model, request, self.rng, game_for(self.game, self.params))
        except Exception:  # noqa: BLE001 - a position the forward model cannot rebuild must not cost a fault
            traceback.print_exc(file=sys.stderr)
            return 0
        self.annotate(f"P(first) {p_first:.2f}")
        return index


if __name__ == "__main__":
    run(LearnedBot())
