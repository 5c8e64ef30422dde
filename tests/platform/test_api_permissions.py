"""The REST API: accounts and tokens, who may read and change what, pagination, and clear 4xx for bad input."""

import pytest
from platform_helpers import bot_files, make_bot, upload, zip_bytes


@pytest.fixture
def ladder(db):
    from ladders.models import Ladder
    return Ladder.objects.create(slug="thebes-2p", name="Thebes 2p", game="thebes", players=2)


@pytest.fixture
def alice(make_user):
    return make_user("alice")


@pytest.fixture
def bob(make_user):
    return make_user("bob")


def test_signup_login_and_token(anon, client_for, db):
    response = anon.post("/api/auth/signup/", {"username": "carol", "password": "long-enough-pw-1",
                                               "email": "carol@example.org"}, format="json")
    assert response.status_code == 201
    token = response.json()["token"]
    login = anon.post("/api/auth/login/", {"username": "carol", "password": "long-enough-pw-1"}, format="json")
    assert login.status_code == 200 and login.json()["token"] != token  # each log-in makes a token (hashed)
    for key in (token, login.json()["token"]):
        anon.credentials(HTTP_AUTHORIZATION=f"Token {key}")
        assert anon.get("/api/auth/me/").json()["username"] == "carol"
    again = client_for().post("/api/auth/signup/", {"username": "CAROL", "password": "long-enough-pw-1",
                                                    "email": "carol2@example.org"}, format="json")
    assert again.status_code == 400 and "taken" in str(again.json())
    weak = client_for().post("/api/auth/signup/", {"username": "dave", "password": "12345678",
                                                   "email": "dave@example.org"}, format="json")
    assert weak.status_code == 400 and "password" in weak.json()
    bad_login = client_for().post("/api/auth/login/", {"username": "carol", "password": "nope"}, format="json")
    assert bad_login.status_code == 400


def test_anonymous_reads_leaderboards_matches_bots_but_cannot_write(anon, ladder, alice):
    make_bot(alice, "a1")
    for url in ("/api/ladders/", "/api/ladders/thebes-2p/", "/api/ladders/thebes-2p/leaderboard/",
                "/api/matches/", "/api/bots/", "/api/versions/", "/api/schema/", "/api/docs/"):
        assert anon.get(url).status_code == 200, url
    assert anon.post("/api/bots/", {"name": "x", "game": "thebes"}, format="json").status_code == 401
    assert anon.get("/api/challenges/").status_code == 401
    assert anon.get("/api/auth/me/").status_code == 401


def test_owner_alone_changes_a_bot_and_uploads_versions(client_for, alice, bob):
    as_alice, as_bob = client_for(alice), client_for(bob)
    created = as_alice.post("/api/bots/", {"name": "mine", "game": "thebes", "description": "v0"}, format="json")
    assert created.status_code == 201 and created.json()["owner"] == "alice"
    bot_id = created.json()["id"]
    assert as_bob.patch(f"/api/bots/{bot_id}/", {"description": "pwned"}, format="json").status_code == 403
    assert upload(as_bob, bot_id, zip_bytes(bot_files())).status_code == 403
    assert as_alice.patch(f"/api/bots/{bot_id}/", {"description": "v1"}, format="json").json()["description"] == "v1"
    assert as_alice.delete(f"/api/bots/{bot_id}/").status_code == 405  # history keeps its bots
    # the validation log is the owner's; the status is public
    assert upload(as_alice, bot_id, zip_bytes(bot_files())).status_code == 201
    version_id = as_alice.get(f"/api/bots/{bot_id}/versions/").json()["results"][0]["id"]
    assert as_alice.get(f"/api/versions/{version_id}/").json()["validation_log"] == ""
    assert as_bob.get(f"/api/versions/{version_id}/").json()["validation_log"] is None


def test_bot_creation_errors(client_for, alice):
    client = client_for(alice)
    assert client.post("/api/bots/", {"name": "b", "game": "chess"}, format="json").status_code == 400
    assert client.post("/api/bots/", {"game": "thebes"}, format="json").status_code == 400
    assert client.post("/api/bots/", {"name": "b", "game": "thebes"}, format="json").status_code == 201
    dup = client.post("/api/bots/", {"name": "b", "game": "thebes"}, format="json")
    assert dup.status_code == 400 and "already have a bot" in str(dup.json())
    assert client.post("/api/bots/", [1, 2], format="json").status_code == 400
    assert client.post("/api/bots/", "not json", content_type="application/json").status_code == 400


