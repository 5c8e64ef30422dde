"""Answers with the canonical text of the last legal action instead of an index."""
from arena_bot import Bot, run


class Texter(Bot):
    def decide(self, request):
        return request.legal_actions[-1].text


run(Texter())
