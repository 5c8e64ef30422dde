"""Builds that fit real compilers (arena.botbuild): a per-bot build cache kept between builds (bounded, never a way
out of the sandbox), and a time limit that is a setting, named in its error with how to change it.

The builds here are shell scripts (no compiler), so each takes about a second in the sandbox."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from arena import botbuild
from arena.cli import main

# counts its builds in the cache: the program prints how many builds the cache has seen
COUNTING = ('n=$(cat "$ARENA_BUILD_CACHE/count" 2>/dev/null || echo 0); n=$((n+1)); '
            'echo $n > "$ARENA_BUILD_CACHE/count"; mkdir -p out; '
            'printf "#!/bin/sh\\necho %s\\n" $n > out/bot; chmod +x out/bot')


def make_bot(folder: Path, script: str, extra: dict[str, str] | None = None) -> Path:
    folder.mkdir()
    (folder / "bot.toml").write_text('name = "tiny"\ngames = ["thebes"]\nruntime = "binary"\n'
                                     'command = ["out/bot"]\nbuild = ["sh", "build.sh"]\n')
    (folder / "build.sh").write_text(script + "\n")
    for rel, text in (extra or {}).items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_text(text)
    for path in [folder, *folder.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    return folder


def built_count(bot: Path) -> str:
    return (bot / "out" / "bot").read_text().split("echo ")[1].strip()


def test_the_cache_is_kept_between_builds_and_is_never_part_of_the_bot(tmp_path):
    bot = make_bot(tmp_path / "bot", COUNTING)
    cache = tmp_path / "cache"
    botbuild.build(bot, cache_dir=cache)
    assert built_count(bot) == "1"
    botbuild.build(bot, cache_dir=cache)
    assert built_count(bot) == "2"  # the second build saw what the first left in its cache
    assert (cache / "count").read_text().strip() == "2"
    assert not (bot / botbuild.CACHE_NAME).exists()  # the cache is not copied into the bot's folder
    st = cache.stat()
    assert st.st_uid == os.geteuid() and st.st_mode & 0o077 == 0  # on the host: only root reads it
    # another bot (another cache) starts from nothing: a bot never sees another's cache
    other = make_bot(tmp_path / "other", COUNTING)
    botbuild.build(other, cache_dir=tmp_path / "other-cache")
    assert built_count(other) == "1"


def test_a_package_cannot_plant_its_own_cache(tmp_path):
    """A `.arena-cache` folder shipped in the package is not the cache the build gets."""
    bot = make_bot(tmp_path / "bot", COUNTING, {f"{botbuild.CACHE_NAME}/count": "41\n"})
    botbuild.build(bot, cache_dir=tmp_path / "cache")
    assert built_count(bot) == "1"


def test_the_default_cache_is_one_per_bot_folder(tmp_path, monkeypatch):
    monkeypatch.setenv(botbuild.CACHE_ENV, str(tmp_path / "caches"))
    first, second = make_bot(tmp_path / "a", COUNTING), make_bot(tmp_path / "b", COUNTING)
    assert botbuild.default_cache_dir(first) != botbuild.default_cache_dir(second)
    assert botbuild.default_cache_dir(first).parent == tmp_path / "caches"
    botbuild.build(first)
    botbuild.build(first)
    botbuild.build(second)
    assert (built_count(first), built_count(second)) == ("2", "1")


def test_a_hostile_cache_keeps_only_regular_files_and_folders(tmp_path):
    """What a build leaves in its cache is copied out without following anything: a symlink to a host file, a
    fifo, a hard link to the bot's program are not kept (the link would be a way to read the host next time)."""
    script = ('c="$ARENA_BUILD_CACHE"; mkdir -p "$c/sub" out; echo data > "$c/sub/file"; '
              'ln -s /etc/shadow "$c/shadow"; ln -s / "$c/root"; mkfifo "$c/fifo"; '
              'printf "#!/bin/sh\\n" > out/bot; chmod +x out/bot')
    bot = make_bot(tmp_path / "bot", script)
    cache = tmp_path / "cache"
    botbuild.build(bot, cache_dir=cache)
    kept = sorted(str(p.relative_to(cache)) for p in cache.rglob("*"))
    assert kept == ["sub", "sub/file"]
    assert all(not p.is_symlink() and (p.is_dir() or stat.S_ISREG(p.lstat().st_mode)) for p in cache.rglob("*"))


def test_a_cache_over_its_bound_is_dropped_and_the_build_still_counts(tmp_path, monkeypatch):
    monkeypatch.setattr(botbuild, "CACHE_MAX_MB", 1)
    script = ('head -c 2000000 /dev/zero > "$ARENA_BUILD_CACHE/big"; mkdir -p out; '
              'printf "#!/bin/sh\\n" > out/bot; chmod +x out/bot')
    bot = make_bot(tmp_path / "bot", script)
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / "old").write_text("from before")
    botbuild.build(bot, cache_dir=cache)
    assert (bot / "out" / "bot").is_file()
    assert not cache.exists()  # dropped whole, the old content with it: the next build starts afresh


