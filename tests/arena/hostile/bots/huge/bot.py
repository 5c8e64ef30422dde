"""Hostile: answers every decision with a 16 MB action text."""
from arena_bot import Bot, run


class Huge(Bot):
    def decide(self, request):
        return "x" * (16 << 20)


run(Huge())
