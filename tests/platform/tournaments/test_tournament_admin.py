"""Staff create tournaments in the Django admin; once started, their set-up and entries are read-only there."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone


def test_staff_create_a_tournament_with_entries_in_the_admin(client, thebes_bots):
    from django.contrib.auth import get_user_model

    from tournaments import services
    from tournaments.models import Tournament

    admin = get_user_model().objects.create_superuser("boss", "", "pw-123456789")
    client.force_login(admin)
    assert client.get("/admin/tournaments/tournament/add/").status_code == 200
    start = timezone.now() + timedelta(hours=1)
    form = {
        "name": "Admin cup", "game": "thebes", "players": "2", "params": "{}", "format": "knockout",
        "games_per_pairing": "1", "rounds_planned": "", "starts_at_0": start.strftime("%Y-%m-%d"),
        "starts_at_1": start.strftime("%H:%M:%S"), "decision_ms": "1000", "bank_ms": "10000",
        "startup_ms": "10000", "max_faults": "3", "seed": "5",
        "entries-TOTAL_FORMS": "3", "entries-INITIAL_FORMS": "0", "entries-MIN_NUM_FORMS": "0",
        "entries-MAX_NUM_FORMS": "1000",
    }
    for i, b in enumerate(thebes_bots[:3]):
        form[f"entries-{i}-bot"] = str(b.pk)
    resp = client.post("/admin/tournaments/tournament/add/", form)
    assert resp.status_code == 302, resp.content.decode()[:2000]
    t = Tournament.objects.get(name="Admin cup")
    assert t.created_by == admin and t.entries.count() == 3 and t.format == "knockout"

    services.start(t.pk, now=start)
    page = client.get(f"/admin/tournaments/tournament/{t.pk}/change/").content.decode()
    assert 'name="entries-0-bot"' not in page, "entries are locked once the tournament started"
    assert 'name="starts_at_0"' not in page
