"""The heartbeat of a task that runs bots (a match, a validation): a thread that, every ARENA_HEARTBEAT_SECONDS
while the task runs, renews this worker's sandbox uid block (`uid_blocks.renew`) and writes the task's own
heartbeat (`beat`), and reports the machine's free disk (`disk_reports`), so recovery tells a task that is only
slow from one whose worker is gone. `beat` returns False once the run lost its claim (taken over, or decided): the
thread then stops beating but still renews the uid block until `stop` (the run's bots hold its uids until the
task ends), the run's outcome is discarded by whoever records it, and a match's run stops at its next decision
(`matches.tasks.RunAbandoned`). A database hiccup is logged and the next
beat tries again."""

from __future__ import annotations

import logging
import threading

from django.conf import settings
from django.db import close_old_connections, connection

from arena_site import disk_reports, uid_blocks

log = logging.getLogger("arena.platform")


class Heartbeat(threading.Thread):
    """Subclasses say what a beat writes (`beat`) and what they beat for (`what`, for the log)."""

    def __init__(self, what: str):
        super().__init__(name=f"heartbeat of {what}", daemon=True)
        self.what = what
        self.stopped = threading.Event()

    def beat(self) -> bool:
        """Write this run's heartbeat; False when the run no longer holds its claim."""
        raise NotImplementedError

    def run(self) -> None:
        claimed = True
        try:
            while not self.stopped.wait(settings.ARENA_HEARTBEAT_SECONDS):
                try:
                    # the run's bots hold uids of this worker's block until the task ends, even once the run lost
                    # its claim (until they are stopped, its outcome discarded): a lapsed block could be leased by
                    # another container on this kernel and the same uids handed to its bots meanwhile
                    uid_blocks.renew()
                    if not claimed:
                        continue
                    if not self.beat():
                        claimed = False
                        continue
                    disk_reports.report()  # what the run writes fills this machine's disk (throttled)
                except Exception:  # a database hiccup: the next beat tries again
                    log.exception("heartbeat of %s failed", self.what)
                    close_old_connections()
        finally:
            connection.close()

    def stop(self) -> None:
        self.stopped.set()
        self.join(timeout=10)
