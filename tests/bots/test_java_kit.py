"""The Java starter kit: `bots/java/random` builds from source in the build sandbox (arena.botbuild) with Debian's
JDK and grpc-java, against the Java kit of the build kit (/runtime/java: arena-kit.jar, the protocol's classes and
the SDK compiled once by `arena runtimes install`), and plays sandboxed Thebes and Minos matches without a fault.

Debian's grpc-java cannot listen on a unix socket (netty's native epoll library is not packaged): the SDK serves
gRPC on the sandbox's own loopback and bridges ARENA_SOCKET to it; these matches are what proves that works."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena import botbuild, botlogs
from arena.botpkg import load_manifest
from arena.match import BotSpec, run_match
from arena.sandbox import runtimes

ROOT = Path(__file__).resolve().parents[2]
JAVA_RANDOM = ROOT / "bots" / "java" / "random"
PYTHON_RANDOM = str(ROOT / "bots" / "python" / "random")


@pytest.fixture(scope="session")
def java_random() -> Path:
    botbuild.ensure_built(JAVA_RANDOM)
    return JAVA_RANDOM


def test_the_java_kit_is_part_of_the_build_kit():
    kit = runtimes.runtime_path(botbuild.KIT) / "java"
    assert (kit / "arena-java.mk").is_file() and (kit / "arena-kit.jar").is_file()
    jars = (kit / "classpath.txt").read_text().strip().split(":")
    assert jars and all(Path(jar).is_file() and jar.startswith("/usr/") for jar in jars)  # the sandbox shows /usr


def test_the_java_bot_holds_only_its_sources_and_runs_with_usr_only(java_random):
    manifest = load_manifest(java_random)
    assert manifest.runtime == "binary" and botbuild.build_needed(manifest) is None
    sources = sorted(str(p.relative_to(java_random)) for p in java_random.rglob("*")
                     if p.is_file() and p.relative_to(java_random).parts[0] != "build")
    assert sources == ["Makefile", "RandomBot.java", "bot.toml"]
    launcher = (java_random / "build" / "bot").read_text()
    assert "/runtime" not in launcher  # at play time a binary bot sees /usr and its folder, not the kit
    assert (java_random / "build" / "arena-kit.jar").is_file()


@pytest.mark.parametrize("game", ["thebes", "minos"])
def test_java_random_plays_a_sandboxed_match(java_random, game, tmp_path):
    bots = [BotSpec(PYTHON_RANDOM), BotSpec(str(java_random))]
    replay = tmp_path / "m.replay.json.gz"
    result = run_match(game, {"players": 2}, 11, bots, sandbox=True, replay_path=str(replay))
    assert [s.name for s in result.seats] == ["python-random", "java-random"]
    for seat in result.seats:
        assert seat.faults == [] and not seat.disqualified and seat.decisions > 0, seat
    # nothing the owner did not print: no netty warning about the sandbox's missing network interface
    java = botlogs.load(botlogs.logs_path(replay))["seats"][1]
    assert "WARNING" not in java["startup"] and "netty" not in java["startup"], java["startup"]
