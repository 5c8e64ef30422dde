"""`arena bot check` says what to fix: a command without `./`, a first decision that eats the bank (a warning,
not a failure), an archive checked as the platform unpacks it (executable bits kept), a solo smoke match that
says what it is, and `check --help` / `build --help` that each describe their own command."""

import io
import shutil
import stat
import tarfile
import zipfile

import pytest
from referee_helpers import BOTS

from arena.botcheck import check_bot
from arena.cli import main
from arena.match import TimeControl

REPO = BOTS.parents[3]


def _start_script_bot(folder):
    """A python bot started through an executable shell script (`./start`): it runs only if the mode survives."""
    shutil.copytree(BOTS / "good", folder)
    (folder / "start").write_text("#!/bin/sh\nexec python bot.py\n")
    (folder / "start").chmod(0o755)
    toml = folder / "bot.toml"
    toml.write_text(toml.read_text().replace('["python", "bot.py"]', '["./start"]'))
    return folder


def test_a_command_without_dot_slash_is_explained(tmp_path):
    bot = _start_script_bot(tmp_path / "bot")
    toml = bot / "bot.toml"
    toml.write_text(toml.read_text().replace('["./start"]', '["start"]'))
    report = check_bot(bot)
    assert not report.ok
    assert "names a file of the bot folder" in report.problems[0] and 'write "./start"' in report.problems[0]


def test_a_first_decision_that_eats_the_bank_is_warned_about():
    tc = TimeControl(decision_ms=200, bank_ms=3000, startup_ms=10_000, max_faults=3)
    report = check_bot(BOTS / "slowfirst", game="thebes", time_control=tc)
    assert report.ok, report.problems  # a warning, not a failure
    assert len(report.warnings) == 1 and "first decision took" in report.warnings[0]
    assert "StartMatch" in report.warnings[0] and "warning: your bot's first decision" in report.log
    assert check_bot(BOTS / "good", game="thebes", time_control=tc).warnings == []


def _zip(folder) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                z.write(path, f"mybot/{path.relative_to(folder)}")  # one top folder, as `zip -r` makes
    return buf.getvalue()


def _tar_gz(folder) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as t:
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                t.add(path, str(path.relative_to(folder)))  # bot.toml at the root
    return buf.getvalue()


@pytest.mark.parametrize("kind", ["zip", "tar.gz"])
def test_an_archive_with_an_executable_is_checked_as_uploaded(kind, tmp_path):
    bot = _start_script_bot(tmp_path / "bot")
    archive = tmp_path / f"mybot.{kind}"
    archive.write_bytes(_zip(bot) if kind == "zip" else _tar_gz(bot))
    report = check_bot(archive)
    assert report.ok, report.log
    assert report.log.startswith(f"unpacked mybot.{kind} as the platform does")


def test_unpacking_keeps_only_the_execute_bits(tmp_path):
    from arena.botarchive import unpack

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for name, mode in (("bot.toml", 0o644), ("run", 0o4777), ("data", 0o666)):
            info = zipfile.ZipInfo(name)
            info.create_system = 3
            info.external_attr = (stat.S_IFREG | mode) << 16
            z.writestr(info, b"x")
    unpack(buf.getvalue(), tmp_path / "out", max_bytes=10_000, max_files=10)
    modes = {p.name: stat.S_IMODE(p.stat().st_mode) for p in (tmp_path / "out").iterdir()}
    assert modes == {"bot.toml": 0o644, "run": 0o755, "data": 0o644}  # never set-uid, never world-writable


def test_a_solo_smoke_match_says_what_it_is():
    report = check_bot(REPO / "bots" / "python" / "minos-random", game="minos")
    assert report.ok, report.log
    assert "a solo match against the game's own automated opponent" in report.log
    assert "1 players" not in report.log and "of 1," not in report.log
    assert "of 2, score" in report.log  # ranked among the bot and Rhadamanthus


def test_check_and_build_help_differ(capsys):
    texts = []
    for action in ("check", "build"):
        with pytest.raises(SystemExit):
            main(["bot", action, "--help"])
        texts.append(capsys.readouterr().out)
    assert texts[0] != texts[1]
    assert "smoke match" in texts[0] and "archive" in texts[0]
    assert "build` command" in texts[1] and "smoke match" not in texts[1]


def test_a_crash_shows_the_first_lines_of_a_long_trace():
    report = check_bot(BOTS / "panicker", game="thebes")
    assert not report.ok
    crash = next(p for p in report.problems if p.startswith("your bot crashed"))
    assert "panic: runtime error: index out of range [7] with length 3" in crash  # where it starts
    assert "exit status 2" in crash  # and how it ends
    assert "more bytes of output cut by the referee" in crash
