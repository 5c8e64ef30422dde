"""Hostile manifests (arena.botpkg): a parser bomb is a ManifestError, and `command`/`build` can name only a
program of the runtime or a file of the bot's folder, judged from the text (no probing of the host)."""

from __future__ import annotations

import os

import pytest

from arena.botcheck import check_bot
from arena.botpkg import ManifestError, load_manifest, program_problem

GOOD = 'name = "x"\ngames = ["thebes"]\nruntime = "binary"\n'


def write(tmp_path, text: str):
    (tmp_path / "bot.toml").write_text(text)
    return tmp_path


def test_deeply_nested_arrays_are_a_manifest_error(tmp_path):
    with pytest.raises(ManifestError, match="nested too deeply"):
        load_manifest(write(tmp_path, GOOD + "command = " + "[" * 5000 + "]" * 5000 + "\n"))


def test_a_huge_manifest_is_refused_before_parsing(tmp_path):
    with pytest.raises(ManifestError, match="larger than 64 KB"):
        load_manifest(write(tmp_path, GOOD + 'command = ["a"]\n#' + "x" * 70_000 + "\n"))


@pytest.mark.parametrize("program, allowed", [
    ("python", True), ("make", True), ("build/bot", True), ("./run.sh", True), ("/bot/build/bot", True),
    ("/etc/passwd", False), ("/bin/sh", False), ("/bot/../etc/passwd", False), ("../x", False),
    ("a/../../x", False), ("/bot/", False), ("bad\nname", False),
])
def test_which_programs_a_manifest_may_name(program, allowed):
    assert (program_problem(program) is None) is allowed


def test_the_answer_for_a_host_path_does_not_depend_on_the_host(tmp_path):
    messages = []
    for program in ("/etc/passwd", "/no/such/file"):
        with pytest.raises(ManifestError) as caught:
            load_manifest(write(tmp_path, GOOD + f'command = ["{program}"]\n'))
        messages.append(str(caught.value).replace(program, "P"))
    assert messages[0] == messages[1] and "absolute path" in messages[0]


def test_a_command_linked_out_of_the_folder_is_not_followed(tmp_path):
    os.symlink("/etc/passwd", tmp_path / "run")
    report = check_bot(write(tmp_path, GOOD + 'command = ["./run"]\n'))
    assert not report.ok and "is a link" in report.problems[0]
    assert report.reason == "the command in bot.toml cannot be started"
