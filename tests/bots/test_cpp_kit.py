"""The C++ starter kit: `bots/cpp/random` builds from source in the build sandbox (arena.botbuild), with the kit
bound at /runtime, and plays a sandboxed Thebes match through the referee without a fault.

The compile (~20-40 s on this machine) happens at most once per test session, and only when the program is
missing or older than a source (the build-output freshness check), so a second run costs nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena import botbuild
from arena.botpkg import load_manifest
from arena.match import BotSpec, run_match

ROOT = Path(__file__).resolve().parents[2]
CPP_RANDOM = ROOT / "bots" / "cpp" / "random"


@pytest.fixture(scope="session")
def cpp_random() -> Path:
    botbuild.ensure_built(CPP_RANDOM)
    return CPP_RANDOM


def test_the_cpp_bot_is_built_in_its_folder(cpp_random):
    manifest = load_manifest(cpp_random)
    assert manifest.runtime == "binary" and manifest.build
    assert botbuild.build_needed(manifest) is None
    program = botbuild.program_path(manifest)
    assert program == cpp_random / "build" / "bot" and program.is_file()


def test_cpp_random_plays_a_sandboxed_thebes_match(cpp_random):
    python_random = str(ROOT / "bots" / "python" / "random")
    bots = [BotSpec(str(cpp_random)), BotSpec(python_random), BotSpec(str(cpp_random), name="cpp-random-2"),
            BotSpec(python_random, name="python-random-2")]
    result = run_match("thebes", {"players": 4}, 5, bots, sandbox=True)
    assert [s.name for s in result.seats] == ["cpp-random", "python-random", "cpp-random-2", "python-random-2"]
    for seat in result.seats:
        assert seat.faults == [] and not seat.disqualified and seat.decisions > 0, seat
    assert sorted(s.rank for s in result.seats)[0] == 1


def test_the_cpp_bot_holds_only_its_own_sources(cpp_random):
    """The kit (arena.mk, arena_bot.hpp, the .proto files) comes from the build kit at /runtime, not from copies in
    the bot's folder: what the author wrote is all there is (build/ is what the build made)."""
    sources = sorted(str(p.relative_to(cpp_random)) for p in cpp_random.rglob("*")
                     if p.is_file() and p.relative_to(cpp_random).parts[0] != "build")
    assert sources == ["Makefile", "bot.cpp", "bot.toml"]
    assert "include $(ARENA_KIT)/arena.mk" in (cpp_random / "Makefile").read_text()


def test_bot_check_passes_the_cpp_bot(cpp_random):
    from arena.botcheck import check_bot

    report = check_bot(cpp_random)
    assert report.ok, report.log
    assert "building first" not in report.log  # fresh: the session's build is reused
    mine = report.result.seats[report.seat]  # the smoke match's seat is drawn at random
    assert mine.name == "cpp-random" and mine.decisions > 0
