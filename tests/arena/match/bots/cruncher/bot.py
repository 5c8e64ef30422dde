"""Computes before it serves and in every decision, a fixed amount of CPU time each (0.3 s to start, 0.1 s a
decision, measured on its own CPU clock): as fast on a quiet machine as on a starved one, in CPU terms."""
import time

START_CPU_S = 0.3
DECISION_CPU_S = 0.1


def crunch(seconds):
    end = time.process_time() + seconds
    while time.process_time() < end:
        for _ in range(2_000):
            pass


crunch(START_CPU_S)

from arena_bot import Bot, run  # noqa: E402


class Cruncher(Bot):
    def decide(self, request):
        crunch(DECISION_CPU_S)
        return 0


run(Cruncher())