def test_a_timed_out_build_names_the_setting_and_keeps_its_cache(tmp_path):
    """A build stopped by the time limit says which setting limits it and how to raise it; what it compiled is
    kept, so building again (the platform: validate again) goes further."""
    script = 'echo partial > "$ARENA_BUILD_CACHE/partial"; echo compiling; sleep 60'
    bot = make_bot(tmp_path / "bot", script)
    cache = tmp_path / "cache"
    with pytest.raises(botbuild.BuildError) as caught:
        botbuild.build(bot, cache_dir=cache, timeout=1.0)
    message = str(caught.value)
    assert caught.value.timed_out and not caught.value.refused
    assert "the build took longer than 1 s and was stopped" in message
    assert "ARENA_BUILD_TIMEOUT" in message and "arena bot build --timeout SECONDS" in message
    assert "compiling" in message
    assert (cache / "partial").read_text().strip() == "partial"
    assert not (bot / "out").exists()


def test_the_time_limit_is_a_setting(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv(botbuild.TIMEOUT_ENV, "1")
    assert botbuild.build_timeout() == 1.0
    bot = make_bot(tmp_path / "bot", "sleep 60")
    with pytest.raises(botbuild.BuildError, match="longer than 1 s"):
        botbuild.build(bot, cache_dir=tmp_path / "cache")  # no timeout argument: the setting's
    monkeypatch.delenv(botbuild.TIMEOUT_ENV)
    assert botbuild.build_timeout() == botbuild.DEFAULT_BUILD_TIMEOUT_S
    for bad in ("soon", "0", "-5", "1e9"):
        monkeypatch.setenv(botbuild.TIMEOUT_ENV, bad)
        with pytest.raises(ValueError, match="ARENA_BUILD_TIMEOUT"):
            botbuild.build_timeout()
    monkeypatch.delenv(botbuild.TIMEOUT_ENV)
    assert main(["bot", "build", "--timeout", "1", str(bot)]) == 1
    assert "ARENA_BUILD_TIMEOUT" in capsys.readouterr().err


# --- issue 22, item 3: a failed build keeps nothing; all caches bounded together, least recently used out ------

FILL_AND_FAIL = 'head -c 3000000 /dev/zero > "$ARENA_BUILD_CACHE/junk"; echo "oops" >&2; exit 1'


def test_a_failed_build_keeps_no_cache(tmp_path):
    """The attack: a build that writes its cache full and fails, kept up to 400 MB per bot until the bot died."""
    bot = make_bot(tmp_path / "bot", FILL_AND_FAIL)
    cache = tmp_path / "caches" / "bot"
    with pytest.raises(botbuild.BuildError, match="exited with code 1"):
        botbuild.build(bot, cache_dir=cache)
    assert not cache.exists() and botbuild.cache_size(cache) == 0
    # and a failure after successes drops what the successes kept: a failing bot keeps nothing
    (bot / "build.sh").write_text(COUNTING + "\n")
    botbuild.build(bot, cache_dir=cache)
    assert cache.is_dir() and botbuild.cache_size(cache) > 0
    (bot / "build.sh").write_text(FILL_AND_FAIL + "\n")
    with pytest.raises(botbuild.BuildError):
        botbuild.build(bot, cache_dir=cache)
    assert not cache.exists()


def test_the_caches_of_a_machine_are_bounded_together_least_recently_used_out(tmp_path, monkeypatch):
    monkeypatch.setattr(botbuild, "CACHES_MAX_MB", 5)
    script = ('head -c 2000000 /dev/zero > "$ARENA_BUILD_CACHE/c"; mkdir -p out; '
              'printf "#!/bin/sh\\n" > out/bot; chmod +x out/bot')
    root = tmp_path / "caches"
    bots = [make_bot(tmp_path / name, script) for name in ("a", "b", "c")]
    for bot in bots[:2]:
        botbuild.build(bot, cache_dir=root / bot.name)
    os.utime(root / "a", (1, 1))  # a was used long ago, b recently
    assert sorted(p.name for p in botbuild.caches_in(root)) == ["a", "b"]
    botbuild.build(bots[2], cache_dir=root / "c")  # 6 MB with a, b and c: over 5, the least recently used goes
    assert sorted(p.name for p in botbuild.caches_in(root)) == ["b", "c"] and not (root / "a").exists()
    assert sum(botbuild.cache_size(c) for c in botbuild.caches_in(root)) <= 5 * 1024 * 1024


def test_a_cache_in_use_is_never_evicted(tmp_path):
    root = tmp_path / "caches"
    for name, size in (("held", 3000), ("idle", 3000)):
        (root / name).mkdir(parents=True)
        (root / name / "data").write_bytes(b"x" * size)
        (root / f"{name}{botbuild.SIZE_SUFFIX}").write_text(str(size))
    os.utime(root / "held", (1, 1))  # the least recently used, but a build holds it
    with botbuild._cache_lock(root / "held"):
        removed = botbuild.evict_caches(botbuild.caches_in(root), 4000)
    assert removed == [root / "idle"] and (root / "held" / "data").is_file()


def test_a_build_output_name_an_upload_could_not_hold_is_refused(tmp_path):
    """Issue 22, item 2: a build could leave a name with a control character, which the package step stored and
    every worker's unpacker then refused (a ready version no match could start). The upload's name rule
    (arena.botarchive.safe_name) now checks the build's output too."""
    script = 'mkdir -p out; printf "#!/bin/sh\\n" > out/bot; chmod +x out/bot; touch "out/bad$(printf "\\a")name"'
    bot = make_bot(tmp_path / "bot", script)
    with pytest.raises(botbuild.BuildError, match="name an upload could not hold") as refused:
        botbuild.build(bot, cache_dir=tmp_path / "cache")
    assert refused.value.refused and "control character" in str(refused.value)
    assert not (bot / "out").exists()  # nothing of the refused output was copied back
