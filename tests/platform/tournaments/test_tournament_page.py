"""The tournament pages: the list, and a tournament's standings, rounds, matches and forfeit reasons."""

from __future__ import annotations

import re
from datetime import timedelta

from django.utils import timezone


def text(resp) -> str:
    return re.sub(r"\s+", " ", resp.content.decode())


def test_scheduled_tournament_shows_entries_and_start(client, thebes_bots):
    from tournaments.models import Entry, Tournament

    t = Tournament.objects.create(name="Autumn open", game="thebes", players=2, format="swiss", duplicate=True,
                                  starts_at=timezone.now() + timedelta(days=1))
    for b in thebes_bots[:3]:
        Entry.objects.create(tournament=t, bot=b)
    page = text(client.get(f"/tournaments/{t.pk}/"))
    assert "Autumn open" in page and "scheduled" in page and "Swiss" in page and "duplicate sets" in page
    assert all(f"bot{i}" in page for i in range(3))
    assert "the first round is made at the start time" in page
    assert "Autumn open" in text(client.get("/")) and "Autumn open" in text(client.get("/tournaments/"))


def test_running_tournament_shows_standings_rounds_matches_and_forfeits(client, thebes_bots, finish):
    from botregistry.models import BotVersion
    from tournaments import services
    from tournaments.models import Entry, Game, Tournament

    bad = thebes_bots[2]
    BotVersion.objects.filter(pk=bad.active_version_id).update(
        status=BotVersion.Status.SUSPENDED, status_reason="timed out in 7 of its last 10 matches")
    t = Tournament.objects.create(name="Night cup", game="thebes", players=2, starts_at=timezone.now(), seed=1)
    for b in thebes_bots[:4]:
        Entry.objects.create(tournament=t, bot=b)
    services.start(t.pk)
    played = Game.objects.filter(round__tournament=t, match__isnull=False).first()
    finish(played.match, {b.pk: 10 - i for i, b in enumerate(thebes_bots)})
    page = text(client.get(f"/tournaments/{t.pk}/"))
    assert "Standings" in page and "Round 1" in page
    assert f'href="/matches/{played.match_id}/"' in page
    assert "forfeit: version 1 was suspended when the tournament started: timed out in 7 of its last 10 matches" in page
    rows = re.findall(r'<tr data-bot="(bot\d)">', page)
    assert sorted(rows) == ["bot0", "bot1", "bot2", "bot3"]
    # the match page links back to its tournament and says it is unrated
    mpage = text(client.get(f"/matches/{played.match_id}/"))
    assert "Night cup" in mpage and "unrated" in mpage
