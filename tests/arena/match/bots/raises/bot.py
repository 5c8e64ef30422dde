"""Raises an exception in every decision (the server answers with an error status)."""
from arena_bot import Bot, run


class Raises(Bot):
    def decide(self, request):
        raise RuntimeError("my policy has a bug")


run(Raises())
