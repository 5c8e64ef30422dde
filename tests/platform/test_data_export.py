"""Exporting one's own data (`GET /api/auth/me/export/`, api.export): exactly the person's own things and the
public facts of their bots' matches, nothing private of anyone else; streamed, with bounded queries however many
matches there are; only for the signed-in person."""

from __future__ import annotations

import json

import pytest
from django.utils import timezone
from platform_helpers import make_bot


@pytest.fixture
def ladder(db, settings, tmp_path):
    from ladders.models import Ladder

    settings.STORAGE_DIR = tmp_path / "storage"
    return Ladder.objects.create(slug="thebes-2p", name="Thebes 2p", game="thebes", players=2)


@pytest.fixture
def world(ladder, make_user):
    """alice's bot alpha (a failed version with a private log) and bob's beta (private email, private log, fault
    messages): a finished match between them with a replay, one whose seed a queued match still shares, a queued
    one, and a match between bob and carol alone."""
    from botregistry.models import BotVersion
    from matches.models import Match, Participant

    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    alice.email, bob.email = "alice@example.org", "bob-private@example.org"
    alice.save()
    bob.save()
    alpha, beta, gamma = make_bot(alice, "alpha"), make_bot(bob, "beta"), make_bot(carol, "gamma")
    BotVersion.objects.create(bot=alpha, number=2, sha256="b" * 64, package_dir="x", status="failed",
                              status_reason="the build failed", validation_log="ALICE-PRIVATE-LOG")
    BotVersion.objects.filter(bot=beta).update(validation_log="BOB-PRIVATE-LOG")
    now = timezone.now()

    def match(seed, status, bots, replay=False, faults=None):
        m = Match.objects.create(kind=Match.Kind.LADDER, ladder=ladder, game="thebes", params={"players": 2},
                                 seed=seed, status=status, finished_at=now if status == "finished" else None,
                                 replay_path=f"replays/0000/{seed}.replay.json.gz" if replay else "")
        for seat, b in enumerate(bots):
            Participant.objects.create(match=m, seat=seat, bot=b, version=b.active_version,
                                       score=10 - seat if status == "finished" else None,
                                       rank=seat + 1 if status == "finished" else None,
                                       faults=(faults or {}).get(seat, []))
        return m
    bob_fault = [{"kind": "timeout", "message": "BOB-FAULT-MESSAGE", "decision": 3}]
    alice_fault = [{"kind": "crash", "message": "alice's own crash", "decision": 1}]
    return {
        "alice": alice, "bob": bob, "carol": carol, "alpha": alpha, "beta": beta,
        "public": match(1001, "finished", [alpha, beta], replay=True, faults={0: alice_fault, 1: bob_fault}),
        "shared": match(2002, "finished", [beta, alpha], replay=True),  # its deal is still to be played ...
        "pending_twin": match(2002, "queued", [gamma, beta]),              # ... here
        "queued": match(3003, "queued", [alpha, beta]),
        "others": match(4004, "finished", [beta, gamma], replay=True),
    }


def export_of(client) -> dict:
    response = client.get("/api/auth/me/export/")
    assert response.status_code == 200, response.content
    assert response["Content-Type"] == "application/json" and "attachment" in response["Content-Disposition"]
    return json.loads(b"".join(response.streaming_content))


def test_export_holds_exactly_ones_own_things(world, client_for):
    data = export_of(client_for(world["alice"]))
    assert data["format"] == "arena-export-1"
    assert data["account"]["username"] == "alice" and data["account"]["email"] == "alice@example.org"
    assert [b["name"] for b in data["bots"]] == ["alpha"]
    versions = data["bots"][0]["versions"]
    assert [(v["number"], v["status"], v["status_reason"]) for v in versions] == [
        (1, "ready", ""), (2, "failed", "the build failed")]
    assert data["bots"][0]["ratings"][0]["ladder"] == "thebes-2p"
    # the matches her bot sat in, newest first; not bob and carol's match
    ids = [m["id"] for m in data["matches"]]
    assert sorted(ids) == sorted([world["public"].pk, world["shared"].pk, world["queued"].pk])
    by_id = {m["id"]: m for m in data["matches"]}
    public = by_id[world["public"].pk]
    assert public["seed"] == 1001 and public["replay_url"].endswith(f"/api/matches/{world['public'].pk}/replay/")
    seats = {s["bot_name"]: s for s in public["seats"]}
    assert seats["alpha"]["mine"] and seats["alpha"]["owner"] == "alice"
    assert seats["alpha"]["faults"] == [{"kind": "crash", "message": "alice's own crash", "decision": 1}]
    assert not seats["beta"]["mine"] and seats["beta"]["owner"] == "bob" and seats["beta"]["faults"] is None
    assert (seats["beta"]["rank"], seats["beta"]["score"]) == (2, 9.0)  # public facts of the result
    # a deal still to be played elsewhere and an unplayed match: no seed, no replay
    for key in ("shared", "queued"):
        assert by_id[world[key].pk]["seed"] is None and by_id[world[key].pk]["replay_url"] is None
    text = json.dumps(data)
    for secret in ("bob-private@example.org", "BOB-PRIVATE-LOG", "BOB-FAULT-MESSAGE", "ALICE-PRIVATE-LOG",
                   "2002", "3003", "4004", "carol", "gamma"):
        assert secret not in text, secret


