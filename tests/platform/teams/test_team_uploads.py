"""Two members of one team both upload versions to the team's bot through the API, on real parts: the uploads
are unpacked and checked by the request, a real Celery worker validates each in the sandbox, and both versions
become ready on the one bot (numbered in upload order, the newest playing). An outsider's upload is refused."""

import pytest
from platform_helpers import bot_files, upload, wait_for, zip_bytes

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.sandbox, pytest.mark.timeout(180)]


def test_two_members_upload_to_one_team_bot(celery_worker, client_for, make_user):
    from botregistry.models import Bot

    alice, bob, eve = make_user("alice"), make_user("bob"), make_user("eve")
    a, b = client_for(alice), client_for(bob)
    assert a.post("/api/teams/", {"name": "Red Team"}, format="json").status_code == 201
    inv = a.post("/api/teams/red-team/invitations/", {"username": "bob"}, format="json").json()["id"]
    assert b.post(f"/api/invitations/{inv}/accept/").status_code == 200
    bot = a.post("/api/bots/", {"name": "red-bot", "game": "thebes"}, format="json").json()
    assert a.post(f"/api/bots/{bot['id']}/transfer/", {"team": "red-team"}, format="json").status_code == 200

    archive = zip_bytes(bot_files(name="red-bot"))
    first = upload(a, bot["id"], archive)
    second = upload(b, bot["id"], zip_bytes({**bot_files(name="red-bot"), "NOTES.txt": b"bob's change\n"}))
    assert (first.status_code, second.status_code) == (201, 201), (first.content, second.content)
    assert (first.json()["number"], second.json()["number"]) == (1, 2)
    refused = upload(client_for(eve), bot["id"], archive)
    assert refused.status_code == 403

    def validated():
        states = [b.get(f"/api/versions/{r.json()['id']}/").json() for r in (first, second)]
        return states if all(s["status"] not in ("pending", "validating") for s in states) else None

    states = wait_for(validated, 120, 0.5, "validation of both members' versions")
    assert [s["status"] for s in states] == ["ready", "ready"], states
    assert all("smoke match" in s["validation_log"] for s in states)  # each member reads the logs
    assert client_for(eve).get(f"/api/versions/{second.json()['id']}/").json()["validation_log"] is None
    played = Bot.objects.get(pk=bot["id"])
    assert played.team.slug == "red-team" and played.versions.count() == 2
    assert played.playing_version.number == 2
