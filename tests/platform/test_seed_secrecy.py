"""Chance cannot be recovered, and nothing unplayed is public (issue 9).

Every match seed (ladder, challenge, tournament game, version-test pair) is 63 bits from `secrets`, one function
(`matches.seeds.new_seed`); tournament game seeds derive (HMAC) from a random per-tournament secret. A match's
seed is shown to non-staff, through the API and the web pages, only once that match and every match sharing its
seed (a duplicate set's rotations, a version-test pair's two games) are over; a tournament's secret once the
tournament has ended. Staff see them always.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import random
from datetime import timedelta

import pytest
from django.utils import timezone
from platform_helpers import make_bot

# ------------------------------------------------------------------------------------------------ fixtures

@pytest.fixture
def world(db, make_user):
    from django.contrib.auth import get_user_model

    from ladders.models import Ladder

    ladder = Ladder.objects.create(slug="thebes-2p", name="Thebes 2p", game="thebes", players=2)
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    staff = make_user("boss")
    get_user_model().objects.filter(pk=staff.pk).update(is_staff=True)
    staff.is_staff = True
    a, b, c = make_bot(alice, "a"), make_bot(bob, "b"), make_bot(carol, "c")
    return type("World", (), {"ladder": ladder, "alice": alice, "bob": bob, "carol": carol, "staff": staff, "a": a, "b": b, "c": c})


@pytest.fixture
def finish(settings, tmp_path):
    """finish(match): record a result as a worker would, with a replay file."""
    from matches.services import record_result

    def run(match):
        parts = list(match.participants.order_by("seat"))
        replay = tmp_path / f"{match.pk}.replay.json.gz"
        replay.write_bytes(gzip.compress(json.dumps({"header": {"seed": match.seed}}).encode()))
        result = {"game": match.game, "params": match.params, "seed": match.seed, "engine_version": "test",
                  "seats": [{"seat": p.seat, "name": p.bot.name, "sha256": "", "score": float(2 - p.seat),
                             "rank": p.seat + 1, "disqualified": False, "faults": [], "time_ms": 1.0,
                             "decisions": 1} for p in parts]}
        assert record_result(match.pk, result, replay_tmp=replay)
        match.refresh_from_db()
    return run


def seen_by(client_for, world, match) -> dict[str, int | None]:
    """The seed each viewer gets from the API's match detail."""
    out = {}
    for who, user in (("anonymous", None), ("owner", world.alice), ("staff", world.staff)):
        response = client_for(user).get(f"/api/matches/{match.pk}/")
        assert response.status_code == 200
        out[who] = response.json()["seed"]
    return out


def page_shows_seed(client, user, match) -> bool:
    client.logout()
    if user is not None:
        client.force_login(user)
    response = client.get(f"/matches/{match.pk}/")
    assert response.status_code == 200
    return str(match.seed) in response.content.decode()


def assert_hidden_but_from_staff(client_for, client, world, match) -> None:
    assert seen_by(client_for, world, match) == {"anonymous": None, "owner": None, "staff": match.seed}
    assert not page_shows_seed(client, None, match)
    assert not page_shows_seed(client, world.alice, match)
    assert page_shows_seed(client, world.staff, match)


def assert_public(client_for, client, world, match) -> None:
    assert seen_by(client_for, world, match) == {"anonymous": match.seed, "owner": match.seed,
                                                 "staff": match.seed}
    assert page_shows_seed(client, None, match) and page_shows_seed(client, world.alice, match)


# ------------------------------------------------------------------------------------------- where seeds come from

