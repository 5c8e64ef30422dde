"""The Python SDK in-process: a Bot's answers become DecideResponses, and `observation_dict` gives the bot the
game's observation as the engine made it."""

import importlib
import random
from pathlib import Path

from arena import games
from arena.match.protocol import Encoder
from arena.v1 import arena_pb2

SDK = Path(__file__).resolve().parents[2] / "bots/python/sdk"


def test_answers_and_observation_dict(monkeypatch):
    monkeypatch.syspath_prepend(str(SDK))
    arena_bot = importlib.import_module("arena_bot")
    _Servicer = importlib.import_module("arena_bot.bot")._Servicer
    game = games.load("thebes", players=2)
    state = game.new_state(3)
    obs, legal = state.observation(0), state.legal_actions()
    request = Encoder(game).decide(0, 0, obs, legal, 1000, 0)
    seen = {}

    class Probe(arena_bot.Bot):
        def decide(self, request):
            seen["obs"] = arena_bot.observation_dict(request)
            return self.answer

    bot = Probe()
    servicer = _Servicer(bot)
    servicer.StartMatch(arena_pb2.StartMatchRequest(game="thebes", params_json='{"players": 2}', seat=0,
                                                    bot_seed=5), None)
    assert (bot.game, bot.params, bot.seat) == ("thebes", {"players": 2}, 0)
    assert bot.rng.random() == random.Random(5).random()
    for answer, expected in [(2, arena_pb2.DecideResponse(index=2)),
                             (str(legal[1]), arena_pb2.DecideResponse(text=str(legal[1]))),
                             (request.legal_actions[3], arena_pb2.DecideResponse(index=3))]:
        bot.answer = answer
        assert servicer.Decide(request, None) == expected
    assert seen["obs"] == obs
