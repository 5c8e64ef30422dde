"""Start-up that a test stops the referee in the middle of: with ARENA_TEST_PHASE=socket it creates the file
$ARENA_TEST_SIGNAL once imported, then waits $ARENA_TEST_SLEEP_S before serving its socket; with
ARENA_TEST_PHASE=start it serves at once and, in its first StartMatch, creates the file and takes
$ARENA_TEST_SLEEP_S to answer. Then it plays the first legal action."""
import os
import time
from pathlib import Path

from arena_bot import Bot, run

PHASE = os.environ.get("ARENA_TEST_PHASE", "")
SLEEP_S = float(os.environ.get("ARENA_TEST_SLEEP_S", "0"))


def signal_and_wait() -> None:
    if os.environ.get("ARENA_TEST_SIGNAL"):
        Path(os.environ["ARENA_TEST_SIGNAL"]).touch()
    time.sleep(SLEEP_S)


class LateStarter(Bot):
    started = 0

    def start(self, request):
        super().start(request)
        self.started += 1
        if PHASE == "start" and self.started == 1:
            signal_and_wait()

    def decide(self, request):
        return 0


if PHASE == "socket":
    signal_and_wait()
run(LateStarter())
