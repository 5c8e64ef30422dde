"""A worker's build caches (issue 22, item 3): bots are free to create, so the caches of one owner's bots are
bounded together on each worker (`botregistry.services.bound_build_caches`, after each validation), least
recently used out first, the validated bot's own kept; another owner's caches are never touched."""

from __future__ import annotations

import os

import pytest
from platform_helpers import make_bot


@pytest.fixture(autouse=True)
def storage(settings, tmp_path):
    settings.STORAGE_DIR = tmp_path / "storage"
    settings.ARENA_LOCAL_DIR = tmp_path / "local"
    settings.ARENA_BUILD_CACHE_OWNER_MB = 1


def cache_of(bot, size: int, used_at: float):
    """A build cache as arena.botbuild leaves it: the folder, and its size recorded beside it."""
    from arena.botbuild import SIZE_SUFFIX
    from botregistry.services import build_cache_dir

    folder = build_cache_dir(bot)
    folder.mkdir(parents=True)
    (folder / "data").write_bytes(b"x" * size)
    folder.with_name(folder.name + SIZE_SUFFIX).write_text(str(size))
    os.utime(folder, (used_at, used_at))
    return folder


def test_one_owners_caches_are_bounded_together_least_recently_used_out(make_user):
    from botregistry.services import bound_build_caches

    owner, other = make_user(), make_user()
    old, middle, new = (make_bot(owner, name) for name in ("old", "middle", "new"))
    theirs = make_bot(other, "theirs")
    caches = {bot.name: cache_of(bot, 400_000, used_at) for bot, used_at in
              ((old, 1_000), (middle, 2_000), (new, 3_000), (theirs, 500))}
    removed = bound_build_caches(new)  # 1.2 MB of the owner's over a share of 1 MiB: the oldest goes
    assert removed == [caches["old"]]
    assert not caches["old"].exists() and caches["middle"].is_dir() and caches["new"].is_dir()
    assert caches["theirs"].is_dir()  # another owner's, older than all: not this owner's share to spend
