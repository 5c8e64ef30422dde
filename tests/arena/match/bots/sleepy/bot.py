"""Takes 150 ms for every decision: over a 100 ms limit, so each decision draws 50 ms from the bank."""
import time

from arena_bot import Bot, run


class Sleepy(Bot):
    def decide(self, request):
        time.sleep(0.15)
        return 0


run(Sleepy())
