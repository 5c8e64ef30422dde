"""The tournament admin checks `entries_per_entrant` as the API does: a person's bots, or a team's, beyond the
limit are refused when staff save the tournament (issue 17's review: only the API checked it)."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone


def _form(start, bots, limit: str) -> dict:
    form = {
        "name": "Limited cup", "game": "thebes", "players": "2", "params": "{}", "format": "knockout",
        "games_per_pairing": "1", "rounds_planned": "", "starts_at_0": start.strftime("%Y-%m-%d"),
        "starts_at_1": start.strftime("%H:%M:%S"), "decision_ms": "1000", "bank_ms": "10000",
        "startup_ms": "10000", "max_faults": "3", "seed": "5", "entries_per_entrant": limit,
        "entries-TOTAL_FORMS": str(len(bots)), "entries-INITIAL_FORMS": "0", "entries-MIN_NUM_FORMS": "0",
        "entries-MAX_NUM_FORMS": "1000",
    }
    for i, b in enumerate(bots):
        form[f"entries-{i}-bot"] = str(b.pk)
    return form


def test_the_admin_refuses_more_entries_of_one_team_than_the_limit(client, thebes_bots):
    from django.contrib.auth import get_user_model

    from botregistry.models import Bot
    from teams import services as teams
    from tournaments.models import Tournament

    admin = get_user_model().objects.create_superuser("boss", "", "pw-123456789")
    client.force_login(admin)
    a, b = thebes_bots[0].owner, thebes_bots[1].owner
    team = teams.create_team(a, "Twins")
    teams.accept(teams.invite_user(team, a, b.username), b)
    Bot.objects.filter(pk__in=[thebes_bots[0].pk, thebes_bots[1].pk]).update(team=team)  # two makers, one team
    start = timezone.now() + timedelta(hours=1)

    refused = client.post("/admin/tournaments/tournament/add/", _form(start, thebes_bots[:3], "1"))
    assert refused.status_code == 200, "the form comes back with the reason"
    assert "team Twins has 2 bots entered" in refused.content.decode()
    assert not Tournament.objects.filter(name="Limited cup").exists()

    made = client.post("/admin/tournaments/tournament/add/", _form(start, thebes_bots[:3], "2"))
    assert made.status_code == 302, made.content.decode()[:2000]
    t = Tournament.objects.get(name="Limited cup")
    assert t.entries.count() == 3
    # lowering the limit below the entries kept is refused too
    change = _form(start, [], "1")
    change.update({"entries-TOTAL_FORMS": "3", "entries-INITIAL_FORMS": "3"})
    for i, e in enumerate(t.entries.order_by("id")):
        change.update({f"entries-{i}-id": str(e.pk), f"entries-{i}-tournament": str(t.pk),
                       f"entries-{i}-bot": str(e.bot_id)})
    again = client.post(f"/admin/tournaments/tournament/{t.pk}/change/", change)
    assert again.status_code == 200 and "at most 1 per entrant" in again.content.decode()
    t.refresh_from_db()
    assert t.entries_per_entrant == 2
