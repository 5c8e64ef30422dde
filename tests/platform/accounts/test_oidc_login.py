"""Log-in through an OpenID Connect provider, end to end: a real provider (npm's oidc-provider, tests/oidc) on
127.0.0.1, Arena's live server, and an HTTP client that follows every redirect as a browser would: Arena → the
provider's log-in page → back to Arena's callback, which exchanges the code over HTTP and signs the user up."""

from __future__ import annotations

import re

import pytest
import requests

pytestmark = pytest.mark.django_db(transaction=True)

ACCOUNTS = {
    "ada": {"password": "ada-secret-1", "claims": {
        "email": "ada@idp.example", "email_verified": True, "preferred_username": "ada", "name": "Ada L"}},
    # asks for a reserved name: Arena must not hand it out
    "root": {"password": "root-secret-1", "claims": {
        "email": "admin@idp.example", "email_verified": False, "preferred_username": "admin"}},
    # claims an address another Arena account has: must not be let into that account
    "eve": {"password": "eve-secret-1", "claims": {
        "email": "ada@idp.example", "email_verified": True, "preferred_username": "eve"}},
}


def _field(html: str, name: str) -> str:
    return re.search(rf'name="{name}" value="([^"]+)"', html).group(1)


def log_in_through_provider(live_server, login: str, password: str, keep_session: bool = False):
    """Arena's log-in page → the provider's button → its log-in form → back to Arena; the last response (and the
    browser's session, with `keep_session`)."""
    browser = requests.Session()
    page = browser.get(f"{live_server.url}/login/", timeout=30)
    assert page.status_code == 200 and "Test IdP" in page.text, "the log-in page offers the configured provider"
    action = re.search(r'action="(/accounts/oidc/testidp/login/[^"]*)"', page.text).group(1).replace("&amp;", "&")
    at_provider = browser.post(f"{live_server.url}{action}",
                               data={"csrfmiddlewaretoken": _field(page.text, "csrfmiddlewaretoken")}, timeout=30)
    assert at_provider.url.startswith("http://127.0.0.1:") and "/interaction/" in at_provider.url, at_provider.url
    form_action = re.search(r'action="([^"]+)"', at_provider.text).group(1)
    provider_root = at_provider.url.split("/interaction/")[0]
    wrong = browser.post(provider_root + form_action, data={"login": login, "password": "not-it"}, timeout=30)
    assert "wrong login or password" in wrong.text, "the provider checks the password"
    landed = browser.post(provider_root + form_action, data={"login": login, "password": password}, timeout=30)
    return (browser, landed) if keep_session else landed


def test_a_new_user_logs_in_through_openid_connect_and_comes_back_to_the_same_account(
        live_server, oidc_provider, settings, mailoutbox):
    from allauth.account.models import EmailAddress
    from allauth.socialaccount.models import SocialAccount
    from django.contrib.auth import get_user_model

    from accounts.adapter import username_problem
    from accounts.emails import verification_pending

    provider = oidc_provider(ACCOUNTS)
    settings.SOCIALACCOUNT_PROVIDERS = {"openid_connect": provider.settings_app()}

    landed = log_in_through_provider(live_server, "ada", "ada-secret-1")
    assert landed.status_code == 200 and landed.url == f"{live_server.url}/me/", landed.url
    assert "My bots" in landed.text and "ada" in landed.text, "signed in to Arena"
    user = get_user_model().objects.get(username="ada")
    link = SocialAccount.objects.get(user=user)
    assert (link.provider, link.uid) == ("testidp", "ada"), "the account is linked to that identity"
    assert EmailAddress.objects.get(user=user).verified, "the provider vouched for the address (email_verified)"
    assert not verification_pending(user)

    again = log_in_through_provider(live_server, "ada", "ada-secret-1")
    assert again.url == f"{live_server.url}/me/"
    assert get_user_model().objects.filter(socialaccount__uid="ada").count() == 1, "the same account, not a new one"

    # a provider that proposes a reserved name: the account gets another name, and its unverified address waits
    landed = log_in_through_provider(live_server, "root", "root-secret-1")
    assert landed.url == f"{live_server.url}/me/", landed.url
    root = SocialAccount.objects.get(uid="root").user
    assert root.username.lower() != "admin" and username_problem(root.username) is None, root.username
    assert verification_pending(root), "an address the provider did not verify must be verified by Arena"
    assert [m.to for m in mailoutbox] == [["admin@idp.example"]], "the verification link went to it"
    assert not any(m.to == ["ada@idp.example"] for m in mailoutbox)

    # the same address as ada's account: no way into ada's account; Arena asks for another address instead
    browser, landed = log_in_through_provider(live_server, "eve", "eve-secret-1", keep_session=True)
    assert landed.url == f"{live_server.url}/accounts/3rdparty/signup/", landed.url
    form = {"csrfmiddlewaretoken": _field(landed.text, "csrfmiddlewaretoken"), "username": "eve",
            "email": "ada@idp.example"}
    refused = browser.post(landed.url, data=form, timeout=30)
    assert refused.url == landed.url and "errorlist" in refused.text, "ada's address stays ada's"
    form["csrfmiddlewaretoken"] = _field(refused.text, "csrfmiddlewaretoken")
    done = browser.post(landed.url, data={**form, "email": "eve@elsewhere.example"}, timeout=30)
    assert done.url == f"{live_server.url}/me/", done.url
    eve = SocialAccount.objects.get(uid="eve").user
    assert eve != user and eve.username == "eve"
    assert verification_pending(eve), "an address typed in, not vouched for by the provider, is verified by mail"
