"""Who uploaded each version of a bot (`BotVersion.uploaded_by`): recorded on the upload, shown on the bot page
and in the API (a deleted account as "deleted account"), and listed in the uploader's export when the bot is a
team's; /me/ and the bot page offer no upload to a retired bot."""

from __future__ import annotations

import json

import pytest
from platform_helpers import bot_files, upload, zip_bytes

pytestmark = pytest.mark.django_db


@pytest.fixture
def uploads(world, client_for, settings):
    """bob's then alice's upload to the team's bot, through the API."""
    settings.ARENA_SANDBOX = "worker"  # uploads accepted without probing the sandbox here
    by_bob = upload(client_for(world.bob), world.bot.pk, zip_bytes(bot_files(name="red-bot")))
    other = {**bot_files(name="red-bot"), "notes.txt": b"another package"}
    by_alice = upload(client_for(world.alice), world.bot.pk, zip_bytes(other))
    assert by_bob.status_code == 201, by_bob.content
    assert by_alice.status_code == 201, by_alice.content
    return by_bob.json(), by_alice.json()


def test_each_upload_records_who_made_it_and_the_api_shows_it(world, client_for, uploads):
    from botregistry.models import BotVersion

    bob_v, alice_v = uploads
    assert (bob_v["uploaded_by"], alice_v["uploaded_by"]) == ("bob", "alice")
    assert BotVersion.objects.get(pk=bob_v["id"]).uploaded_by == world.bob
    listed = client_for(world.eve).get(f"/api/bots/{world.bot.pk}/versions/").json()["results"]
    assert {v["number"]: v["uploaded_by"] for v in listed} == {bob_v["number"]: "bob", alice_v["number"]: "alice",
                                                               1: None}
    assert client_for().get(f"/api/versions/{bob_v['id']}/").json()["uploaded_by"] == "bob"


def test_the_bot_page_names_the_uploader_and_a_deleted_one_as_deleted_account(world, client, uploads):
    from accounts.deletion import delete_account

    page = client.get(f"/bots/{world.bot.pk}/").content.decode()
    assert 'href="/users/bob/"' in page and 'href="/users/alice/"' in page
    delete_account(world.bob)
    page = client.get(f"/bots/{world.bot.pk}/").content.decode()
    assert "/users/bob/" not in page and ">bob<" not in page
    assert "deleted account" in page
    assert client.get(f"/api/versions/{uploads[0]['id']}/").json()["uploaded_by"] == "deleted account"


def test_an_export_lists_the_versions_one_uploaded_to_team_bots(world, client_for, uploads):
    bob_v, alice_v = uploads
    doc = json.loads(b"".join(client_for(world.bob).get("/api/auth/me/export/").streaming_content))
    got = doc["team_uploads"]
    assert [(u["team"], u["bot"], u["bot_name"], u["number"]) for u in got] == [
        ("red-team", world.bot.pk, "red-bot", bob_v["number"])]
    assert "validation_log" not in got[0] and got[0]["sha256"] == bob_v["sha256"]
    assert doc["bots"] == []  # the team's bot stays the team's
    alice_doc = json.loads(b"".join(client_for(world.alice).get("/api/auth/me/export/").streaming_content))
    assert [u["number"] for u in alice_doc["team_uploads"]] == [alice_v["number"]]
    # the team moves the bot to alice: bob's upload is still his to export; alice's is now in her own bots
    moved = client_for(world.alice).post(f"/api/bots/{world.bot.pk}/transfer/", {"user": "alice"}, format="json")
    assert moved.status_code == 200, moved.content
    doc = json.loads(b"".join(client_for(world.bob).get("/api/auth/me/export/").streaming_content))
    assert [(u["team"], u["number"]) for u in doc["team_uploads"]] == [(None, bob_v["number"])]
    alice_doc = json.loads(b"".join(client_for(world.alice).get("/api/auth/me/export/").streaming_content))
    assert alice_doc["team_uploads"] == [] and alice_doc["bots"][0]["id"] == world.bot.pk


@pytest.mark.django_db(transaction=True)
def test_the_migration_gives_earlier_versions_their_bots_owner(make_user):
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    before = [("botregistry", "0008_version_package_hash")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    owner = old.get_model("auth", "User").objects.create(username="maker")
    bot = old.get_model("botregistry", "Bot").objects.create(owner=owner, name="old-bot", game="thebes")
    old.get_model("botregistry", "BotVersion").objects.create(bot=bot, number=1, sha256="x")
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())  # every app back to its latest (later ones included)
    from botregistry.models import BotVersion

    assert BotVersion.objects.get(bot_id=bot.pk).uploaded_by_id == owner.pk


def test_a_retired_team_bot_offers_no_upload_on_me_or_its_page(world, client, settings):
    from django.utils import timezone

    client.force_login(world.bob)
    assert f'data-upload="/api/bots/{world.bot.pk}/versions/"' in client.get("/me/").content.decode()
    world.bot.retired_at = timezone.now()  # staff retired it
    world.bot.save(update_fields=["retired_at"])
    me = client.get("/me/").content.decode()
    assert f'data-upload="/api/bots/{world.bot.pk}/versions/"' not in me
    assert "Retired" in me and "staff retired it" in me
    page = client.get(f"/bots/{world.bot.pk}/").content.decode()
    assert "data-upload" not in page and "staff retired it" in page
    assert "its owner deleted their account" not in page
