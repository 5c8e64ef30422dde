"""On a host that cannot sandbox, untrusted bots are refused with a message that says what is missing and that
--no-sandbox exists; nothing is started."""

import pytest

from arena.sandbox import SandboxLimits, SandboxUnavailable, check_available, launch
from arena.sandbox import process


@pytest.fixture(autouse=True)
def forget_earlier_checks(monkeypatch):
    monkeypatch.setattr(process, "_available", False)


def test_missing_bubblewrap_is_explained(monkeypatch, tmp_path):
    monkeypatch.setattr(process, "TOOLS_DIR", tmp_path)  # a /usr/bin without bwrap
    with pytest.raises(SandboxUnavailable) as info:
        check_available()
    assert "bwrap is not installed (apt-get install bubblewrap)" in str(info.value)
    assert "--no-sandbox" in str(info.value)


def test_not_root_is_explained(monkeypatch, tmp_path):
    if not (process.TOOLS_DIR / "bwrap").exists():
        pytest.skip("bubblewrap is not installed here")
    monkeypatch.setattr(process.os, "geteuid", lambda: 1000)
    with pytest.raises(SandboxUnavailable) as info:
        launch(tmp_path, ["true"], None, SandboxLimits())
    assert "must run as root" in str(info.value)
    assert "--no-sandbox" in str(info.value)
