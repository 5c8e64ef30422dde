"""Burns CPU without ever answering a decision (a search that forgot its clock)."""
from arena_bot import Bot, run


class Spinner(Bot):
    def decide(self, request):
        while True:
            pass


run(Spinner())
