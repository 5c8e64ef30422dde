"""Attacks on the account flows of issue 17 (its review): taking another person's email address, a deleted
account's name coming back through an identity provider, guessing passwords on the web log-in form from one
address across many names."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from test_account_flows import PASSWORD, api_signup, link_in, mailoutbox  # noqa: F401  (mailoutbox: a fixture)
from test_oidc_login import log_in_through_provider


@pytest.fixture(autouse=True)
def fresh_rate_limits():
    cache.clear()
    yield
    cache.clear()


@pytest.mark.django_db
def test_an_address_another_account_owns_cannot_be_taken_by_a_change_of_email(anon, client_for, mailoutbox):  # noqa: F811
    from allauth.account.models import EmailAddress
    from django.contrib.auth import get_user_model

    User = get_user_model()
    victim = api_signup(anon, "victim", "victim@example.org").json()
    anon.post("/api/auth/email/verify/", {"key": link_in(mailoutbox[0], "/accounts/confirm-email/")}, format="json")
    pending = api_signup(anon, "slowpoke", "slow@example.org").json()  # never verified
    attacker = client_for()
    attacker.credentials(HTTP_AUTHORIZATION=f"Token {api_signup(anon, 'mallory', 'm@example.org').json()['token']}")
    mailoutbox.clear()
    for address in ("victim@example.org", "VICTIM@example.org", "slow@example.org"):
        response = attacker.post("/api/auth/email/", {"email": address}, format="json")
        assert response.status_code == 400 and "another account" in str(response.json()), response.content
        assert not EmailAddress.objects.filter(user__username="mallory", email__iexact=address).exists()
        assert list(mailoutbox) == [], \
            "no verification link for mallory goes to the owner's inbox (a click there would hand mallory the address)"
    # the web page refuses it the same way
    from django.test import Client

    browser = Client()
    browser.force_login(User.objects.get(username="mallory"))
    page = browser.post("/accounts/email/", {"action_add": "", "email": "slow@example.org"})
    assert page.status_code == 200 and b"another account" in page.content
    assert not EmailAddress.objects.filter(user__username="mallory", email__iexact="slow@example.org").exists()
    assert User.objects.get(username="mallory").email == "m@example.org"
    assert User.objects.get(pk=victim["id"]).email == "victim@example.org"
    assert User.objects.get(pk=pending["id"]).email == "slow@example.org"
    # a password reset for the address reaches its owner only
    mailoutbox.clear()
    anon.post("/api/auth/password/reset/", {"email": "victim@example.org"}, format="json")
    assert [m.to for m in mailoutbox] == [["victim@example.org"]]
    assert "victim" in mailoutbox[0].body and "mallory" not in mailoutbox[0].body


@pytest.mark.django_db(transaction=True)
def test_a_deleted_oidc_account_comes_back_as_a_new_account_without_its_old_name(
        live_server, oidc_provider, settings, client):
    """An identity-provider account is deleted (confirmed with its user name: it has no password); logging in
    through the provider again makes a new, empty account: never the deleted one, never its retired name."""
    from allauth.socialaccount.models import SocialAccount
    from django.contrib.auth import get_user_model

    from accounts.adapter import username_problem
    from accounts.deletion import is_deleted

    accounts = {"grace": {"password": "grace-secret-1", "claims": {
        "email": "grace@idp.example", "email_verified": True, "preferred_username": "grace"}}}
    provider = oidc_provider(accounts)
    settings.SOCIALACCOUNT_PROVIDERS = {"openid_connect": provider.settings_app()}
    User = get_user_model()

    assert log_in_through_provider(live_server, "grace", "grace-secret-1").url == f"{live_server.url}/me/"
    first = User.objects.get(username="grace")
    client.force_login(first)
    assert client.delete("/api/auth/me/", {"password": "x"}, content_type="application/json").status_code == 400
    assert client.delete("/api/auth/me/", {"username": "grace"}, content_type="application/json").status_code == 204
    first.refresh_from_db()
    assert is_deleted(first) and not SocialAccount.objects.filter(user=first).exists()

    landed = log_in_through_provider(live_server, "grace", "grace-secret-1")
    assert landed.url == f"{live_server.url}/me/", landed.url
    second = SocialAccount.objects.get(uid="grace").user
    assert second.pk != first.pk and second.is_active
    assert second.username.lower() != "grace" and username_problem(second.username) is None, second.username
    first.refresh_from_db()
    assert is_deleted(first), "the deleted account stays deleted"


@pytest.mark.django_db
def test_the_web_login_form_is_limited_per_client_address(client, settings, make_user):
    """axes locks a (name, address) pair; one address trying a few passwords on many names is stopped by the
    same `login.address` limit as the API's log-in: a 429 before the password is even checked."""
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {
        **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "login.address": "5/hour"}}
    make_user("target")
    for n in range(5):
        assert client.post("/login/", {"username": f"name{n}", "password": "guess"}).status_code == 200
    blocked = client.post("/login/", {"username": "target", "password": "pw-123456789"})
    assert blocked.status_code == 429, blocked.status_code
    assert b"Too many" in blocked.content
    assert "_auth_user_id" not in client.session, "the right password does not get through the limit either"
    assert client.get("/login/").status_code == 200, "the page itself still shows"


