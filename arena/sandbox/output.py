"""What a bot prints, kept in memory (never on disk by the sandbox), bounded, and split by decision.

A thread drains the bot's stdout+stderr pipe (one pipe: the bot's lines keep their order). Two records are kept:

- the *tail*: the last `keep` bytes, for explaining a crash (`tail`, `excerpt`);
- the *segments*: the referee calls `mark(label)` when it starts asking a decision, which closes the current
  segment (start-up, or what the bot printed since its previous decision) and opens a new one. Each segment keeps
  at most `segment_bytes` and the whole log at most `total_bytes_kept`; what is cut is counted and shown by a
  marker (`CUT_MARKER`), never silently dropped.

`mark` first reads whatever is already in the pipe (under the drain thread's lock), so a line a bot printed
before answering its decision lands in that decision's segment, not the next one: the referee freezes a bot
between its decisions, so nothing new is written between the answer and the mark.

A bot that prints without end cannot fill the disk, nor eat the referee's CPU: the thread drains at most
DRAIN_BYTES_PER_SECOND, so a pipe that fills faster blocks the bot's own writes (its problem, counted against its
own time), while the occasional log line costs next to nothing.
"""

from __future__ import annotations

import os
import select
import threading
import time
from dataclasses import dataclass

CHUNK = 64 * 1024
DRAIN_BYTES_PER_SECOND = 4 * 1024 * 1024  # a bot printing faster than this waits on its own writes
#: What one decision's segment keeps (the first bytes; the rest is counted).
SEGMENT_BYTES = 4 * 1024
#: What the whole match's segments keep together, per bot.
LOG_BYTES = 256 * 1024


def cut_marker(n_bytes: int) -> str:
    """The line that stands for `n_bytes` of output that was not kept."""
    return f"\n[… {n_bytes} more bytes of output cut by the referee …]\n"


@dataclass
class Segment:
    """What the bot printed in one stretch of the match: `label` is "startup", a decision index (int) or "end"."""

    label: str | int
    data: bytearray
    total: int = 0  # bytes the bot printed in this stretch, kept or not

    @property
    def cut(self) -> int:
        return self.total - len(self.data)

    def text(self) -> str:
        """The kept output, with a marker for what was cut."""
        text = bytes(self.data).decode("utf-8", errors="replace")
        return text + cut_marker(self.cut) if self.cut else text


class OutputTail:
    """The bot's output: drained by a thread; see the module docstring. `capture=False` keeps only the tail (no
    segments), for measuring what the per-decision capture costs (bench/bot_latency.py --logs)."""

    def __init__(self, fd: int, keep: int = 64 * 1024, *, segment_bytes: int = SEGMENT_BYTES,
                 log_bytes: int = LOG_BYTES, capture: bool = True) -> None:
        self._fd = fd
        os.set_blocking(fd, False)  # reads happen when select says so, or at a mark: never block under the lock
        self._keep = keep
        self._buf = bytearray()
        self._lock = threading.Lock()
        self.total_bytes = 0
        self._segment_bytes = segment_bytes
        self._log_bytes = log_bytes
        self._kept = 0
        self.capture = capture
        self._segments: list[Segment] = [Segment("startup", bytearray())]
        self._closed = False
        self._thread = threading.Thread(target=self._drain, name="arena-bot-output", daemon=True)
        self._thread.start()

    # -- the drain thread -------------------------------------------------------------------------------------
    def _drain(self) -> None:
        poller = select.poll()  # not select(): it fails on descriptors above 1023 in a busy worker
        poller.register(self._fd, select.POLLIN | select.POLLHUP | select.POLLERR)
        try:
            while True:
                try:
                    poller.poll()
                except OSError:
                    break
                with self._lock:
                    n, eof = self._read_available()
                if eof:
                    break
                time.sleep(n / DRAIN_BYTES_PER_SECOND)
        finally:
            with self._lock:
                self._closed = True
                os.close(self._fd)

    def _read_available(self) -> tuple[int, bool]:
        """Read what the pipe holds now (the caller holds the lock). Returns (bytes read, end of file)."""
        if self._closed:
            return 0, True
        got = 0
        while True:
            try:
                data = os.read(self._fd, CHUNK)
            except BlockingIOError:
                return got, False
            except OSError:
                return got, True
            if not data:
                return got, True
            got += len(data)
            self._add(data)
            if len(data) < CHUNK:
                return got, False

    def _add(self, data: bytes) -> None:
        self.total_bytes += len(data)
        self._buf += data
        if len(self._buf) > self._keep:
            del self._buf[: len(self._buf) - self._keep]
        if not self.capture:
            return
        seg = self._segments[-1]
        seg.total += len(data)
        room = min(self._segment_bytes - len(seg.data), self._log_bytes - self._kept)
        if room > 0:
            take = data[:room]
            seg.data += take
            self._kept += len(take)

    # -- the referee's side -----------------------------------------------------------------------------------
    def mark(self, label: str | int) -> None:
        """Close the current segment (after reading what the pipe already holds) and open one named `label`."""
        if not self.capture:
            return
        with self._lock:
            self._read_available()
            self._segments.append(Segment(label, bytearray()))

    def segments(self) -> list[Segment]:
        """The segments so far, oldest first (copies; empty ones included)."""
        with self._lock:
            if not self._closed:
                self._read_available()
            return [Segment(s.label, bytearray(s.data), s.total) for s in self._segments]

    def tail(self, n_bytes: int = 4000) -> str:
        with self._lock:
            data = bytes(self._buf[-n_bytes:]) if n_bytes > 0 else b""
        return data.decode("utf-8", errors="replace")

    def excerpt(self, n_bytes: int = 2000) -> str:
        """Up to `n_bytes` of what the bot printed last. When its last stretch (since its last decision began,
        `mark`) is longer than that, both ends of the stretch are kept: its first lines (where a panic or a
        traceback starts) and its last lines, with a marker between; otherwise simply the last `n_bytes`."""
        with self._lock:
            last = bytes(self._buf[-n_bytes:]) if n_bytes > 0 else b""
            seg = next((s for s in reversed(self._segments) if s.total), None) if self.capture else None
            if seg is None or seg.total <= n_bytes:
                return last.decode("utf-8", errors="replace")
            head, printed = bytes(seg.data), seg.total
        half = n_bytes // 2
        first = head[:half]
        end = last[-(n_bytes - half):]
        skipped = max(0, printed - len(first) - len(end))
        return (first.decode("utf-8", errors="replace") + (cut_marker(skipped) if skipped else "")
                + end.decode("utf-8", errors="replace"))

    def join(self, timeout: float) -> None:
        """Wait for the pipe to close (every writer dead) so the tail is complete."""
        self._thread.join(timeout)
