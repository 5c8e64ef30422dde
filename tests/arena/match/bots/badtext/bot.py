"""Answers a text that is no action at all."""
from arena_bot import Bot, run


class BadText(Bot):
    def decide(self, request):
        return "castle kingside"


run(BadText())
