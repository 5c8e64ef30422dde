"""Fixtures of the team tests: a team (owner alice, member bob), an outsider (eve), and a team bot with a ready
version on a Thebes ladder."""

from __future__ import annotations

from types import SimpleNamespace

import pytest


@pytest.fixture
def world(db, make_user):
    from platform_helpers import make_bot

    from botregistry import ownership
    from ladders.models import Ladder
    from teams import services

    ladder = Ladder.objects.create(slug="thebes-2p", name="Thebes 2p", game="thebes", players=2)
    alice, bob, eve = make_user("alice"), make_user("bob"), make_user("eve")
    team = services.create_team(alice, "Red Team")
    services.accept(services.invite_user(team, alice, "bob"), bob)
    bot = make_bot(alice, "red-bot")
    ownership.transfer(bot, alice, team=team)
    bot.refresh_from_db()
    theirs = make_bot(eve, "eve-bot")
    for u in (alice, bob, eve):
        services.forget(u)
    return SimpleNamespace(ladder=ladder, alice=alice, bob=bob, eve=eve, team=team, bot=bot, theirs=theirs)
