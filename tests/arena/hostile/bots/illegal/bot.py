"""Hostile: answers an index past the end of the legal actions."""
from arena_bot import Bot, run


class Illegal(Bot):
    def decide(self, request):
        return len(request.legal_actions) + 41


run(Illegal())
