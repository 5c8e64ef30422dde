"""bot.toml: a valid manifest loads; each mistake is reported in words naming the field to fix; the package hash
depends on the files' names and contents only."""

import os

import pytest

from arena.botpkg import ManifestError, load_manifest, package_sha256

GOOD = 'name = "my-bot"\ngames = ["thebes"]\nruntime = "python"\ncommand = ["python", "bot.py"]\n'


def _bot(tmp_path, manifest, name="bot"):
    folder = tmp_path / name
    folder.mkdir()
    (folder / "bot.toml").write_text(manifest)
    (folder / "bot.py").write_text("print('hi')\n")
    return folder


def test_valid_manifest(tmp_path):
    m = load_manifest(_bot(tmp_path, GOOD + 'build = ["make"]\n'))
    assert (m.name, m.games, m.runtime, m.command, m.build) == (
        "my-bot", ("thebes",), "python", ("python", "bot.py"), ("make",))
    assert m.sandbox_runtime == "python"


@pytest.mark.parametrize("manifest,words", [
    (GOOD.replace('name = "my-bot"\n', ""), "`name` is missing"),
    (GOOD.replace('"my-bot"', '"my bot!"'), "`name` must be"),
    (GOOD.replace('games = ["thebes"]\n', ""), "`games` is missing"),
    (GOOD.replace('["thebes"]', '"thebes"'), "`games` must be a non-empty list"),
    (GOOD.replace('runtime = "python"\n', ""), "`runtime` is missing"),
    (GOOD.replace('"python"\n', '"java"\n'), "`runtime` must be one of python, node, binary"),
    (GOOD.replace('command = ["python", "bot.py"]\n', ""), "`command` is missing"),
    (GOOD.replace('["python", "bot.py"]', "[]"), "`command` must be a non-empty list"),
    (GOOD + "colour = 3\n", "unknown field(s) colour"),
    (GOOD + "name = \n", "not valid TOML"),
])
def test_mistakes_are_explained(tmp_path, manifest, words):
    with pytest.raises(ManifestError, match=".*") as err:
        load_manifest(_bot(tmp_path, manifest))
    assert words in str(err.value)


def test_missing_manifest_and_folder(tmp_path):
    with pytest.raises(ManifestError, match="no bot.toml"):
        load_manifest(tmp_path)
    with pytest.raises(ManifestError, match="no such folder"):
        load_manifest(tmp_path / "nope")


def test_package_hash_is_content_addressed(tmp_path):
    a = _bot(tmp_path, GOOD, "a")
    b = _bot(tmp_path, GOOD, "b")
    os.utime(b / "bot.py", (0, 0))
    (b / "__pycache__").mkdir()
    (b / "__pycache__" / "bot.cpython-311.pyc").write_bytes(b"cache")
    assert package_sha256(a) == package_sha256(b)
    (b / "bot.py").write_text("print('changed')\n")
    assert package_sha256(a) != package_sha256(b)
    (a / "bot.py").rename(a / "main.py")
    assert package_sha256(a) != package_sha256(_bot(tmp_path, GOOD, "c"))
