"""The tail of what a bot prints, kept in memory, never on disk.

A thread drains the bot's stdout+stderr pipe and keeps the last `keep` bytes. A bot that prints without end
cannot fill the disk, nor eat the referee's CPU: the thread drains at most DRAIN_BYTES_PER_SECOND, so a pipe
that fills faster blocks the bot's own writes (its problem, counted against its own time), while the occasional
log line costs next to nothing.
"""

from __future__ import annotations

import os
import threading
import time

CHUNK = 64 * 1024
DRAIN_BYTES_PER_SECOND = 4 * 1024 * 1024  # a bot printing faster than this waits on its own writes


class OutputTail:
    def __init__(self, fd: int, keep: int = 64 * 1024) -> None:
        self._fd = fd
        self._keep = keep
        self._buf = bytearray()
        self._lock = threading.Lock()
        self.total_bytes = 0
        self._thread = threading.Thread(target=self._drain, name="arena-bot-output", daemon=True)
        self._thread.start()

    def _drain(self) -> None:
        try:
            while True:
                try:
                    data = os.read(self._fd, CHUNK)
                except OSError:
                    break
                if not data:
                    break
                with self._lock:
                    self.total_bytes += len(data)
                    self._buf += data
                    if len(self._buf) > self._keep:
                        del self._buf[: len(self._buf) - self._keep]
                time.sleep(len(data) / DRAIN_BYTES_PER_SECOND)
        finally:
            os.close(self._fd)

    def tail(self, n_bytes: int = 4000) -> str:
        with self._lock:
            data = bytes(self._buf[-n_bytes:]) if n_bytes > 0 else b""
        return data.decode("utf-8", errors="replace")

    def join(self, timeout: float) -> None:
        """Wait for the pipe to close (every writer dead) so the tail is complete."""
        self._thread.join(timeout)
