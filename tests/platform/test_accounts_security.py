"""Accounts and rate limits (issue 9): hashed API tokens, throttles keyed on the real client address, log-in
lock-out on the API, the web form and the admin, per-user and per-address limits on sign-ups, uploads,
challenges and version tests, and bot names that can't pass for the house's or staff's."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from platform_helpers import bot_files, make_bot, upload, zip_bytes

UNLIMITED = "100000/hour"


@pytest.fixture
def rates(settings):
    """rates(**{"signup.address": "2/hour"}): set throttle rates for this test (all others unlimited)."""
    cache.clear()

    def set_rates(**overrides):
        cache.clear()  # counters of the previous rates
        base = dict.fromkeys(settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], UNLIMITED)
        settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {**base, **overrides}}
    yield set_rates
    cache.clear()


def signup(client, name: str, **extra):
    return client.post("/api/auth/signup/", {"username": name, "password": "long-enough-pw-1",
                                             "email": f"{name}@example.org"}, format="json", **extra)


# ----------------------------------------------------------------------------------------------------- tokens

def test_tokens_are_stored_hashed_and_a_copy_of_the_database_gives_no_access(anon, client_for, db):
    from accounts.models import ApiToken

    key = signup(anon, "carol").json()["token"]
    rows = list(ApiToken.objects.values())
    assert len(rows) == 1
    assert all(key not in str(value) for row in rows for value in row.values()), "the key itself is not stored"
    stolen = client_for()
    for guess in (rows[0]["digest"], rows[0]["prefix"]):  # what a copy of the database holds
        stolen.credentials(HTTP_AUTHORIZATION=f"Token {guess}")
        assert stolen.get("/api/auth/me/").status_code == 401
    stolen.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert stolen.get("/api/auth/me/").json()["username"] == "carol"


def test_replacing_the_token_on_the_owner_page_revokes_the_old_ones(client, make_user, client_for):
    user = make_user("dora")
    old = client_for(user)
    assert old.get("/api/auth/me/").status_code == 200
    client.force_login(user)
    client.post("/me/", {"action": "new-token"})
    assert old.get("/api/auth/me/").status_code == 401
    page = client.get("/me/").content.decode()
    import re
    key = re.search(r'class="token">([0-9a-f]+)<', page).group(1)
    fresh = client_for()
    fresh.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert fresh.get("/api/auth/me/").json()["username"] == "dora"


# ------------------------------------------------------------------------------------ the real client address

def test_client_ip_believes_forwarded_for_only_from_a_trusted_proxy(settings):
    from django.test import RequestFactory

    from accounts.client_ip import client_ip

    rf = RequestFactory()
    spoofed = rf.get("/", REMOTE_ADDR="203.0.113.9", HTTP_X_FORWARDED_FOR="198.51.100.1")
    settings.ARENA_TRUSTED_PROXIES = []
    assert client_ip(spoofed) == "203.0.113.9"
    settings.ARENA_TRUSTED_PROXIES = ["10.0.0.0/8"]
    assert client_ip(spoofed) == "203.0.113.9", "a client outside the proxies can't choose its address"
    via_proxy = rf.get("/", REMOTE_ADDR="10.1.2.3", HTTP_X_FORWARDED_FOR="1.1.1.1, 198.51.100.7, 10.9.9.9")
    assert client_ip(via_proxy) == "198.51.100.7", "right-most address not ours; the left part is the client's"
    garbage = rf.get("/", REMOTE_ADDR="10.1.2.3", HTTP_X_FORWARDED_FOR="not-an-address")
    assert client_ip(garbage) == "10.1.2.3"


def test_spoofed_forwarded_for_does_not_escape_the_signup_throttle(anon, rates, db):
    rates(**{"signup.address": "2/hour"})
    assert signup(anon, "user1", HTTP_X_FORWARDED_FOR="198.51.100.1").status_code == 201
    assert signup(anon, "user2", HTTP_X_FORWARDED_FOR="198.51.100.2").status_code == 201
    refused = signup(anon, "user3", HTTP_X_FORWARDED_FOR="198.51.100.3")
    assert refused.status_code == 429 and "throttled" in refused.json()["detail"].lower()


def test_forwarded_for_is_honoured_from_the_trusted_proxy(anon, rates, settings, db):
    rates(**{"signup.address": "1/hour"})
    settings.ARENA_TRUSTED_PROXIES = ["127.0.0.1"]  # the test client's REMOTE_ADDR
    assert signup(anon, "proxied1", HTTP_X_FORWARDED_FOR="198.51.100.1").status_code == 201
    assert signup(anon, "proxied2", HTTP_X_FORWARDED_FOR="198.51.100.2").status_code == 201  # another client
    assert signup(anon, "proxied3", HTTP_X_FORWARDED_FOR="198.51.100.1").status_code == 429  # the first one again
    # a client behind the proxy prepending addresses is still itself
    assert signup(anon, "proxied4", HTTP_X_FORWARDED_FOR="9.9.9.9, 198.51.100.2").status_code == 429


def test_the_web_signup_form_is_limited_per_address(client, rates, db):
    rates(**{"signup.address": "1/hour"})
    form = {"username": "webby", "email": "webby@example.org", "password1": "a-Long-pass-123",
            "password2": "a-Long-pass-123"}
    assert client.post("/signup/", form).status_code == 302
    client.logout()
    again = client.post("/signup/", {**form, "username": "webby2", "email": "webby2@example.org"},
                        HTTP_X_FORWARDED_FOR="198.51.100.5")
    assert again.status_code == 429


# --------------------------------------------------------------------------------- per-user and per-address

def test_uploads_are_limited_per_user_and_per_address(make_user, client_for, rates):
    alice, bob = make_user("alice"), make_user("bob")
    a, b = make_bot(alice, "a", status="ready"), make_bot(bob, "b", status="ready")
    archive = zip_bytes(bot_files())
    rates(**{"upload.user": "1/hour"})
    first = upload(client_for(alice), a.pk, archive)
    assert first.status_code != 429
    assert upload(client_for(alice), a.pk, archive).status_code == 429
    assert upload(client_for(bob), b.pk, archive).status_code != 429, "another user has a budget of their own"

    rates(**{"upload.address": "1/hour"})
    assert upload(client_for(alice), a.pk, archive).status_code != 429
    assert upload(client_for(bob), b.pk, archive, ).status_code == 429, "same address, whatever the account"
    assert client_for(alice).get(f"/api/bots/{a.pk}/versions/").status_code == 200, "reading is not limited"


def test_challenges_are_limited_per_user_and_per_address(make_user, client_for, rates, db):
    from ladders.models import Ladder

    Ladder.objects.create(slug="thebes-2p", name="Thebes 2p", game="thebes", players=2)
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    a, b, c = make_bot(alice, "a"), make_bot(bob, "b"), make_bot(carol, "c")

    def challenge(user, bot, opponent):
        return client_for(user).post("/api/challenges/", {"ladder": "thebes-2p", "bot": bot.pk,
                                                          "opponents": [opponent.pk]}, format="json")
    rates(**{"challenge.user": "1/hour"})
    assert challenge(alice, a, b).status_code == 201
    assert challenge(alice, a, c).status_code == 429
    assert challenge(bob, b, c).status_code == 201
    rates(**{"challenge.address": "1/hour"})
    assert challenge(carol, c, a).status_code == 201
    assert challenge(bob, b, a).status_code == 429


def test_version_tests_are_limited_per_user_and_per_address(make_user, client_for, rates, db):
    from botregistry.models import BotVersion
    from ladders.models import Ladder

    ladder = Ladder.objects.create(slug="thebes-2p", name="Thebes 2p", game="thebes", players=2)
    alice, bob = make_user("alice"), make_user("bob")
    a, b = make_bot(alice, "a"), make_bot(bob, "b")
    make_bot(make_user("opp"), "opp")
    a2 = BotVersion.objects.create(bot=a, number=2, sha256="a2", package_dir="/nonexistent/a2", status="ready")
    b2 = BotVersion.objects.create(bot=b, number=2, sha256="b2", package_dir="/nonexistent/b2", status="ready")

    def start(user, bot, v2):
        return client_for(user).post("/api/version-tests/", {"version_a": bot.active_version_id,
                                                             "version_b": v2.pk, "ladder": ladder.pk},
                                     format="json")
    rates(**{"versiontest.user": "1/hour"})
    assert start(alice, a, a2).status_code == 201
    assert start(alice, a, a2).status_code == 429
    rates(**{"versiontest.address": "1/hour"})
    assert start(bob, b, b2).status_code == 201
    assert start(alice, a, a2).status_code == 429


# ------------------------------------------------------------------------------------------ log-in lock-out

def test_failed_api_logins_lock_the_username_out_from_that_address(anon, client_for, make_user, settings):
    make_user("erin")
    limit = settings.AXES_FAILURE_LIMIT
    for _ in range(limit):
        bad = anon.post("/api/auth/login/", {"username": "erin", "password": "wrong"}, format="json")
        assert bad.status_code in (400, 429)
    good = {"username": "erin", "password": "pw-123456789"}
    assert anon.post("/api/auth/login/", good, format="json").status_code == 429, "locked, even when right"
    assert anon.post("/api/auth/login/", good, format="json", HTTP_X_FORWARDED_FOR="198.51.100.4"
                     ).status_code == 429, "a spoofed address doesn't unlock it"
    elsewhere = client_for().post("/api/auth/login/", good, format="json", REMOTE_ADDR="198.51.100.8")
    assert elsewhere.status_code == 200 and elsewhere.json()["token"], "the user still logs in from elsewhere"


def test_failed_web_form_logins_lock_out(client, make_user, settings):
    make_user("fred")
    for _ in range(settings.AXES_FAILURE_LIMIT):
        assert client.post("/login/", {"username": "fred", "password": "wrong"}).status_code in (200, 429)
    assert client.post("/login/", {"username": "fred", "password": "pw-123456789"}).status_code == 429
    assert not client.session.get("_auth_user_id")


def test_failed_admin_logins_lock_out(client, make_user, settings):
    from django.contrib.auth import get_user_model

    staff = make_user("gina")
    get_user_model().objects.filter(pk=staff.pk).update(is_staff=True, is_superuser=True)
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post("/admin/login/", {"username": "gina", "password": "wrong"})
    locked = client.post("/admin/login/?next=/admin/", {"username": "gina", "password": "pw-123456789"})
    assert locked.status_code == 429
    assert client.get("/admin/").status_code == 302, "not logged in"


@pytest.mark.parametrize("spelling", ["AUD3LOCK", "Aud3Lock", " aud3lock", "aud3lock ", "aud3lock@example.org",
                                      "AUD3LOCK@Example.org"])
def test_the_lock_out_holds_for_every_spelling_of_the_account(spelling, anon, client, make_user, settings):
    """Issue 22, 8: after five failures as `aud3lock`, another spelling of the same account (case, spaces, its
    email address) is locked too, on the API, the web form and the admin; before, each had its own five tries."""
    from django.contrib.auth import get_user_model

    user = make_user("aud3lock")
    get_user_model().objects.filter(pk=user.pk).update(email="aud3lock@example.org", is_staff=True)
    for _ in range(settings.AXES_FAILURE_LIMIT):
        anon.post("/api/auth/login/", {"username": "aud3lock", "password": "wrong"}, format="json")
    good = {"username": spelling, "password": "pw-123456789"}
    assert anon.post("/api/auth/login/", good, format="json").status_code == 429
    assert client.post("/login/", good).status_code == 429
    assert client.post("/admin/login/?next=/admin/", good).status_code == 429
    assert not client.session.get("_auth_user_id")


def test_spellings_of_an_unknown_name_share_one_count(anon, settings, db):
    for typed in ("Ghost", "GHOST", " ghost", "ghost", "gHoSt")[:settings.AXES_FAILURE_LIMIT]:
        anon.post("/api/auth/login/", {"username": typed, "password": "wrong"}, format="json")
    assert anon.post("/api/auth/login/", {"username": "ghost ", "password": "x"}, format="json").status_code == 429


def test_a_successful_login_below_the_limit_works_and_resets_the_count(anon, make_user, settings):
    make_user("hal")
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert anon.post("/api/auth/login/", {"username": "hal", "password": "no"}, format="json").status_code == 400
    assert anon.post("/api/auth/login/", {"username": "hal", "password": "pw-123456789"},
                     format="json").status_code == 200
    assert anon.post("/api/auth/login/", {"username": "hal", "password": "no"}, format="json").status_code == 400


# ------------------------------------------------------------------------------------------- reserved names

@pytest.mark.parametrize("name", ["Random", "r a n d o m", "ＲＡＮＤＯＭ", "r\u0430ndom", "ran\u200bdom", "r.a-n_d o m",
                                  "Boss", "B.O.S.S", "b0ss", "arena", "Official Bot", "The-ADMIN", "ștaff",
                                  "\u0430dmin"])
def test_bot_names_cannot_pass_for_built_in_bots_or_staff(name, make_user, client_for):
    from django.contrib.auth import get_user_model

    from botregistry.models import Bot

    house = make_user("house")
    Bot.objects.create(owner=house, name="random", game="thebes", builtin=True)
    boss = make_user("boss")
    get_user_model().objects.filter(pk=boss.pk).update(is_staff=True)
    response = client_for(make_user("mallory")).post("/api/bots/", {"name": name, "game": "thebes"}, format="json")
    assert response.status_code == 400, name
    assert "name" in response.json()


@pytest.mark.parametrize("name", ["python-random", "python-greedy-thebes", "mcts-level3-thebes", "my python random v2",
                                  "the mcts level3", "Python.Rand0m v2", "random-thebes-pro"])
def test_bot_names_cannot_contain_a_built_in_bot_or_staff_name(name, make_user, client_for):
    """Issue 22, 10: the house names its bots `<runtime>-<folder>[-<game>]`; a name holding one of them, or
    the name without its game or its runtime, passes for it as much as the whole name does."""
    from django.contrib.auth import get_user_model

    from botregistry.models import Bot

    house = make_user("house")
    for builtin in ("python-random-thebes", "python-greedy-thebes", "python-mcts-level3-thebes"):
        Bot.objects.create(owner=house, name=builtin, game="thebes", builtin=True)
    get_user_model().objects.filter(pk=make_user("boss").pk).update(is_staff=True)
    response = client_for(make_user("mallory")).post("/api/bots/", {"name": name, "game": "thebes"}, format="json")
    assert response.status_code == 400, name
    assert "contains" in str(response.json()["name"]) or "reads as" in str(response.json()["name"])


def test_names_that_merely_share_letters_with_a_built_in_bot_are_fine(make_user, client_for):
    from botregistry.models import Bot

    Bot.objects.create(owner=make_user("house"), name="python-random-thebes", game="thebes", builtin=True)
    for name in ("randomizer", "pythonista", "thebes hero", "random-walker"):
        assert client_for(make_user()).post("/api/bots/", {"name": name, "game": "thebes"},
                                            format="json").status_code == 201, name


def test_ordinary_names_and_staff_are_fine(make_user, client_for):
    from django.contrib.auth import get_user_model

    from botregistry.models import Bot

    Bot.objects.create(owner=make_user("house"), name="random", game="thebes", builtin=True)
    for name in ("randomizer", "my bot", "Greedy Gus"):
        assert client_for(make_user()).post("/api/bots/", {"name": name, "game": "thebes"},
                                            format="json").status_code == 201, name
    boss = make_user("boss")
    get_user_model().objects.filter(pk=boss.pk).update(is_staff=True)
    boss.is_staff = True
    assert client_for(boss).post("/api/bots/", {"name": "Official reference", "game": "thebes"},
                                 format="json").status_code == 201


def test_usernames_cannot_pass_for_staff_either(anon, make_user, client, db):
    from django.contrib.auth import get_user_model

    boss = make_user("boss")
    get_user_model().objects.filter(pk=boss.pk).update(is_staff=True)
    for name in ("B0SS", "arena-team", "admin2"):
        assert signup(anon, name).status_code == 400, name
    form = {"username": "Bo.ss", "password1": "a-Long-pass-123", "password2": "a-Long-pass-123"}
    assert client.post("/signup/", form).status_code == 200  # the form again, with the reason
    assert not get_user_model().objects.filter(username="Bo.ss").exists()


def test_upgrading_carries_old_plaintext_tokens_over_as_digests_and_drops_them(make_user, client_for):
    import importlib

    from django.apps import apps
    from django.db import connection

    user = make_user("ivy")
    with connection.cursor() as cursor:  # DRF's authtoken table as an older Arena left it
        cursor.execute("CREATE TABLE authtoken_token (key varchar(40) PRIMARY KEY, created timestamptz NOT NULL, "
                       "user_id bigint NOT NULL)")
        cursor.execute("INSERT INTO authtoken_token VALUES (%s, now(), %s)", ["f" * 40, user.pk])
    migration = importlib.import_module("accounts.migrations.0001_hashed_api_tokens")
    with connection.schema_editor() as editor:
        migration.carry_over_plaintext_tokens(apps, editor)
    assert "authtoken_token" not in connection.introspection.table_names()
    old_client = client_for()
    old_client.credentials(HTTP_AUTHORIZATION=f"Token {'f' * 40}")
    assert old_client.get("/api/auth/me/").json()["username"] == "ivy"
