"""Fixtures of the tournament tests: bots with ready versions, a staff user, and a way to finish a tournament
match with a chosen result (through the platform's own `record_result`, as a worker would)."""

from __future__ import annotations

import pytest


@pytest.fixture
def thebes_bots(db):
    """Six Thebes bots of six owners, each with a ready version 1 and a ladder rating (seeding order: bot0 best)."""
    from django.contrib.auth import get_user_model

    from botregistry.models import Bot, BotVersion
    from ladders.models import Ladder, Rating

    User = get_user_model()
    ladder = Ladder.objects.create(slug="thebes-2p", name="Thebes 2p", game="thebes", players=2)
    bots = []
    for i in range(6):
        owner = User.objects.create_user(f"t-owner{i}", "", "pw-123456789")
        bot = Bot.objects.create(owner=owner, name=f"bot{i}", game="thebes")
        v = BotVersion.objects.create(bot=bot, number=1, status=BotVersion.Status.READY, sha256=f"{i:064d}",
                                      package_dir=f"bots/{i}")
        bot.active_version = v
        bot.save()
        Rating.objects.create(ladder=ladder, bot=bot, rating=1800 - 50 * i, rating_interval=60.0, elo=1800 - 50 * i,
                              games=40)
        bots.append(bot)
    return bots

