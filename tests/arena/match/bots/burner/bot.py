"""Thinks on the others' time: from StartMatch on, a background thread burns CPU without pause. Answers at
once (the first legal action); at EndMatch prints how much CPU the thread got (`burned=<seconds>`)."""
import threading
import time

from arena_bot import Bot, run

burned = [0.0]


def burn():
    start = time.thread_time()
    while True:
        for _ in range(20_000):
            pass
        burned[0] = time.thread_time() - start


class Burner(Bot):
    def start(self, request):
        super().start(request)
        threading.Thread(target=burn, daemon=True).start()

    def decide(self, request):
        return 0

    def end(self, request):
        print(f"burned={burned[0]:.3f}", flush=True)


run(Burner())
