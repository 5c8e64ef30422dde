"""The Go and Java kits' random bots are built-in bots (issue 14): `register_builtin_bots` (run by `manage.py up`)
builds them from source and registers each on every game it plays, ready and enrolled on the ladders, like the
Python, Node and C++ ones. Their sandboxed matches are in tests/bots/test_go_kit.py and test_java_kit.py."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from platform_helpers import ROOT


@pytest.mark.parametrize("language", ["go", "java"])
def test_the_kits_random_bot_is_a_builtin_bot_on_every_game(db, language):
    from botregistry.models import Bot
    from ladders.models import Rating

    call_command("ensure_ladders", verbosity=0)
    call_command("register_builtin_bots", str(ROOT / "bots" / language / "random"), verbosity=0)
    bots = {bot.name: bot for bot in Bot.objects.filter(builtin=True)}
    assert set(bots) == {f"{language}-random-thebes", f"{language}-random-minos"}
    for game in ("thebes", "minos"):
        bot = bots[f"{language}-random-{game}"]
        assert bot.game == game and bot.playing_version is not None
        assert bot.playing_version.status == "ready" and bot.playing_version.runtime == "binary"
        assert (bot.playing_version.package_path / "build" / "bot").is_file()  # built before it was hashed
        assert Rating.objects.filter(bot=bot, ladder__game=game).exists()
