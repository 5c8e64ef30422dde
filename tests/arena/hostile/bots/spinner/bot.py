"""Hostile: every decision spins forever on the CPU."""
from arena_bot import Bot, run


class Spinner(Bot):
    def decide(self, request):
        while True:
            pass


run(Spinner())
