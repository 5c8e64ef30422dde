"""Plays a random legal action, seeded by the referee (a well-behaved opponent)."""
from arena_bot import Bot, run


class Good(Bot):
    def decide(self, request):
        return self.rng.randrange(len(request.legal_actions))


run(Good())