def test_unknown_and_malformed_ids_are_404(anon, ladder):
    for url in ("/api/bots/999999/", "/api/bots/abc/", "/api/bots/99999999999999999999999/",
                "/api/matches/424242/", "/api/matches/1.5/", "/api/versions/0/", "/api/ladders/nope/leaderboard/",
                "/api/matches/424242/replay/", "/api/bots/424242/versions/"):
        assert anon.get(url).status_code == 404, url


def test_bad_filters_are_400(anon, ladder):
    assert anon.get("/api/matches/?bot=abc").status_code == 400
    assert anon.get("/api/matches/?bot=99999999999999999999999").status_code == 400
    assert anon.get("/api/matches/?status=bogus").status_code == 400
    assert anon.get("/api/matches/?kind=1").status_code == 400
    assert anon.get("/api/matches/?page=abc").status_code == 404
    assert anon.get("/api/matches/?ladder=nope&game=x").status_code == 200


def test_active_version_must_be_a_ready_version_of_the_same_bot(client_for, alice, bob):
    mine, theirs = make_bot(alice, "mine"), make_bot(bob, "theirs")
    client = client_for(alice)
    wrong = client.patch(f"/api/bots/{mine.pk}/", {"active_version": theirs.active_version_id}, format="json")
    assert wrong.status_code == 400 and "another bot" in str(wrong.json())
    assert client.patch(f"/api/bots/{mine.pk}/", {"active_version": "x"}, format="json").status_code == 400
    assert client.patch(f"/api/bots/{mine.pk}/", {"active_version": 10 ** 9}, format="json").status_code == 400


def test_lists_are_paginated(anon, ladder, make_user):
    for i in range(7):
        make_bot(make_user(), f"bot{i}")
    page = anon.get("/api/ladders/thebes-2p/leaderboard/?page_size=5").json()
    assert page["count"] == 7 and len(page["results"]) == 5 and page["next"]
    second = anon.get(page["next"]).json()
    assert [e["position"] for e in second["results"]] == [6, 7]
    entry = page["results"][0]
    assert {"elo", "mu", "sigma", "provisional", "games", "bot_name", "owner"} <= set(entry)
    assert entry["provisional"] is True
    for url in ("/api/bots/", "/api/matches/", "/api/ladders/", "/api/versions/"):
        assert "results" in anon.get(url).json(), url


def test_challenges_validation_and_quota(client_for, alice, bob, ladder, settings):
    settings.ARENA_CHALLENGES_PER_DAY = 2
    mine, theirs, also_mine = make_bot(alice, "mine"), make_bot(bob, "theirs"), make_bot(alice, "spare")
    client = client_for(alice)

    def challenge(**body):
        return client.post("/api/challenges/", {"ladder": "thebes-2p", "bot": mine.pk, "opponents": [theirs.pk],
                                                **body}, format="json")

    assert challenge(bot=theirs.pk, opponents=[mine.pk]).status_code == 403  # not my bot (as every bot action)
    assert challenge(opponents=[]).status_code == 400                        # seat count
    assert challenge(opponents=[mine.pk]).status_code == 400                 # same bot twice
    assert challenge(opponents=["x"]).status_code == 400
    assert challenge(opponents=[10 ** 9]).status_code == 400
    assert challenge(ladder="nope").status_code == 400
    first = challenge()
    assert first.status_code == 201
    body = first.json()
    assert body["kind"] == "challenge" and body["rated"] is False and body["requested_by"] == "alice"
    assert {p["bot"] for p in body["participants"]} == {mine.pk, theirs.pk}
    assert challenge(opponents=[also_mine.pk]).status_code == 201  # own bots may meet in a challenge
    over = challenge()
    assert over.status_code == 429 and "quota" in over.json()["detail"]
    assert client.get("/api/challenges/").json()["count"] == 2
    assert client_for(bob).get("/api/challenges/").json()["count"] == 0


def test_match_detail_and_missing_replay(anon, ladder, alice, bob):
    from matches.services import create_match

    a, b = make_bot(alice, "a"), make_bot(bob, "b")
    match = create_match(game="thebes", params={"players": 2}, time_control={}, ladder=ladder, queue=False,
                         versions=[a.active_version_id, b.active_version_id], seed=7)
    detail = anon.get(f"/api/matches/{match.pk}/").json()
    assert detail["status"] == "queued" and detail["seed"] is None and detail["replay_url"] is None  # unplayed
    assert [p["seat"] for p in detail["participants"]] == [0, 1]
    missing = anon.get(f"/api/matches/{match.pk}/replay/")
    assert missing.status_code == 404 and "no replay" in missing.json()["detail"]
    assert anon.get(f"/api/matches/?bot={a.pk}").json()["count"] == 1
    assert anon.get("/api/matches/?ladder=thebes-2p&status=queued").json()["count"] == 1
