"""Answers its first decision, then its process dies in the middle of the second."""
import os
import sys

from arena_bot import Bot, run


class Crash(Bot):
    calls = 0

    def decide(self, request):
        self.calls += 1
        if self.calls == 2:
            print("about to crash on purpose", file=sys.stderr, flush=True)
            os._exit(3)
        return 0


run(Crash())
