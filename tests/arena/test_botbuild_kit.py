"""The build kit: a bot's build sees the C++ kit (the `cpp` runtime: arena.mk, arena_bot.hpp and the protocol's
.proto files) at `$ARENA_KIT` — read-only at /runtime in the sandbox, the runtime's own folder without one — so a
bot's folder holds only its own sources; a rebuilt kit makes its bots stale. Each test builds its own kit under a
temporary ARENA_RUNTIME_DIR (copies only, well under a second) and a tiny C++ program."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena import botbuild
from arena.botpkg import load_manifest
from arena.sandbox import RuntimeMissing, runtimes

HELLO = "#include <cstdio>\nint main() { std::puts(\"hello\"); return 0; }\n"
PROBE = ('mkdir -p out && cp "$ARENA_KIT/arena.mk" out/kit.mk && cp "$ARENA_KIT/proto/arena/v1/arena.proto" '
         'out/arena.proto && (touch "$ARENA_KIT/scribble" 2>/dev/null && echo kit-writable || echo kit-read-only) '
         '&& g++ -O0 -o out/bot bot.cpp')


def make_bot(folder: Path) -> Path:
    folder.mkdir()
    (folder / "bot.toml").write_text('name = "tiny"\ngames = ["thebes"]\nruntime = "binary"\n'
                                     f'command = ["out/bot"]\nbuild = {json.dumps(["sh", "-c", PROBE])}\n')
    (folder / "bot.cpp").write_text(HELLO)
    for path in [folder, *folder.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    return folder


@pytest.fixture
def kit(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("ARENA_RUNTIME_DIR", str(tmp_path / "runtime"))
    runtimes.install(("cpp",), log=lambda line: None)
    return runtimes.runtime_path("cpp")


@pytest.mark.parametrize("sandbox", [True, False], ids=["sandboxed", "plain"])
def test_the_build_finds_the_kit_at_ARENA_KIT(kit, tmp_path, sandbox):
    bot = make_bot(tmp_path / "bot")
    result = botbuild.build(bot, sandbox=sandbox)
    assert (bot / "out/kit.mk").read_bytes() == (runtimes.cpp_kit_dir() / "arena.mk").read_bytes()
    assert (bot / "out/arena.proto").read_bytes() == (runtimes.proto_dir() / "arena/v1/arena.proto").read_bytes()
    if sandbox:
        assert "kit-read-only" in result.log.split() and not (kit / "scribble").exists()


def test_a_rebuilt_kit_makes_the_bot_stale(kit, tmp_path):
    bot = make_bot(tmp_path / "bot")
    manifest = load_manifest(bot)
    botbuild.build(bot, sandbox=False)
    assert botbuild.build_needed(manifest) is None
    runtimes.install(("cpp",), force=True, log=lambda line: None)
    assert botbuild.build_needed(manifest) == f"the build kit ({kit}) is newer than out/bot"
    assert botbuild.ensure_built(bot, sandbox=False) is not None
    assert botbuild.build_needed(manifest) is None


def test_a_missing_kit_says_how_to_install_it(tmp_path, monkeypatch):
    monkeypatch.setenv("ARENA_RUNTIME_DIR", str(tmp_path / "nowhere"))
    bot = make_bot(tmp_path / "bot")
    for sandbox in (True, False):
        with pytest.raises(RuntimeMissing, match="run `arena runtimes install`"):
            botbuild.build(bot, sandbox=sandbox)
