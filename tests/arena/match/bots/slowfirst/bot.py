"""Does its one-time set-up in its first decision (2 s of sleep) instead of at start-up: `arena bot check` warns."""
import time

from arena_bot import Bot, run


class SlowFirst(Bot):
    ready = False

    def decide(self, request):
        if not self.ready:
            time.sleep(2.0)
            self.ready = True
        return 0


run(SlowFirst())