def test_match_seeds_are_63_bit_secrets_that_no_rng_state_reproduces(world):
    from matches.seeds import SEED_BITS
    from matches.services import create_match

    def seeds_with(rng_seed: int) -> list[int]:
        random.seed(rng_seed)  # the module's state, as reproducible as any Random's: it must not matter
        return [create_match(game="thebes", params={"players": 2}, time_control={}, queue=False,
                             versions=[world.a.active_version_id, world.b.active_version_id]).seed
                for _ in range(20)]

    saved = random.getstate()  # the global generator is put back: later tests must not inherit seed 1
    try:
        first, again = seeds_with(1), seeds_with(1)
    finally:
        random.setstate(saved)
    assert SEED_BITS >= 63
    assert all(0 <= s < 2 ** 63 for s in first + again)
    assert set(first).isdisjoint(again), "the same rng state must not give the same seeds"
    assert max(first + again) >= 2 ** 31  # the old seeds were 31-bit: 40 of them all below 2^31 has odds 2^-1280


def test_ladder_matchmaking_seeds_come_from_secrets(world):
    from matches.models import Match
    from matchmaking.services import matchmake

    ids = matchmake(rng=random.Random(7))
    assert ids
    seeds = set(Match.objects.filter(pk__in=ids).values_list("seed", flat=True))
    Match.objects.filter(pk__in=ids).update(status=Match.Status.CANCELLED)
    again = set(Match.objects.filter(pk__in=matchmake(rng=random.Random(7))).values_list("seed", flat=True))
    assert seeds and again and seeds.isdisjoint(again)


def test_every_kind_of_match_takes_its_seed_from_the_one_function(world, client_for, monkeypatch):
    """Ladder, challenge and version-test seeds all come from `matches.seeds.new_seed` (tournaments: their
    secret's default), so making it stronger or auditing it is one place."""
    import itertools

    from botregistry.models import BotVersion
    from matches import seeds
    from matches.models import Match
    from matchmaking.services import matchmake
    from tournaments.models import Tournament

    made = itertools.count(2 ** 62 + 1)
    calls = []

    def randbits(k: int) -> int:
        calls.append(k)
        return next(made)
    monkeypatch.setattr(seeds.secrets, "randbits", randbits)  # what new_seed draws from
    ladder_seeds = set(Match.objects.filter(pk__in=matchmake()).values_list("seed", flat=True))
    Match.objects.update(status=Match.Status.CANCELLED)
    challenge = client_for(world.alice).post("/api/challenges/", {"ladder": "thebes-2p", "bot": world.a.pk,
                                                                  "opponents": [world.b.pk]}, format="json")
    v2 = BotVersion.objects.create(bot=world.a, number=2, sha256="a2", package_dir="/nonexistent/a2", status="ready")
    test = client_for(world.alice).post("/api/version-tests/", {
        "version_a": world.a.active_version_id, "version_b": v2.pk, "ladder": world.ladder.pk}, format="json")
    assert challenge.status_code == 201 and test.status_code == 201
    pair_seeds = set(Match.objects.filter(kind=Match.Kind.VERSION_TEST).values_list("seed", flat=True))
    challenge_seed = Match.objects.get(pk=challenge.json()["id"]).seed
    tournament_seed = Tournament.objects.create(name="t", game="thebes", players=2, starts_at=timezone.now()).seed
    assert ladder_seeds and pair_seeds
    assert all(s > 2 ** 62 for s in {*ladder_seeds, *pair_seeds, challenge_seed, tournament_seed})
    assert set(calls) == {63}


