"""Fixtures for the hostile-bot match tests."""

import pytest

from arena.sandbox import runtimes


@pytest.fixture(autouse=True)
def python_runtime():
    if not (runtimes.runtime_path("python") / runtimes.STAMP).exists():
        pytest.fail("the Python bot runtime is not built: run `arena runtimes install` (make test does)")
