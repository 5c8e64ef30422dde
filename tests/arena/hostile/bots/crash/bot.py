"""Plays its first two decisions like bots/python/random, then its process dies in the middle of the third."""
import os
import sys

from arena_bot import Bot, run


class Crash(Bot):
    calls = 0

    def decide(self, request):
        self.calls += 1
        if self.calls == 3:
            print("crashing on purpose", file=sys.stderr, flush=True)
            os._exit(7)
        return self.rng.randrange(len(request.legal_actions))


run(Crash())