def test_a_tournament_secret_is_random_and_its_game_seeds_need_it():
    from tournaments.models import Tournament
    from tournaments.schedule import round_robin

    a = Tournament(name="a", game="thebes", players=2, starts_at=timezone.now())
    b = Tournament(name="b", game="thebes", players=2, starts_at=timezone.now())
    assert a.seed != b.seed and a.seed != 0 and 0 <= a.seed < 2 ** 63

    rounds = round_robin(["w", "x", "y", "z"], 2, duplicate=True, seed=a.seed)
    table_seeds = [t.seed for r in rounds for t in r.tables]
    by_set = {}
    for r in rounds:
        for t in r.tables:
            by_set.setdefault(t.set_key, set()).add(t.seed)
    assert all(len(s) == 1 for s in by_set.values()), "a duplicate set replays one seed in every rotation"
    assert round_robin(["w", "x", "y", "z"], 2, duplicate=True, seed=a.seed) == rounds  # reproducible
    other = [t.seed for r in round_robin(["w", "x", "y", "z"], 2, duplicate=True, seed=b.seed) for t in r.tables]
    assert set(table_seeds).isdisjoint(other)
    # not the old public formula (sha256 of "base:set:game", 31 bits): knowing it gave every seed in advance
    old = {int.from_bytes(hashlib.sha256(f"{a.seed}:{t.set_key.rsplit('.', 1)[0]}:0".encode()).digest()[:4],
                          "big") & 0x7FFFFFFF for r in rounds for t in r.tables}
    assert old.isdisjoint(table_seeds)
    assert max(table_seeds) >= 2 ** 31


# ---------------------------------------------------------------------------------------- who sees them when

def test_ladder_match_seed_hidden_until_finished(world, client_for, client, finish):
    from matches.models import Match
    from matches.services import create_match

    match = create_match(game="thebes", params={"players": 2}, time_control={}, ladder=world.ladder, queue=False,
                         versions=[world.a.active_version_id, world.b.active_version_id])
    assert_hidden_but_from_staff(client_for, client, world, match)  # queued
    Match.objects.filter(pk=match.pk).update(status=Match.Status.RUNNING)
    match.refresh_from_db()
    assert_hidden_but_from_staff(client_for, client, world, match)  # running
    assert client_for(world.alice).get("/api/matches/?status=running").status_code == 200
    assert str(match.seed) not in client_for(world.alice).get("/api/matches/?status=running").content.decode()
    finish(match)
    assert_public(client_for, client, world, match)
    assert client_for().get(f"/api/matches/{match.pk}/replay/").status_code == 200


def test_challenge_seed_hidden_from_the_challenger_until_finished(world, client_for, client, finish):
    from matches.models import Match

    response = client_for(world.alice).post("/api/challenges/", {"ladder": "thebes-2p", "bot": world.a.pk,
                                                                 "opponents": [world.b.pk]}, format="json")
    assert response.status_code == 201
    assert response.json()["seed"] is None, "the challenge's answer must not carry the seed"
    match = Match.objects.get(pk=response.json()["id"])
    assert_hidden_but_from_staff(client_for, client, world, match)
    listed = client_for(world.alice).get("/api/challenges/").content.decode()
    assert str(match.seed) not in listed
    finish(match)
    assert_public(client_for, client, world, match)


def test_tournament_duplicate_set_seed_and_secret_hidden_until_every_rotation_is_over(world, client_for, client,
                                                                                       finish):
    from tournaments import services
    from tournaments.models import Entry, Game, Tournament

    t = Tournament.objects.create(name="Cup", game="thebes", players=2, duplicate=True,
                                  starts_at=timezone.now() - timedelta(seconds=1))
    for bot in (world.a, world.b):
        Entry.objects.create(tournament=t, bot=bot)
    assert services.start(t.pk)
    games = list(Game.objects.filter(round__tournament=t).select_related("match").order_by("table"))
    assert len(games) == 2 and games[0].seed == games[1].seed, "one duplicate set: two rotations, one seed"
    first, second = games[0].match, games[1].match

    def api_view(user):
        data = client_for(user).get(f"/api/tournaments/{t.pk}/").json()
        return data["seed"], [g["seed"] for r in data["rounds"] for g in r["games"]]

    t.refresh_from_db()
    assert api_view(None) == (None, [None, None]) and api_view(world.alice) == (None, [None, None])
    assert api_view(world.staff) == (t.seed, [games[0].seed] * 2)
    assert str(t.seed) not in client_for().get("/api/tournaments/").content.decode()
    assert_hidden_but_from_staff(client_for, client, world, first)

    finish(first)  # the other rotation still plays the same deal: nothing of it may show
    assert_hidden_but_from_staff(client_for, client, world, first)
    assert client_for(world.alice).get(f"/api/matches/{first.pk}/replay/").status_code == 403
    client.logout()
    assert client.get(f"/matches/{first.pk}/replay.json.gz").status_code == 403
    assert client.get(f"/matches/{first.pk}/frames.json").status_code == 403
    assert client_for(world.staff).get(f"/api/matches/{first.pk}/replay/").status_code == 200
    assert api_view(None)[1] == [None, None]

    finish(second)
    assert_public(client_for, client, world, first)
    assert_public(client_for, client, world, second)
    services.advance(t.pk)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    assert api_view(None) == (t.seed, [games[0].seed] * 2)


