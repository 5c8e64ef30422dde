"""A bot whose owner deletes their account mid-tournament forfeits the games still to come; the games it already
played keep their results (accounts.signals.account_deleting → the bot retired → tournaments.services)."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from tests.platform.tournaments.test_tournament_flow import make_tournament, play_current_round


def test_owner_deleting_their_account_mid_tournament_forfeits_the_rest(thebes_bots, finish):
    from accounts.deletion import delete_account
    from tournaments import services
    from tournaments.models import Game

    bots = thebes_bots[:4]
    t = make_tournament(bots, starts_at=timezone.now() - timedelta(seconds=1))
    assert services.start(t.pk)
    leaver = t.entries.get(bot=bots[1])
    first = list(Game.objects.filter(round__tournament=t, round__number=1, seats__contains=[leaver.pk]))
    assert first and all(g.match_id for g in first)
    strength = {b.pk: 10 - i for i, b in enumerate(bots)}
    play_current_round(t, finish, strength)  # round 1 is played in full, the leaver's game included
    delete_account(bots[1].owner)
    for _ in range(10):
        services.advance(t.pk)
        t.refresh_from_db()
        if t.status != "running":
            break
        play_current_round(t, finish, strength)
    assert t.status == "finished"
    later = Game.objects.filter(round__tournament=t, round__number__gt=1, seats__contains=[leaver.pk])
    assert later.exists()
    assert all(g.match_id is None and "retired" in g.forfeit[str(leaver.pk)] for g in later)
    for g in first:  # what it played stays played
        g.refresh_from_db()
        assert g.match.status == "finished" and not g.forfeit
    row = next(r for r in t.final_standings if r["bot"] == bots[1].name)
    assert row["owner"] == "deleted account"
