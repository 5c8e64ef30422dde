"""Never answers a decision."""
import time

from arena_bot import Bot, run


class Hang(Bot):
    def decide(self, request):
        time.sleep(3600)


run(Hang())
