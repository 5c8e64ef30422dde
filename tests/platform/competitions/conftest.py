"""Fixtures of the competition tests: an organizer (olga), three entrants — alice and bob with bots of their own,
and the team Blue (owner carol, member dave) with a team bot — an outsider (eve), and a competition whose clock
the tests move by hand (`competitions.services.step` at chosen times)."""

from __future__ import annotations

from datetime import timedelta
from types import SimpleNamespace

import pytest


@pytest.fixture
def cast(db, make_user):
    from platform_helpers import make_bot

    from botregistry import ownership
    from competitions.models import Organizer
    from ladders.models import Ladder
    from teams import services as teams

    Ladder.objects.create(slug="thebes-2p", name="Thebes 2p", game="thebes", players=2)
    olga, alice, bob, carol, dave, eve = (make_user(n) for n in ("olga", "alice", "bob", "carol", "dave", "eve"))
    Organizer.objects.create(user=olga)
    team = teams.create_team(carol, "Blue")
    teams.accept(teams.invite_user(team, carol, "dave"), dave)
    blue = make_bot(carol, "blue-bot")
    ownership.transfer(blue, carol, team=team)
    blue.refresh_from_db()
    for u in (carol, dave):
        teams.forget(u)
    return SimpleNamespace(olga=olga, alice=alice, bob=bob, carol=carol, dave=dave, eve=eve, team=team,
                           a=make_bot(alice, "alice-bot"), b=make_bot(bob, "bob-bot"), blue=blue,
                           carols_own=make_bot(carol, "carol-own"), e=make_bot(eve, "eve-bot"))


@pytest.fixture
def dates():
    from django.utils import timezone

    now = timezone.now()
    return {"entries_open_at": now - timedelta(minutes=1), "deadline": now + timedelta(hours=2),
            "final_at": now + timedelta(hours=3)}


@pytest.fixture
def make_competition(cast, dates):
    from competitions import services

    def make(**fields):
        values = {"slug": "spring-cup", "title": "Spring Cup", "game": "thebes", "players": 2,
                  "rules": "# Rules\n\nBe **nice**. <script>alert(1)</script> [x](javascript:alert(1))",
                  **dates, **fields}
        return services.create(cast.olga, **values)
    return make

