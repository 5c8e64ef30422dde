"""The Go starter kit: `bots/go/random` builds from source in the build sandbox (arena.botbuild) with Debian's Go
and grpc-go, against the Go kit of the build kit (/runtime/go: the SDK, the generated protocol code and a build
cache seed made by `arena runtimes install`), and plays sandboxed Thebes and Minos matches without a fault.

The expensive part, compiling grpc-go, happens once in `arena runtimes install` (the cache seed); the bot's own
build starts its build cache from the seed and takes seconds, at most once per session (freshness check)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from arena import botbuild
from arena.botpkg import load_manifest
from arena.match import BotSpec, run_match
from arena.sandbox import runtimes

ROOT = Path(__file__).resolve().parents[2]
GO_RANDOM = ROOT / "bots" / "go" / "random"
PYTHON_RANDOM = str(ROOT / "bots" / "python" / "random")


@pytest.fixture(scope="session")
def go_random() -> Path:
    botbuild.ensure_built(GO_RANDOM)
    return GO_RANDOM


def test_the_go_kit_is_part_of_the_build_kit():
    kit = runtimes.runtime_path(botbuild.KIT) / "go"
    assert (kit / "arena-go.mk").is_file()
    assert (kit / "gopath" / "src" / "arena" / "v1" / "arena_grpc.pb.go").is_file()
    assert (kit / "gopath" / "src" / "arena" / "arenabot" / "arenabot.go").is_file()
    assert (kit / "cache-seed").is_dir()


def test_the_go_bot_is_built_in_its_folder_and_holds_only_its_sources(go_random):
    manifest = load_manifest(go_random)
    assert manifest.runtime == "binary" and botbuild.build_needed(manifest) is None
    assert botbuild.program_path(manifest) == go_random / "build" / "bot"
    sources = sorted(str(p.relative_to(go_random)) for p in go_random.rglob("*")
                     if p.is_file() and p.relative_to(go_random).parts[0] != "build")
    assert sources == ["Makefile", "bot.toml", "main.go"]


@pytest.mark.parametrize("game", ["thebes", "minos"])
def test_go_random_plays_a_sandboxed_match(go_random, game):
    bots = [BotSpec(str(go_random)), BotSpec(PYTHON_RANDOM)]
    result = run_match(game, {"players": 2}, 7, bots, sandbox=True)
    assert [s.name for s in result.seats] == ["go-random", "python-random"]
    for seat in result.seats:
        assert seat.faults == [] and not seat.disqualified and seat.decisions > 0, seat


def test_a_go_bot_build_starts_from_the_kits_cache_seed(go_random, tmp_path):
    """A new Go bot with an empty build cache compiles only its own code: grpc-go comes from the seed (a cold
    build compiles it for a minute or two and may hit the 120 s limit). The cache is then the bot's, kept."""
    bot = tmp_path / "bot"
    shutil.copytree(go_random, bot, ignore=shutil.ignore_patterns("build"))
    (bot / "bot.toml").write_text((bot / "bot.toml").read_text().replace("go-random", "go-copy"))
    cache = tmp_path / "cache"
    result = botbuild.build(bot, cache_dir=cache, timeout=600)
    assert (bot / "build" / "bot").is_file()
    assert (cache / "go").is_dir() and cache.stat().st_mode & 0o077 == 0  # the bot's, root's only on the host
    # no package of grpc-go was compiled: `go build -x` would say; the time says it without timing: the seed's
    # entries are all still there and only a few were added (the bot's package and its link)
    seed = sum(1 for _ in (runtimes.runtime_path(botbuild.KIT) / "go" / "cache-seed").rglob("*"))
    assert seed <= sum(1 for _ in (cache / "go").rglob("*")) <= seed + 40, result.log


def test_the_build_kit_is_rebuilt_when_the_go_or_java_kit_changes(tmp_path, monkeypatch):
    for rel in ("bots/cpp/sdk", "bots/go/sdk", "bots/java/sdk", "proto"):
        shutil.copytree(runtimes.PROJECT_ROOT / rel, tmp_path / rel)
    monkeypatch.setattr(runtimes, "PROJECT_ROOT", tmp_path)
    for edited in ("bots/go/sdk/arena-go.mk", "bots/java/sdk/arena-java.mk"):
        before = runtimes._cpp_stamp()
        (tmp_path / edited).write_text((tmp_path / edited).read_text() + "\n# edited\n")
        assert runtimes._cpp_stamp() != before, edited
