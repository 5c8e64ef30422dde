"""Minos random bot: plays a uniformly random legal action (seeded by the referee, so a replay plays the same).

A starting point: `request.legal_actions[i].text` is each action's canonical text ("draft:red5:build",
"main:start", "deploy:5:2", ...; see proto/arena/v1/minos.proto), and the observation is `request.minos`.
"""

from arena_bot import Bot, run


class MinosRandom(Bot):
    def decide(self, request):
        return self.rng.randrange(len(request.legal_actions))


if __name__ == "__main__":
    run(MinosRandom())
