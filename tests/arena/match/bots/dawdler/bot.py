"""Takes 300 ms for every decision (sleeping, using no CPU), then plays the first legal action."""
import time

from arena_bot import Bot, run


class Dawdler(Bot):
    def decide(self, request):
        time.sleep(0.3)
        return 0


run(Dawdler())
