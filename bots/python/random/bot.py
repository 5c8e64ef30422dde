"""Plays a uniformly random legal action of any game (seeded by the referee, so a replayed match plays the same)."""

from arena_bot import Bot, run


class RandomBot(Bot):
    def decide(self, request):
        return self.rng.randrange(len(request.legal_actions))


if __name__ == "__main__":
    run(RandomBot())
