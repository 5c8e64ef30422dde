"""A whole competition on real parts: PostgreSQL, Redis, a real Celery worker validating uploads and playing
sandboxed matches, and a real Celery beat running the clock. The clock is compressed by the organizer moving the
deadline and the final close to now (through the API) once the entrants are ready, so nothing here depends on
how fast the machine is.

Entries open → three entrants (alice, bob, and the team Blue entered by its member dave) upload and enter → the
competition's own ladder plays → the deadline locks each entry's version → alice's upload after it becomes her
bot's active version but does not enter → the final starts by itself and plays the locked versions → the result
is held (organizer only), then published → the CSV and JSON downloads match the standings → the archive renders.
The competition is private until the end: an outsider sees none of its matches or replays until it is public."""

from __future__ import annotations

import csv
import gzip
import io
import json
import os
import subprocess
import sys
from datetime import timedelta

import pytest
from django.utils import timezone
from platform_helpers import PLATFORM, bot_files, upload, wait_for, zip_bytes

pytestmark = [pytest.mark.slow, pytest.mark.sandbox, pytest.mark.django_db(transaction=True),
              pytest.mark.timeout(600)]


@pytest.fixture
def beat(celery_worker, tmp_path):
    """`celery beat` on the worker's environment: competitions and tournaments ticking every second, ladder
    matchmaking every two."""
    env = {**celery_worker.env, "ARENA_COMPETITION_TICK_EVERY": "1", "ARENA_TOURNAMENT_TICK_EVERY": "1",
           "ARENA_MATCHMAKE_EVERY": "2", "ARENA_RECOVER_EVERY": "3600", "ARENA_REFIT_EVERY": "5"}
    log = open(tmp_path / "beat.log", "wb")
    proc = subprocess.Popen([sys.executable, "-m", "celery", "-A", "arena_site", "beat", "--loglevel=INFO",
                             "-s", str(tmp_path / "beat-schedule")],
                            cwd=PLATFORM, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    yield proc
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, 9)
        proc.wait()


def _ready(client, version_id: int, what: str) -> dict:
    state = wait_for(lambda: (s := client.get(f"/api/versions/{version_id}/").json())["status"]
                     not in ("pending", "validating") and s, 180, 0.5, what)
    assert state["status"] == "ready", state
    return state


def _bytes(response) -> bytes:
    return b"".join(response.streaming_content) if getattr(response, "streaming", False) else response.content


