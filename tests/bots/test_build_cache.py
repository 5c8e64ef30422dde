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
