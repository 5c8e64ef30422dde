"""arena.sandbox.output on a real pipe: output split at marks, bounded per stretch and per log with the cut counted,
and the excerpt of a long last stretch keeps its first lines (where a trace starts)."""

import os
import time

from arena.sandbox.output import OutputTail


def _wait_for(out: OutputTail, total: int) -> None:
    deadline = time.monotonic() + 10
    while out.total_bytes < total and time.monotonic() < deadline:
        time.sleep(0.001)


def test_marks_split_what_was_written_before_them():
    r, w = os.pipe()
    out = OutputTail(r)
    os.write(w, b"starting\n")
    out.mark(0)  # reads what the pipe holds before cutting, without waiting for the thread
    os.write(w, b"thinking about 0\n")
    out.mark(2)
    os.write(w, b"thinking about 2\n")
    os.close(w)
    out.join(5)
    segs = out.segments()
    assert [(s.label, s.text()) for s in segs] == [("startup", "starting\n"), (0, "thinking about 0\n"),
                                                   (2, "thinking about 2\n")]


def test_bounds_cut_with_a_marker_and_count_the_rest():
    r, w = os.pipe()
    out = OutputTail(r, segment_bytes=100, log_bytes=150)
    os.write(w, b"a" * 500)
    out.mark(0)
    os.write(w, b"b" * 80)
    out.mark(1)
    os.write(w, b"c" * 10)
    os.close(w)
    out.join(5)
    startup, first, second = out.segments()
    assert bytes(startup.data) == b"a" * 100 and startup.cut == 400
    assert "400 more bytes of output cut" in startup.text()
    assert bytes(first.data) == b"b" * 50 and first.cut == 30  # the log's 150 bytes are used up
    assert second.data == b"" and second.cut == 10


def test_excerpt_of_a_long_trace_keeps_its_first_lines():
    r, w = os.pipe()
    out = OutputTail(r)
    os.write(w, b"earlier noise\n" * 100)
    out.mark(7)
    trace = b"panic: index out of range\n" + b"goroutine frame\n" * 400 + b"exit status 2\n"
    os.write(w, trace)
    os.close(w)
    out.join(5)
    text = out.excerpt(2000)
    assert text.startswith("panic: index out of range")
    assert text.rstrip().endswith("exit status 2")
    assert "more bytes of output cut by the referee" in text
    assert len(text.encode()) < 2200


def test_short_output_excerpt_is_the_plain_tail():
    r, w = os.pipe()
    out = OutputTail(r)
    os.write(w, b"one\n")
    out.mark(0)
    os.write(w, b"two\n")
    os.close(w)
    out.join(5)
    assert out.excerpt(2000) == "one\ntwo\n"
