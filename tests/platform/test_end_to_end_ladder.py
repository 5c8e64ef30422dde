"""End to end on real parts: two owners upload bots through the API, a real Celery worker validates them in
the sandbox, the ladder plays real sandboxed matches, and the leaderboard API shows the ratings."""

import gzip
import json

import pytest
from platform_helpers import bot_files, upload, wait_for, zip_bytes

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.sandbox, pytest.mark.timeout(180)]


def test_upload_validate_play_and_rank(celery_worker, client_for, make_user, anon):
    from ladders.models import Ladder
    from matchmaking.tasks import matchmake

    Ladder.objects.create(slug="thebes-2p", name="Thebes 2p", game="thebes", players=2)
    versions = []
    for owner_name in ("alice", "bob"):
        client = client_for(make_user(owner_name))
        bot = client.post("/api/bots/", {"name": f"{owner_name}-bot", "game": "thebes"}, format="json").json()
        response = upload(client, bot["id"], zip_bytes(bot_files(name=f"{owner_name}-bot")))
        assert response.status_code == 201, response.content
        versions.append((client, response.json()["id"]))

    def validated():
        states = [c.get(f"/api/versions/{vid}/").json() for c, vid in versions]
        return states if all(s["status"] not in ("pending", "validating") for s in states) else None

    states = wait_for(validated, 90, 0.5, "validation")
    for state in states:
        assert state["status"] == "ready", state
        assert "smoke match" in state["validation_log"]

    # What Celery beat does every few seconds, sent the same way: the worker runs matchmaking and matches.
    def played_enough():
        board = anon.get("/api/ladders/thebes-2p/leaderboard/").json()["results"]
        if len(board) == 2 and all(e["games"] >= 3 for e in board):
            return board
        matchmake.delay()
        return None

    board = wait_for(played_enough, 120, 1.0, "three ladder games each")
    assert {e["bot_name"] for e in board} == {"alice-bot", "bob-bot"}
    assert sum(e["elo"] for e in board) == pytest.approx(3000.0, abs=0.2)  # 2p Elo is zero-sum
    # the board is ordered by the fitted rating (refitted by beat; the incremental Elo may order the two otherwise)
    assert board[0]["rating"] >= board[1]["rating"] and board[0]["position"] == 1
    assert all(e["provisional"] and e["sigma"] < 25 / 3 for e in board)

    finished = anon.get("/api/matches/?ladder=thebes-2p&status=finished").json()
    assert finished["count"] >= 3
    detail = anon.get(f"/api/matches/{finished['results'][0]['id']}/").json()
    assert detail["attempts"] == 1 and detail["rated"] and detail["engine_version"]
    seats = detail["participants"]
    assert sorted(p["rank"] for p in seats) in ([1, 2], [1, 1])
    assert all(p["elo_before"] is not None and p["elo_after"] is not None for p in seats)
    assert seats[0]["elo_change"] == pytest.approx(-seats[1]["elo_change"])
    replay = anon.get(detail["replay_url"])
    assert replay.status_code == 200
    data = json.loads(gzip.decompress(b"".join(replay.streaming_content)))
    assert data["format"] == "arena-replay" and data["header"]["seed"] == detail["seed"]
    assert [s["sha256"] for s in data["header"]["seats"]] == [s["sha256"] for s in data["result"]["seats"]]


def test_a_broken_upload_fails_validation_with_a_reason(celery_worker, client_for, make_user):
    client = client_for(make_user("carol"))
    bot = client.post("/api/bots/", {"name": "broken", "game": "thebes"}, format="json").json()
    files = bot_files(name="broken")
    files["bot.py"] = b"raise SystemExit('I forgot to write my bot')\n"
    version = upload(client, bot["id"], zip_bytes(files)).json()

    state = wait_for(lambda: (s := client.get(f"/api/versions/{version['id']}/").json())["status"]
                     not in ("pending", "validating") and s, 60, 0.5, "validation")
    assert state["status"] == "failed"
    assert state["status_reason"]  # in words, e.g. that the bot exited before serving
    assert "I forgot" not in state["status_reason"] and "\n" not in state["status_reason"]  # its output: the log
    assert "I forgot to write my bot" in state["validation_log"]
    detail = client.get(f"/api/bots/{bot['id']}/").json()
    assert detail["active_version"] is None and "no ready version" in detail["status"]
