"""Prints on stdout and stderr at start-up and at each decision, and annotates each decision (a debugging bot).

At its second decision it prints 10 KB (over the
per-decision bound) and its annotation is 300 characters (over the annotation bound)."""
import sys

from arena_bot import Bot, run


class Chatty(Bot):
    def start(self, request):
        super().start(request)
        print(f"hello from seat {request.seat}", flush=True)

    asked = 0

    def decide(self, request):
        d = request.decision
        self.asked += 1
        print(f"stdout of decision {d}", flush=True)
        print(f"stderr of decision {d}", file=sys.stderr, flush=True)
        if self.asked == 2:
            print("x" * 10_000, flush=True)
            self._annotation = "a" * 300  # past the SDK's own cut: the referee must cut it
        else:
            self.annotate(f"plan for decision {d}")
        return 0

    def end(self, request):
        print("goodbye", flush=True)


run(Chatty())
