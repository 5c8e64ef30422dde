"""Says when it starts deciding (creates the file named by $ARENA_TEST_SIGNAL, if set: only an unsandboxed bot
can), takes 200 ms ($ARENA_TEST_FIRST_S for its first decision), then plays the first legal action: a test stops
the referee while it decides."""
import os
import time
from pathlib import Path

from arena_bot import Bot, run


class Signaller(Bot):
    asked = 0

    def decide(self, request):
        self.asked += 1
        if os.environ.get("ARENA_TEST_SIGNAL"):
            Path(os.environ["ARENA_TEST_SIGNAL"]).touch()
        time.sleep(float(os.environ.get("ARENA_TEST_FIRST_S", "0.2")) if self.asked == 1 else 0.2)
        return 0


run(Signaller())
