"""`arena bot check` answers "why did my bot fail?" in plain words, before the bot plays for real."""

import shutil

from referee_helpers import BOTS

from arena.botcheck import check_bot
from arena.cli import main
from arena.match import TimeControl


def test_good_bot_passes():
    report = check_bot(BOTS / "good")
    assert report.ok and report.problems == []
    assert report.result is not None and report.result.seats[report.seat].decisions > 0
    assert "manifest ok" in report.log and "smoke match" in report.log


def test_manifest_problem(tmp_path):
    (tmp_path / "bot.toml").write_text('name = "x"\ngames = ["thebes"]\ncommand = ["python", "bot.py"]\n')
    report = check_bot(tmp_path)
    assert not report.ok and report.result is None
    assert "`runtime` is missing" in report.problems[0]


def test_command_not_found(tmp_path):
    shutil.copytree(BOTS / "good", tmp_path / "bot")
    toml = tmp_path / "bot" / "bot.toml"
    toml.write_text(toml.read_text().replace('"python", "bot.py"', '"pyhton", "bot.py"'))
    report = check_bot(tmp_path / "bot")
    assert not report.ok
    assert "the command 'pyhton' is not a program of the python runtime" in report.problems[0]


def test_binary_without_build_command_and_program(tmp_path):
    (tmp_path / "bot.toml").write_text('name = "cpp"\ngames = ["thebes"]\nruntime = "binary"\n'
                                       'command = ["./build/bot"]\n')
    report = check_bot(tmp_path)
    assert not report.ok
    assert "'./build/bot' is not in the bot folder (was it built?" in report.problems[0]


def test_binary_whose_build_fails_shows_the_build_output(tmp_path):
    (tmp_path / "bot.toml").write_text('name = "cpp"\ngames = ["thebes"]\nruntime = "binary"\n'
                                       'command = ["./build/bot"]\nbuild = ["make"]\n')
    report = check_bot(tmp_path)
    assert not report.ok
    assert "the build (make) failed" in report.problems[0]
    assert "no makefile found" in report.problems[0]


def test_bot_that_dies_at_start_shows_its_output():
    report = check_bot(BOTS / "broken")
    assert not report.ok
    assert "did not get ready" in report.problems[0] and "exited with code 1" in report.problems[0]
    assert "ModuleNotFoundError: No module named 'numpy_that_is_not_installed'" in report.problems[0]
    assert "disqualified" in report.problems[-1]


def test_bot_that_never_listens_is_told_about_the_socket():
    report = check_bot(BOTS / "silent", time_control=TimeControl(startup_ms=600))
    assert "did not open its socket" in report.problems[0]
    assert "unix:$ARENA_SOCKET" in report.problems[0]
    assert "thinking about opening a socket" in report.problems[0]  # what it printed


def test_illegal_answers_come_with_examples(capsys):
    assert main(["bot", "check", str(BOTS / "illegal")]) == 1
    out = capsys.readouterr().out
    assert "answered an action that is not legal 4 times" in out
    assert "answered index" in out and "legal actions (0.." in out
