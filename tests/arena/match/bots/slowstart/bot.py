"""Takes 1.5 seconds before it serves (a bot loading a big model, say); prints when it started and served."""
import time

print(f"started at {time.time():.3f}", flush=True)
time.sleep(1.5)

from arena_bot import Bot, run  # noqa: E402


class SlowStart(Bot):
    def decide(self, request):
        return 0


print(f"serving at {time.time():.3f}", flush=True)
run(SlowStart())
