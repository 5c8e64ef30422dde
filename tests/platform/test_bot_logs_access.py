"""The bots' own logs of a match (what each printed by turn, its annotations) through the API: the owner sees
its own bot's, staff see all, nobody else sees any, unless an owner makes a bot's annotations public (then
everyone sees those annotations, never the output). Faults carry the viewer's turn number."""

import pytest
from bot_logs_helpers import played_match


@pytest.fixture
def people(make_user):
    from django.contrib.auth import get_user_model

    staff = get_user_model().objects.create_user("staffer", "", "pw-123456789", is_staff=True)
    return {"alice": make_user("alice"), "bob": make_user("bob"), "carol": make_user("carol"), "staff": staff}


@pytest.fixture
def match(people, settings, tmp_path):
    settings.STORAGE_DIR = tmp_path / "storage"
    return played_match(people["alice"], people["bob"])


def _seats(client, match):
    response = client.get(f"/api/matches/{match.pk}/logs/")
    assert response.status_code == 200, response.content
    return {s["seat"]: s for s in response.json()["seats"]}


def test_owner_sees_each_turn_of_its_own_bot_only(match, people, client_for):
    seats = _seats(client_for(people["alice"]), match)
    assert list(seats) == [0]
    chatty = seats[0]
    assert "hello from seat 0" in chatty["startup"] and "goodbye" in chatty["end"]
    assert chatty["output_visible"] is True
    first = chatty["decisions"][0]
    assert first["turn"] == first["decision"] + 1
    assert f"stdout of decision {first['decision']}" in first["output"]
    assert first["annotation"] == f"plan for decision {first['decision']}"
    # bob sees his own (silent) bot's, not alice's
    assert list(_seats(client_for(people["bob"]), match)) == [1]
    # the detail links to the logs
    detail = client_for(people["alice"]).get(f"/api/matches/{match.pk}/").json()
    assert detail["logs_url"] == f"/api/matches/{match.pk}/logs/"


def test_nobody_else_sees_any_of_it(match, people, client_for, anon):
    assert _seats(anon, match) == {}
    assert _seats(client_for(people["carol"]), match) == {}
    for client in (anon, client_for(people["carol"]), client_for(people["bob"])):
        response = client.get(f"/api/matches/{match.pk}/logs/0/")
        assert response.status_code in (401, 403), response.status_code
        assert b"stdout of decision" not in response.content


def test_staff_see_every_seat_and_download_it(match, people, client_for):
    staff = client_for(people["staff"])
    assert sorted(_seats(staff, match)) == [0, 1]
    response = staff.get(f"/api/matches/{match.pk}/logs/0/")
    assert response.status_code == 200
    assert response["Content-Disposition"].endswith('-seat1-chatty_v1.log"')
    text = response.content.decode()
    assert "== start-up ==" in text and "== turn 1 (decision 0) ==" in text and "[annotation] plan" in text


def test_owner_downloads_the_whole_log(match, people, client_for):
    response = client_for(people["alice"]).get(f"/api/matches/{match.pk}/logs/0/")
    assert response.status_code == 200 and "stdout of decision 0" in response.content.decode()
    assert client_for(people["alice"]).get(f"/api/matches/{match.pk}/logs/1/").status_code == 403


def test_public_annotations_show_annotations_never_output(match, people, client_for, anon):
    bot_id = match.participants.get(seat=0).bot_id
    carol = client_for(people["carol"])
    # only the owner may switch it
    assert carol.patch(f"/api/bots/{bot_id}/", {"public_annotations": True}, format="json").status_code == 403
    assert _seats(carol, match) == {}
    switched = client_for(people["alice"]).patch(f"/api/bots/{bot_id}/", {"public_annotations": True},
                                                 format="json")
    assert switched.status_code == 200 and switched.json()["public_annotations"] is True
    for client in (anon, carol):
        seats = _seats(client, match)
        assert list(seats) == [0]
        entry = seats[0]
        assert entry["output_visible"] is False
        assert "startup" not in entry and "end" not in entry
        assert all(set(d) == {"decision", "turn", "annotation"} for d in entry["decisions"])
        assert entry["decisions"][0]["annotation"].startswith("plan for decision")
        assert "stdout of decision" not in str(seats)
        assert client.get(f"/api/matches/{match.pk}/logs/0/").status_code in (401, 403)


def test_logs_wait_like_the_replay_while_the_seed_is_still_in_play(match, people, client_for):
    from matches.models import Match

    Match.objects.create(game="thebes", params={"players": 2}, seed=match.seed, status=Match.Status.QUEUED)
    assert client_for(people["alice"]).get(f"/api/matches/{match.pk}/logs/").status_code == 403
    assert client_for(people["staff"]).get(f"/api/matches/{match.pk}/logs/").status_code == 200


def test_logs_file_is_kept_beside_the_replay_and_private(match):
    import stat

    assert match.logs_file.exists() and match.logs_file.parent == match.replay_file.parent
    assert stat.S_IMODE(match.logs_file.stat().st_mode) == 0o600
    # nothing left behind in the temporary folder
    assert not list((match.replay_file.parents[1] / "tmp").glob("*"))