@pytest.mark.django_db
@pytest.mark.parametrize("key", ["zzzzzzzzzzzzzzzzzzzzzzzzz-abc", "-", "0-", "---", "1-" + "a" * 190, "é-ü", "1 -x"])
def test_odd_password_reset_keys_are_a_400(anon, key):
    response = anon.post("/api/auth/password/reset/confirm/", {"key": key, "password": "New-pass-456"}, format="json")
    assert response.status_code == 400 and "key" in response.json(), (key, response.status_code, response.content)
    verify = anon.post("/api/auth/email/verify/", {"key": key}, format="json")
    assert verify.status_code == 400, (key, verify.status_code)


@pytest.mark.django_db
def test_removing_the_unverified_address_lifts_no_hold_and_gets_no_address_mailed(anon, client_for, mailoutbox):  # noqa: F811
    """Issue 22, 4: an account that signed up removed its unverified address on /accounts/email/; it then counted
    as one nobody signed up: uploads were allowed and `PATCH /api/auth/me/notifications/` took any address, which
    Arena then mailed. The hold is a flag on the account, the last address can't be removed, and an address
    without a verified record is never mailed."""
    from allauth.account.models import EmailAddress
    from django.contrib.auth import get_user_model
    from django.test import Client
    from platform_helpers import bot_files, make_bot, upload, zip_bytes

    from accounts.emails import notification_address, verification_pending
    from notifications import services

    made = api_signup(anon, "sly", "sly@example.org").json()
    user = get_user_model().objects.get(username="sly")
    owner = client_for()
    owner.credentials(HTTP_AUTHORIZATION=f"Token {made['token']}")
    browser = Client()
    browser.force_login(user)
    browser.post("/accounts/email/", {"action_remove": "", "email": "sly@example.org"})
    assert EmailAddress.objects.filter(user=user, email="sly@example.org").exists(), "the last address stays"

    EmailAddress.objects.filter(user=user).delete()  # as the page let it happen before
    user.refresh_from_db()
    assert verification_pending(user)
    refused = upload(owner, make_bot(user, "sly-bot").pk, zip_bytes(bot_files("sly-bot")))
    assert refused.status_code == 403 and "verify your email" in refused.json()["detail"]
    changed = owner.patch("/api/auth/me/notifications/", {"email_address": "victim@elsewhere.example",
                                                          "email": True}, format="json")
    assert changed.status_code == 400 and "email_address" in changed.json()
    user.refresh_from_db()
    assert user.email != "victim@elsewhere.example" and notification_address(user) is None
    services.update(user, email=True)
    assert "email" not in services.notify(user, services.Event.VERSION_FAILED, "failed", "failed", "/me/", {})
