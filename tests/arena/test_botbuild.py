"""Building a `binary` bot from source (arena.botbuild): in the sandbox, with the bot's folder as the only
writable place, a time limit, and failures explained with the compiler's own lines. The bots here are tiny C++
programs (no gRPC), so each build takes about a second."""

from __future__ import annotations

import os
import re
import socket
import stat
import threading
import time
from pathlib import Path

import pytest

from arena import botbuild
from arena.botcheck import check_bot
from arena.botpkg import load_manifest
from arena.cli import main

HELLO = "#include <cstdio>\nint main() { std::puts(\"hello\"); return 0; }\n"
SYNTAX_ERROR = "int main() { return 0 }\n"


def make_bot(folder: Path, files: dict[str, str], build: list[str], command: str = "out/bot") -> Path:
    folder.mkdir()
    toml = (f'name = "tiny"\ngames = ["thebes"]\nruntime = "binary"\ncommand = ["{command}"]\n'
            f"build = [{', '.join(repr(w).replace(chr(39), chr(34)) for w in build)}]\n")
    (folder / "bot.toml").write_text(toml)
    for rel, text in files.items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_text(text)
    for path in [folder, *folder.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    return folder


def snapshot(folder: Path) -> dict[str, tuple[int, bytes]]:
    return {str(p.relative_to(folder)): (p.lstat().st_mtime_ns, p.read_bytes() if p.is_file() else b"")
            for p in folder.rglob("*")}


COMPILE = ["sh", "-c", "mkdir -p out && g++ -O0 -o out/bot bot.cpp"]


def test_build_makes_the_declared_program_and_tracks_freshness(tmp_path):
    bot = make_bot(tmp_path / "bot", {"bot.cpp": HELLO}, COMPILE)
    manifest = load_manifest(bot)
    assert botbuild.build_needed(manifest) == "out/bot does not exist yet"

    result = botbuild.ensure_built(bot)
    program = bot / "out" / "bot"
    assert result is not None and result.program == program
    assert program.is_file() and os.access(program, os.X_OK)
    st = program.stat()
    assert st.st_uid == os.geteuid()  # copied back by the host, not left owned by the build's uid
    assert not st.st_mode & (stat.S_ISUID | stat.S_ISGID)
    assert botbuild.build_needed(manifest) is None
    assert botbuild.ensure_built(bot) is None  # fresh: nothing to do

    (bot / "bot.cpp").write_text(HELLO.replace("hello", "hello again"))
    assert botbuild.build_needed(manifest) == "bot.cpp is newer than out/bot"
    assert botbuild.ensure_built(bot) is not None
    assert botbuild.build_needed(manifest) is None


def test_syntax_error_is_explained_with_the_compilers_lines(tmp_path):
    bot = make_bot(tmp_path / "bot", {"bot.cpp": SYNTAX_ERROR}, COMPILE)
    before = snapshot(bot)
    with pytest.raises(botbuild.BuildError) as caught:
        botbuild.build(bot)
    message = str(caught.value)
    assert message.startswith("the build (sh -c mkdir -p out && g++ -O0 -o out/bot bot.cpp) failed: exited with code 1")
    assert re.search(r"first error: bot.cpp:1:22: error: expected .;. before .}. token", message)
    assert "its last lines were:" in message
    assert snapshot(bot) == before  # a failed build leaves the folder as it was


def test_check_and_the_command_report_a_failing_build(tmp_path, capsys):
    bot = make_bot(tmp_path / "bot", {"bot.cpp": SYNTAX_ERROR}, COMPILE)
    report = check_bot(bot)
    assert not report.ok and report.result is None
    assert len(report.problems) == 1
    assert re.search(r"first error: bot.cpp:1:22: error: expected .;.", report.problems[0])
    assert "building first (out/bot does not exist yet)" in report.log

    assert main(["bot", "build", str(bot)]) == 1
    assert re.search("error: expected .;.", capsys.readouterr().err)


def test_a_build_that_does_not_make_the_program_is_a_failure(tmp_path):
    bot = make_bot(tmp_path / "bot", {"bot.cpp": HELLO}, ["g++", "-o", "elsewhere", "bot.cpp"])
    with pytest.raises(botbuild.BuildError, match="did not make out/bot, the program bot.toml's `command` starts"):
        botbuild.build(bot)


def test_a_build_that_runs_too_long_is_stopped(tmp_path):
    bot = make_bot(tmp_path / "bot", {"bot.cpp": HELLO}, ["sh", "-c", "echo compiling; sleep 60"])
    t0 = time.monotonic()
    with pytest.raises(botbuild.BuildError) as caught:
        botbuild.build(bot, timeout=1.0)
    assert time.monotonic() - t0 < 10
    assert "the build took longer than 1 s and was stopped" in str(caught.value)
    assert "compiling" in str(caught.value)
    assert not (bot / "out").exists()


class Listener:
    """A TCP server on the host's loopback that records any connection."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen()
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.connections = 0
        self.stop = False
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while not self.stop:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            self.connections += 1
            conn.close()

    def close(self) -> None:
        self.stop = True
        self.thread.join()
        self.sock.close()


def test_a_hostile_build_is_contained(tmp_path):
    """A build that tries the network and writes outside its folder: nothing leaves the sandbox; what it leaves
    in its folder comes back only as plain files (no symlinks, no set-id bits)."""
    listener = Listener()
    outside = tmp_path / "outside.txt"
    host_tmp = Path("/tmp") / f"arena-build-escape-{os.getpid()}"
    script = "; ".join([
        f"(echo hi > /dev/tcp/127.0.0.1/{listener.port}) 2>&1 && echo NET-OPEN || echo net-refused",
        f"(echo x > {outside}) 2>&1 || echo outside-refused",
        "(echo x > ../escape.txt) 2>&1 || echo parent-refused",
        "(echo x > /usr/escape.txt) 2>&1 || echo usr-refused",
        f"echo x > {host_tmp}",  # the build's own /tmp is private
        "ln -s bot.cpp inner-link",  # a link inside the folder is not copied (one out of it refuses the build)
        "mkdir -p out && g++ -o out/bot bot.cpp && chmod 6755 out/bot",
    ])
    bot = make_bot(tmp_path / "bot", {"bot.cpp": HELLO}, ["bash", "-c", script])
    try:
        result = botbuild.build(bot)
    finally:
        listener.close()
    assert listener.connections == 0
    assert "net-refused" in result.log and "NET-OPEN" not in result.log
    assert {"outside-refused", "parent-refused", "usr-refused"} <= set(result.log.split())
    assert not outside.exists() and not (tmp_path / "escape.txt").exists() and not host_tmp.exists()
    assert not Path("/usr/escape.txt").exists()
    assert not (bot / "inner-link").exists() and not (bot / "inner-link").is_symlink()
    mode = (bot / "out" / "bot").stat().st_mode
    assert not mode & (stat.S_ISUID | stat.S_ISGID)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bot"]


def test_unsandboxed_build_runs_in_the_folder(tmp_path):
    bot = make_bot(tmp_path / "bot", {"bot.cpp": HELLO}, COMPILE)
    result = botbuild.build(bot, sandbox=False)
    assert (bot / "out" / "bot").is_file() and result.copied == 0
    assert botbuild.build_needed(load_manifest(bot)) is None


def test_play_builds_first_and_stops_on_a_failing_build(tmp_path, capsys):
    bot = make_bot(tmp_path / "bot", {"bot.cpp": SYNTAX_ERROR}, COMPILE)
    python_random = str(Path(__file__).resolve().parents[2] / "bots" / "python" / "random")
    code = main(["play", "thebes", "--bot", str(bot), "--bot", python_random, "--seed", "1",
                 "--replay", str(tmp_path / "r.replay.json.gz")])
    err = capsys.readouterr().err
    assert code == 2
    assert f"building {bot} (out/bot does not exist yet): sh -c" in err
    assert re.search("arena play: the build .* failed: exited with code 1\nfirst error: bot.cpp:1:22: error", err)
    assert not (tmp_path / "r.replay.json.gz").exists()


def test_unsandboxed_build_that_runs_too_long_is_stopped_with_its_children(tmp_path):
    bot = make_bot(tmp_path / "bot", {"bot.cpp": HELLO}, ["sh", "-c", "sleep 60 & sleep 60; echo never"])
    t0 = time.monotonic()
    with pytest.raises(botbuild.BuildError, match="the build took longer than 1 s and was stopped"):
        botbuild.build(bot, sandbox=False, timeout=1.0)
    assert time.monotonic() - t0 < 10


def test_a_rebuild_in_the_sandbox_recompiles_only_what_changed(tmp_path):
    makefile = ("out/bot: out/a.o out/b.o\n\tg++ -o $@ $^\n"
                "out/%.o: %.cpp\n\tmkdir -p out && g++ -c -o $@ $<\n")
    bot = make_bot(tmp_path / "bot", {"Makefile": makefile, "a.cpp": HELLO, "b.cpp": "int helper() { return 1; }\n"},
                   ["make", "-j1"])
    first = botbuild.build(bot)
    assert "-c -o out/a.o a.cpp" in first.log and "-c -o out/b.o b.cpp" in first.log
    (bot / "b.cpp").write_text("int helper() { return 2; }\n")
    second = botbuild.ensure_built(bot)
    assert "-c -o out/b.o b.cpp" in second.log and "a.cpp" not in second.log
    assert second.copied == 2  # out/b.o and out/bot


def test_concurrent_callers_share_one_build(tmp_path):
    bot = make_bot(tmp_path / "bot", {"bot.cpp": HELLO}, ["sh", "-c", "sleep 0.5; " + COMPILE[2]])
    results: list = []
    threads = [threading.Thread(target=lambda: results.append(botbuild.ensure_built(bot))) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(r is None for r in results) == [False, True]


# --- what a build may leave behind: bounded, plain files, the manifest untouched (issue 9) -------------------

SCRIPT_PROGRAM = "mkdir -p out && printf '#!/bin/sh\\n' > out/bot && chmod +x out/bot"


@pytest.mark.parametrize("hostile, why", [
    ("head -c 300M /dev/zero > big.bin", "it made more than 200 MB of files"),
    ("mkdir gen && cd gen && seq 1 10000 | xargs touch", "it made more than 2000 files and folders"),
    ("printf 'name = \"x\"\\ngames = [\"thebes\"]\\nruntime = \"binary\"\\ncommand = [\"/bin/sh\"]\\n' > bot.toml",
     "it changed or removed bot.toml"),
    ("rm bot.toml", "it changed or removed bot.toml"),
    ("head -c 1M /dev/zero > one.bin && for i in 1 2 3; do ln one.bin hard$i.bin; done",
     "is a hard link (4 names for one file)"),
    ("mkfifo pipe", "pipe is a fifo"),
    ("for i in $(seq 1200); do mkdir d && cd d; done", "its folders nest more than 64 deep"),
    ("mkdir -p $(printf 'a%.0s' $(seq 250))/$(printf 'b%.0s' $(seq 250))/$(printf 'c%.0s' $(seq 250))"
     "/$(printf 'd%.0s' $(seq 250))/$(printf 'e%.0s' $(seq 250))", "a path longer than 1024 characters"),
    ("ln -s /etc/shadow shadow", "shadow is a symbolic link out of your folder"),
    ("mkdir -p lib && ln -s ../../.. lib/up", "lib/up is a symbolic link out of your folder"),
])
def test_a_hostile_build_output_is_refused_and_nothing_is_kept(tmp_path, hostile, why):
    bot = make_bot(tmp_path / "bot", {"build.sh": f"{SCRIPT_PROGRAM} && {hostile}\n"}, ["sh", "build.sh"])
    before = snapshot(bot)
    with pytest.raises(botbuild.BuildError) as caught:
        botbuild.build(bot)
    assert str(caught.value).startswith("the build's output was refused: ") and why in str(caught.value)
    assert snapshot(bot) == before  # nothing of the refused build: no program, no partial copy
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bot"]


def test_a_build_without_its_program_keeps_nothing(tmp_path):
    bot = make_bot(tmp_path / "bot", {"bot.cpp": HELLO}, ["sh", "-c", "mkdir -p obj && echo x > obj/a.o"])
    before = snapshot(bot)
    with pytest.raises(botbuild.BuildError, match="did not make out/bot"):
        botbuild.build(bot)
    assert snapshot(bot) == before


def test_check_refuses_a_build_that_rewrites_its_manifest_in_words(tmp_path):
    rewrite = "sed -i 's/tiny/other/' bot.toml"
    bot = make_bot(tmp_path / "bot", {"build.sh": f"{SCRIPT_PROGRAM} && {rewrite}\n"}, ["sh", "build.sh"])
    report = check_bot(bot)
    assert not report.ok and report.result is None
    assert report.reason == "the build's output was refused"
    assert "changed or removed bot.toml" in report.problems[0]
    assert 'name = "tiny"' in (bot / "bot.toml").read_text() and not (bot / "out").exists()


def test_a_failing_builds_public_reason_is_one_line_without_its_output(tmp_path):
    secret_source = "int main() { return 0 } // SECRET-STRATEGY-42\n"
    bot = make_bot(tmp_path / "bot", {"bot.cpp": secret_source}, COMPILE)
    report = check_bot(bot)
    assert not report.ok
    assert "SECRET-STRATEGY-42" in report.log  # the owner's log has the compiler's lines
    assert report.reason == "the build failed" and "\n" not in report.reason
