"""The ladders' public datasets (datasets app, `manage.py build_datasets`): real sandboxed ladder matches, played
and recorded as a worker does, written into Parquet shards — only finished matches whose deal is public, never a
match still to be played, one that shares its seed with one, or one of a bot whose owner opted out; incremental
(a new shard for new matches, the old one untouched); the rows re-play through the engine; the site and the API
list and serve the files, and nothing else."""

from __future__ import annotations

import hashlib
import io
import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from django.core.management import call_command

from arena import replay as replays

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.sandbox]

REPO = Path(__file__).resolve().parents[3]
TC = {"decision_ms": 2000, "bank_ms": 10000, "startup_ms": 10000, "max_faults": 3}


@pytest.fixture
def ladder(db):
    from ladders.models import Ladder
    return Ladder.objects.create(slug="thebes-2p-data", name="Thebes 2p", game="thebes", players=2)


@pytest.fixture
def versions(make_user):
    from botregistry.models import Bot, BotVersion
    out = {}
    for name in ("random", "greedy", "shy"):
        bot = Bot.objects.create(owner=make_user(f"owner-{name}"), name=name, game="thebes",
                                 dataset_opt_out=name == "shy")
        v = BotVersion.objects.create(bot=bot, number=1, status=BotVersion.Status.READY, sha256=name,
                                      package_dir=str(REPO / "bots/python" / ("greedy" if name == "greedy" else "random")),
                                      runtime="python")
        bot.active_version = v
        bot.save()
        out[name] = v.pk
    return out


def play(ladder, seats, seed):
    from matches import services, tasks
    match = services.create_match(game="thebes", params={"players": 2}, time_control=TC, versions=seats,
                                  ladder=ladder, seed=seed, queue=False)
    match = services.claim(match.pk, services.worker_id())
    result, replay = tasks.play(match)
    assert services.record_result(match.pk, result, replay)
    match.refresh_from_db()
    return match


def test_public_matches_become_shards_that_replay(ladder, versions, anon):
    from datasets import shards
    from datasets.models import Shard
    from matches import services
    from matches.models import Match

    first = play(ladder, [versions["random"], versions["greedy"]], seed=11)
    second = play(ladder, [versions["greedy"], versions["random"]], seed=12)
    shy = play(ladder, [versions["shy"], versions["greedy"]], seed=13)  # its owner opted out
    # a finished match whose deal is still to be played again (same seed, queued): not public yet
    hidden = play(ladder, [versions["random"], versions["greedy"]], seed=14)
    services.create_match(game="thebes", params={"players": 2}, time_control=TC, ladder=ladder, seed=14,
                          versions=[versions["greedy"], versions["random"]], queue=False)
    queued = services.create_match(game="thebes", params={"players": 2}, time_control=TC, ladder=ladder, seed=15,
                                   versions=[versions["random"], versions["greedy"]], queue=False)

    out = io.StringIO()
    call_command("build_datasets", "--ladder", ladder.slug, "--check", "5", stdout=out)
    assert "shard 1 checked: the engine agrees" in out.getvalue()
    (shard,) = Shard.objects.filter(ladder=ladder)
    table = shards.read(shard)
    rows = table.to_pylist()
    assert {r["match_id"] for r in rows} == {first.pk, second.pk}
    assert hidden.pk not in {r["match_id"] for r in rows} and queued.pk not in {r["match_id"] for r in rows}
    assert shy.pk not in {r["match_id"] for r in rows}
    assert shard.rows == len(rows) == sum(len(replays_of(m)["decisions"]) for m in (first, second))
    # one row per decision, as the seat saw it: the action recorded, the result of every seat
    for m in (first, second):
        replay = replays_of(m)
        mine = sorted((r for r in rows if r["match_id"] == m.pk), key=lambda r: r["decision"])
        assert [r["action"] for r in mine] == [d["action"] for d in replay["decisions"]]
        assert [r["seat"] for r in mine] == [d["seat"] for d in replay["decisions"]]
        assert [r["forced"] for r in mine] == [bool(d["forced"]) for d in replay["decisions"]]
        assert mine[0]["final_ranks"] == [s["rank"] for s in replay["result"]["seats"]]
        assert mine[0]["seed"] == m.seed and mine[0]["engine_version"] == m.engine_version
        assert all(r["action_slot"] in r["legal_slots"] for r in mine)
    # reading it back: a row changed is caught by the engine re-play
    broken = table.to_pylist()
    broken[3]["obs_value"] = [v + 1 for v in broken[3]["obs_value"]]
    import pyarrow as pa
    assert shards.check(pa.Table.from_pylist(broken, schema=shards.SCHEMA), sample=5)

    # incremental: nothing new, no new shard; a new match, a new shard; the first never changes
    digest = hashlib.sha256(_download(anon, ladder, shard.file_name)).hexdigest()
    assert digest == shard.sha256
    call_command("build_datasets", "--ladder", ladder.slug, stdout=io.StringIO())
    assert Shard.objects.filter(ladder=ladder).count() == 1
    third = play(ladder, [versions["random"], versions["greedy"]], seed=16)
    call_command("build_datasets", "--ladder", ladder.slug, stdout=io.StringIO())
    assert list(Shard.objects.filter(ladder=ladder).values_list("number", "first_match", "last_match")) == [
        (1, first.pk, second.pk), (2, third.pk, third.pk)]
    assert hashlib.sha256(_download(anon, ladder, shard.file_name)).hexdigest() == digest
    assert Match.objects.get(pk=queued.pk).status == Match.Status.QUEUED

    # the API lists the shards and the schema; the site serves them, and only them
    listing = anon.get(f"/api/ladders/{ladder.slug}/datasets/").json()
    assert [s["number"] for s in listing["shards"]] == [1, 2]
    assert listing["shards"][0]["sha256"] == digest and listing["shards"][0]["rows"] == shard.rows
    schema = json.loads(_download(anon, ladder, "schema.json"))
    assert [c["name"] for c in schema["columns"]] == pq.read_table(
        io.BytesIO(_download(anon, ladder, "shard-00002.parquet"))).column_names
    for bad in ("shard-00009.parquet", "..%2F..%2Fsecret-key", "%2e%2e", "schema.json%00"):
        assert anon.get(f"/ladders/{ladder.slug}/datasets/{bad}").status_code == 404
    assert anon.get("/api/ladders/no-such-ladder/datasets/").status_code == 404
    page = anon.get(f"/ladders/{ladder.slug}/datasets/")
    assert page.status_code == 200 and b"shard-00001.parquet" in page.content


def replays_of(match):
    from arena_site import objects
    with objects.opened(match.replay_path) as f:
        return replays.load(f)


def _download(client, ladder, name) -> bytes:
    response = client.get(f"/ladders/{ladder.slug}/datasets/{name}")
    assert response.status_code == 200, response.status_code
    return b"".join(response.streaming_content)


def test_the_owner_opts_a_bot_out_through_the_api(make_user, client_for):
    from botregistry.models import Bot
    owner, other = make_user("opt-owner"), make_user("opt-other")
    bot = Bot.objects.create(owner=owner, name="mine", game="thebes")
    assert client_for(owner).patch(f"/api/bots/{bot.pk}/", {"dataset_opt_out": True}, format="json").status_code == 200
    bot.refresh_from_db()
    assert bot.dataset_opt_out
    assert client_for(other).patch(f"/api/bots/{bot.pk}/", {"dataset_opt_out": False},
                                   format="json").status_code in (403, 404)
    bot.refresh_from_db()
    assert bot.dataset_opt_out