def test_version_test_pair_seed_hidden_until_both_games_are_over(world, client_for, client, finish):
    from botregistry.models import BotVersion
    from matches.models import Match

    v2 = BotVersion.objects.create(bot=world.a, number=2, sha256="a2", package_dir="/nonexistent/a2", status="ready")
    response = client_for(world.alice).post("/api/version-tests/", {
        "version_a": world.a.active_version_id, "version_b": v2.pk, "ladder": world.ladder.pk}, format="json")
    assert response.status_code == 201, response.content
    test_id = response.json()["id"]

    def pair_seeds(user):
        return [p["seed"] for p in client_for(user).get(f"/api/version-tests/{test_id}/").json()["pair_list"]]

    assert set(pair_seeds(None)) == {None} and set(pair_seeds(world.alice)) == {None}
    assert None not in pair_seeds(world.staff)
    from versiontests.models import Pair
    pair = Pair.objects.filter(test_id=test_id).select_related("match_a", "match_b").first()
    a, b = pair.match_a, pair.match_b
    assert a.seed == b.seed == pair.seed and a.kind == Match.Kind.VERSION_TEST
    assert_hidden_but_from_staff(client_for, client, world, a)
    finish(a)
    assert_hidden_but_from_staff(client_for, client, world, a)  # B still plays the same deal
    assert client_for(world.alice).get(f"/api/matches/{a.pk}/replay/").status_code == 403
    finish(b)
    assert_public(client_for, client, world, a)
    assert pair.seed in pair_seeds(None)


def test_fault_messages_wait_for_the_deal_like_the_seed(world, client_for, client, finish):
    """A fault's message can quote a bot's answer (and so its cards): while another match still plays the same
    deal, only the faulted seat's owner and staff read it, through the API and the match page; kinds and turns
    are shown to all. Once the deal is over, everyone reads it."""
    from matches.models import Participant
    from matches.services import create_match

    versions = [world.a.active_version_id, world.b.active_version_id]
    first, sibling = (create_match(game="thebes", params={"players": 2}, time_control={}, versions=versions,
                                   seed=4242, queue=False) for _ in range(2))
    finish(first)
    secret = "answered 'take R12' while holding R40"
    Participant.objects.filter(match=first, bot=world.b).update(
        faults=[{"kind": "illegal", "decision": 6, "message": secret}])

    def seen(user) -> tuple[str, int]:
        seats = client_for(user).get(f"/api/matches/{first.pk}/").json()["participants"]
        fault = next(p for p in seats if p["bot"] == world.b.pk)["faults"][0]
        return fault["message"], fault["turn"]

    def page(user) -> str:
        web = client_for(user) if user else client
        if user is not None:
            web.force_login(user)
        return web.get(f"/matches/{first.pk}/").content.decode()

    for user in (None, world.alice, world.carol):
        message, turn = seen(user)
        assert secret not in message and turn == 7
        assert secret not in page(user) and 'data-fault-turn="7"' in page(user)
    for user in (world.bob, world.staff):
        assert seen(user) == (secret, 7)
        assert secret.replace("'", "&#x27;") in page(user)
    finish(sibling)
    assert seen(None) == (secret, 7)