def test_a_whole_competition(celery_worker, beat, client_for, make_user):
    from competitions.models import Competition, Entry, Organizer
    from matches.models import Match
    from teams import services as teams

    olga, alice, bob, carol, dave, eve = (make_user(n) for n in ("olga", "alice", "bob", "carol", "dave", "eve"))
    Organizer.objects.create(user=olga)
    team = teams.create_team(carol, "Blue")
    teams.accept(teams.invite_user(team, carol, "dave"), dave)
    org, anon, outsider = client_for(olga), client_for(), client_for(eve)

    now = timezone.now()
    r = org.post("/api/competitions/", {
        "slug": "e2e-cup", "title": "E2E Cup", "game": "thebes", "players": 2, "private": True, "policy": "link",
        "rules": "Play **fair**.", "decision_ms": 2000, "bank_ms": 20000,
        "entries_open_at": (now - timedelta(seconds=1)).isoformat(),
        "deadline": (now + timedelta(hours=1)).isoformat(), "final_at": (now + timedelta(hours=2)).isoformat(),
        "final_format": "round_robin"}, format="json")
    assert r.status_code == 201, r.content
    slug = "e2e-cup"
    key = org.post(f"/api/competitions/{slug}/invite-link/").json()["key"]

    # three entrants upload a bot each (the team's by its member dave) and enter it
    clients = {}
    for user, name, team_slug in ((alice, "alice-bot", None), (bob, "bob-bot", None), (dave, "blue-bot", team.slug)):
        client = client_for(user)
        body = {"name": name, "game": "thebes"}
        bot = client.post("/api/bots/", body, format="json").json()
        if team_slug:
            assert client.post(f"/api/bots/{bot['id']}/transfer/", {"team": team_slug},
                               format="json").status_code == 200
        version = upload(client, bot["id"], zip_bytes(bot_files(name=name)))
        assert version.status_code == 201, version.content
        clients[name] = (client, bot["id"], version.json()["id"])
    for name, (client, _, vid) in clients.items():
        _ready(client, vid, f"{name}'s validation")
    for client, bot_id, _ in clients.values():
        r = client.post(f"/api/competitions/{slug}/enter/", {"bot": bot_id, "key": key}, format="json")
        assert r.status_code == 201, r.content
    c = Competition.objects.get(slug=slug)

    # entries are open: the competition's own ladder plays its entries (beat's matchmaking)
    wait_for(lambda: Match.objects.filter(ladder=c.ladder, status="finished").count() >= 2, 240, 1.0,
             "two games on the competition's ladder")
    played = Match.objects.filter(ladder=c.ladder, status="finished").first()
    entrant = client_for(alice)
    assert entrant.get(f"/api/matches/{played.pk}/replay/").status_code == 200
    assert outsider.get(f"/api/matches/{played.pk}/replay/").status_code == 404  # private: as if it did not exist
    assert anon.get(f"/matches/{played.pk}/").status_code == 404

    # the clock compressed: the deadline now, the final a few seconds later
    now = timezone.now()
    r = org.patch(f"/api/competitions/{slug}/", {"deadline": (now + timedelta(seconds=2)).isoformat(),
                                                  "final_at": (now + timedelta(seconds=4)).isoformat()},
                  format="json")
    assert r.status_code == 200, r.content
    wait_for(lambda: Competition.objects.get(slug=slug).locked_at is not None, 60, 0.5, "the deadline's lock")
    locked = dict(Entry.objects.filter(competition=c).values_list("bot_id", "locked_version_id"))
    assert locked == {bot_id: vid for _, bot_id, vid in clients.values()}

    # alice uploads after the deadline: it becomes her bot's active version, it does not enter
    a_client, a_bot, a_v1 = clients["alice-bot"]
    files = bot_files(name="alice-bot")
    files["NOTES.txt"] = b"version 2, after the deadline\n"  # another package than v1
    late = upload(a_client, a_bot, zip_bytes(files))
    assert late.status_code == 201, late.content
    assert a_client.post(f"/api/competitions/{slug}/enter/", {"bot": a_bot, "key": key},
                         format="json").status_code == 409

    # the final starts by itself and runs on the worker
    wait_for(lambda: Competition.objects.get(slug=slug).final_id is not None, 60, 0.5, "the final's start")
    try:
        wait_for(lambda: Competition.objects.get(slug=slug).result is not None, 300, 1.0, "the final's end")
    except AssertionError:
        print(celery_worker.log_text()[-4000:])
        raise
    _ready(a_client, late.json()["id"], "the late upload's validation")
    c.refresh_from_db()
    finals = list(Match.objects.filter(tournament_game__round__tournament=c.final))
    assert len(finals) == 3 and all(m.status == "finished" and m.replay_path for m in finals)
    seated = {p.bot_id: p.version_id for m in finals for p in m.participants.all()}
    assert seated == locked and late.json()["id"] not in seated.values()  # the late upload never played

    # held: the organizer sees the result, the entrants not yet
    assert entrant.get(f"/api/competitions/{slug}/results/").status_code == 403
    held = org.get(f"/api/competitions/{slug}/results/").json()["standings"]
    assert len(held) == 3
    assert org.post(f"/api/competitions/{slug}/publish/").status_code == 200
    assert org.patch(f"/api/competitions/{slug}/", {"private": False}, format="json").status_code == 200

    doc = anon.get(f"/api/competitions/{slug}/results/").json()
    rows = doc["standings"]
    assert rows == held and [r["rank"] for r in rows] == [1, 2, 3]
    assert sum(r["points"] for r in rows) == pytest.approx(3.0)  # three 2-player games, a point each
    assert {r["bot"]: r["version"] for r in rows} == {"alice-bot": 1, "bob-bot": 1, "blue-bot": 1}
    assert next(r for r in rows if r["bot"] == "blue-bot")["team"] is True
    table = list(csv.DictReader(io.StringIO(anon.get(f"/competitions/{slug}/results.csv").content.decode())))
    assert [(int(t["rank"]), t["bot"], float(t["points"]), int(t["version"])) for t in table] == \
        [(r["rank"], r["bot"], r["points"], r["version"]) for r in rows]
    assert json.loads(anon.get(f"/competitions/{slug}/results.json").content)["standings"] == rows
    page = anon.get(f"/competitions/{slug}/archive/").content.decode()
    assert "Final standings" in page and "Cross-table" in page
    assert all(f"/matches/{m.pk}/" in page for m in finals)
    replay = anon.get(f"/api/matches/{finals[0].pk}/replay/")
    assert replay.status_code == 200
    data = json.loads(gzip.decompress(_bytes(replay)))
    assert data["header"]["seed"] == finals[0].seed
    assert anon.get(f"/matches/{played.pk}/").status_code == 200  # public now: the ladder's matches too
