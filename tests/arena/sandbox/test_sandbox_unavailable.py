"""On a host that cannot sandbox, untrusted bots are refused with a message that says what is missing and that
--no-sandbox exists; nothing is started."""

import pytest

from arena.sandbox import SandboxLimits, SandboxUnavailable, check_available, launch, process


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


@pytest.mark.sandbox
def test_host_where_bubblewrap_fails_is_refused(monkeypatch):
    """A host whose policy stops bubblewrap (here: an option this bwrap refuses) is found out by the probe."""
    from sandbox_helpers import sandbox_skip_reason

    from arena.sandbox import bwrap

    if sandbox_skip_reason():
        pytest.skip(sandbox_skip_reason())
    monkeypatch.setattr(process, "_available", False)  # the line above found this host fine
    real = bwrap.command_line

    def broken(**kwargs):
        argv = real(**kwargs)
        at = argv.index("/usr/bin/bwrap") + 1
        return argv[:at] + ["--no-such-option"] + argv[at:]

    monkeypatch.setattr(bwrap, "command_line", broken)
    with pytest.raises(SandboxUnavailable) as info:
        check_available()
    assert "bubblewrap cannot build a sandbox on this host (the sandbox could not start the bot" in str(info.value)
    assert "--no-such-option" in str(info.value)
    assert "--no-sandbox" in str(info.value)
