"""Suite-wide rule: with ARENA_STRICT_SKIPS=1 (set by .ci/run, whose machine has every part installed) a skipped
test fails instead. A sandbox, runtime or browser test that skips would otherwise turn a broken part into a
green run. Tests that depend on something outside the checkout carry `@pytest.mark.outside_checkout` and may
still skip."""

from __future__ import annotations

import os

import pytest

STRICT = os.environ.get("ARENA_STRICT_SKIPS") == "1"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if STRICT and report.skipped and not hasattr(report, "wasxfail") \
            and item.get_closest_marker("outside_checkout") is None:
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        report.outcome = "failed"
        report.longrepr = f"skipped under ARENA_STRICT_SKIPS=1 (CI has every part installed): {reason}"
