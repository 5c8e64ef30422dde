"""The tournaments API: staff create and edit until the start; anyone reads standings and rounds."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone


def payload(bots, **kw):
    return {"name": "Spring cup", "game": "thebes", "players": 2, "format": "round_robin",
            "starts_at": (timezone.now() + timedelta(hours=1)).isoformat(), "games_per_pairing": 1,
            "bots": [b.pk for b in bots], **kw}


def staff_client(make_user, client_for):
    user = make_user()
    user.is_staff = True
    user.save()
    return client_for(user)


def test_staff_create_and_anyone_reads(thebes_bots, make_user, client_for, anon):
    staff = staff_client(make_user, client_for)
    resp = staff.post("/api/tournaments/", payload(thebes_bots[:4]), format="json")
    assert resp.status_code == 201, resp.content
    tid = resp.json()["id"]
    assert sorted(e["bot_name"] for e in resp.json()["entries"]) == ["bot0", "bot1", "bot2", "bot3"]
    listing = anon.get("/api/tournaments/")
    assert listing.status_code == 200 and listing.json()["results"][0]["id"] == tid
    detail = anon.get(f"/api/tournaments/{tid}/").json()
    assert detail["status"] == "scheduled" and detail["rounds"] == [] and detail["standings"] == []


def test_owners_and_anonymous_users_cannot_create(thebes_bots, make_user, client_for, anon):
    assert anon.post("/api/tournaments/", payload(thebes_bots[:2]), format="json").status_code == 401
    user = client_for(make_user())
    assert user.post("/api/tournaments/", payload(thebes_bots[:2]), format="json").status_code == 403


def test_bad_set_ups_are_refused_with_reasons(thebes_bots, make_user, client_for):
    staff = staff_client(make_user, client_for)
    resp = staff.post("/api/tournaments/", payload(thebes_bots[:4], format="knockout", players=4), format="json")
    assert resp.status_code == 400 and "knockout" in str(resp.json())
    resp = staff.post("/api/tournaments/", payload(thebes_bots[:4], game="chess"), format="json")
    assert resp.status_code == 400 and "unknown game" in str(resp.json())
    resp = staff.post("/api/tournaments/", payload(thebes_bots[:4], players=7), format="json")
    assert resp.status_code == 400
    resp = staff.post("/api/tournaments/", payload([thebes_bots[0], thebes_bots[0]]), format="json")
    assert resp.status_code == 400 and "twice" in str(resp.json())
    resp = staff.post("/api/tournaments/", {**payload(thebes_bots[:2]), "bots": [999999]}, format="json")
    assert resp.status_code == 400
    resp = staff.post("/api/tournaments/", payload(thebes_bots[:6], players=4, duplicate=True,
                                                   games_per_pairing=40), format="json")
    assert resp.status_code == 400 and "2400 games" in str(resp.json()) and "Swiss" in str(resp.json())


def test_entries_lock_at_the_start(thebes_bots, make_user, client_for):
    from tournaments import services

    staff = staff_client(make_user, client_for)
    tid = staff.post("/api/tournaments/", payload(thebes_bots[:3]), format="json").json()["id"]
    resp = staff.patch(f"/api/tournaments/{tid}/", {"bots": [b.pk for b in thebes_bots[:4]]}, format="json")
    assert resp.status_code == 200 and len(resp.json()["entries"]) == 4
    services.start(tid, now=timezone.now() + timedelta(hours=2))
    resp = staff.patch(f"/api/tournaments/{tid}/", {"bots": [b.pk for b in thebes_bots[:2]]}, format="json")
    assert resp.status_code == 400 and "locked" in str(resp.json())
    detail = staff.get(f"/api/tournaments/{tid}/").json()
    assert detail["status"] == "running" and len(detail["entries"]) == 4
    assert detail["rounds"][0]["number"] == 1 and len(detail["standings"]) == 4
