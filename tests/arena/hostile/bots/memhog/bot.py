"""Hostile: on its first decision, allocates (and touches) memory without bound."""
from arena_bot import Bot, run


class MemHog(Bot):
    def decide(self, request):
        hoard = []
        while True:
            hoard.append(b"\x01" * (4 << 20))


run(MemHog())
