"""A sandboxed bot sees only /usr, its own folder (read-only), a private /tmp and its socket directory."""

import hashlib

import pytest
from sandbox_helpers import requires_sandbox, result_of

pytestmark = [pytest.mark.sandbox, requires_sandbox]


def test_bot_cannot_read_host_or_other_bot_nor_write_outside_tmp(run_program, make_bot_dir, tmp_path):
    other = make_bot_dir(name="other", files={"secret.txt": "the other bot's strategy"})
    mark = tmp_path / "host-mark.txt"
    passwd_before = hashlib.sha256(open("/etc/passwd", "rb").read()).hexdigest()

    bot = run_program("filesystem.py", env={"OTHER_BOT": str(other), "HOST_MARK": str(mark)}, name="hostile")
    r = result_of(bot)

    for key in ("read_passwd", "read_shadow", "list_other_bot", "read_other_bot", "list_root_home",
                "list_work"):
        assert r[key].startswith("FileNotFoundError"), (key, r[key])
    for key in ("write_bot", "write_usr", "write_root"):
        assert r[key].startswith(("OSError: Read-only file system", "PermissionError")), (key, r[key])
    assert r["write_host_mark"].startswith("FileNotFoundError"), r["write_host_mark"]
    # what a bot may do still works, so the denials above are the sandbox's, not a broken bot's
    assert r["write_tmp"] == "ok: /tmp/fine.txt"
    assert r["read_own"].startswith("ok: ")
    assert r["processes"] == "ok: [1, 2]"  # the sandbox's init and itself, in a pid namespace of their own

    bot_dir = tmp_path / "hostile"
    assert sorted(p.name for p in bot_dir.iterdir()) == ["bot.py"]
    assert not mark.exists()
    assert (other / "secret.txt").read_text() == "the other bot's strategy"
    assert hashlib.sha256(open("/etc/passwd", "rb").read()).hexdigest() == passwd_before
