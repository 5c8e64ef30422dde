import pytest

from arena import games


@pytest.fixture(autouse=True)
def nim_registered():
    """The test-only Nim game is in the registry during these tests only (other suites see the real games)."""
    games._REGISTRY["nim"] = "tests.arena.match.nim_game:NimGame"
    yield
    games._REGISTRY.pop("nim", None)
