"""Hostile: every decision blocks forever without using the CPU."""
import threading

from arena_bot import Bot, run


class Hang(Bot):
    def decide(self, request):
        threading.Event().wait()


run(Hang())