def test_export_is_only_for_oneself(world, client_for, anon):
    """Both ways: anonymous gets 401; each person gets their own export whatever they ask for."""
    assert anon.get("/api/auth/me/export/").status_code == 401
    assert export_of(client_for(world["alice"]))["account"]["username"] == "alice"
    bobs = client_for(world["bob"]).get(f"/api/auth/me/export/?user={world['alice'].pk}")
    data = json.loads(b"".join(bobs.streaming_content))
    assert data["account"]["username"] == "bob" and "alice@example.org" not in json.dumps(data)
    assert [b["name"] for b in data["bots"]] == ["beta"]


def test_export_of_a_deleted_persons_opponent_shows_deleted_account(world, client_for):
    assert client_for(world["alice"]).delete("/api/auth/me/", {"password": "pw-123456789"},
                                             format="json").status_code == 204
    data = export_of(client_for(world["bob"]))
    seats = {s["bot_name"]: s for m in data["matches"] if m["id"] == world["public"].pk for s in m["seats"]}
    assert seats["alpha"]["owner"] == "deleted account" and "alice" not in json.dumps(data)


def test_large_export_streams_with_bounded_queries(world, client_for, django_assert_max_num_queries):
    from matches.models import Match, Participant

    n = 1200
    alpha, beta = world["alpha"], world["beta"]
    matches = Match.objects.bulk_create(
        Match(kind=Match.Kind.LADDER, ladder=world["public"].ladder, game="thebes", params={"players": 2},
              seed=10_000 + i, status="finished", finished_at=timezone.now()) for i in range(n))
    Participant.objects.bulk_create(
        Participant(match=m, seat=seat, bot=b, version=b.active_version, score=seat, rank=2 - seat)
        for m in matches for seat, b in enumerate([alpha, beta]))
    client = client_for(world["alice"])
    with django_assert_max_num_queries(40):  # a few per chunk of 500 matches, not per match
        response = client.get("/api/auth/me/export/")
        chunks = list(response.streaming_content)
    assert len(chunks) > n  # streamed match by match, not built whole
    data = json.loads(b"".join(chunks))
    assert len(data["matches"]) == n + 3
    assert len({m["id"] for m in data["matches"]}) == n + 3


def test_streamed_fields_are_the_documented_ones(world, client_for):
    """The matches are written by hand for speed (api.export.match_item): their keys must be the schema's."""
    from api.export import ExportMatchSerializer, ExportSeatSerializer

    data = export_of(client_for(world["alice"]))
    for match in data["matches"]:
        assert list(match) == ExportMatchSerializer.Meta.fields
        for seat in match["seats"]:
            assert list(seat) == ExportSeatSerializer.Meta.fields
    public = next(m for m in data["matches"] if m["id"] == world["public"].pk)
    assert public["created_at"].endswith("Z") and public["ladder"] == "thebes-2p"  # as the rest of the API writes


def test_export_is_in_the_schema(world, anon):
    schema = anon.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    assert "get" in schema["paths"]["/api/auth/me/export/"]
    assert "delete" in schema["paths"]["/api/auth/me/"]
    ref = schema["paths"]["/api/auth/me/export/"]["get"]["responses"]["200"]["content"]["application/json"]
    assert ref["schema"]["$ref"].endswith("/Export")
    assert {"account", "bots", "matches"} <= set(schema["components"]["schemas"]["Export"]["properties"])
