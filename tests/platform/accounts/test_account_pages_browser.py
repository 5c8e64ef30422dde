"""The account pages in headless Chromium: log-in (with the identity providers' buttons), sign-up, password
reset, email and password management, all in the site's layout and without an axe-core violation (WCAG 2 A/AA
and best practices). Screenshots go to test-artifacts/accounts-*.png."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.platform.web.conftest import browser, wait  # noqa: F401  (the module's Chromium)
from tests.platform.web.test_accessibility_browser import axe_source, violations  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[3] / "test-artifacts"


def test_account_pages_look_like_the_site_and_have_no_axe_violation(browser, live_server, settings,  # noqa: F811
                                                                    axe_source):  # noqa: F811
    from allauth.account.models import EmailAddress
    from django.contrib.auth import get_user_model

    # providers as ARENA_GITHUB_CLIENT_ID and ARENA_OIDC_PROVIDERS make them (only their buttons are used here)
    settings.SOCIALACCOUNT_PROVIDERS = {
        "github": {"APPS": [{"client_id": "gh-id", "secret": "gh-secret"}]},
        "openid_connect": {"APPS": [{"provider_id": "corp", "name": "Corp SSO", "client_id": "c", "secret": "s",
                                     "settings": {"server_url": "http://127.0.0.1:9/"}}]}}
    user = get_user_model().objects.create_user("sofia", "sofia@example.org", "pw-123456789")
    EmailAddress.objects.create(user=user, email="sofia@example.org", primary=True, verified=True)
    EmailAddress.objects.create(user=user, email="sofia@new.example", primary=False, verified=False)
    ARTIFACTS.mkdir(exist_ok=True)
    browser.set_script_timeout(60)
    browser.set_window_size(1100, 900)
    found = {}

    def visit(path: str, shot: str) -> str:
        browser.get(live_server.url + path)
        browser.save_screenshot(str(ARTIFACTS / f"accounts-{shot}.png"))
        if v := violations(browser, axe_source):
            found[path] = v
        assert browser.find_element("css selector", "header.site"), f"{path} is in the site's layout"
        return browser.page_source

    login = visit("/login/", "login")
    assert "GitHub" in login and "Corp SSO" in login and "Forgot your password?" in login
    assert "email" in visit("/signup/", "signup").lower()
    assert "password" in visit("/accounts/password/reset/", "password-reset").lower()

    # the pages the mailed links open: verifying an address, choosing a new password
    from allauth.account.forms import default_token_generator
    from allauth.account.models import EmailConfirmationHMAC
    from allauth.account.utils import user_pk_to_url_str

    pending = EmailAddress.objects.get(email="sofia@new.example")
    assert "Confirm" in visit(f"/accounts/confirm-email/{EmailConfirmationHMAC(pending).key}/", "confirm-email")
    reset_key = f"{user_pk_to_url_str(user)}-{default_token_generator.make_token(user)}"
    assert "password1" in visit(f"/accounts/password/reset/key/{reset_key}/", "password-reset-key")

    browser.get(live_server.url + "/login/")
    browser.find_element("id", "id_username").send_keys("sofia@example.org")  # log-in by email address
    browser.find_element("id", "id_password").send_keys("pw-123456789")
    browser.find_element("css selector", "form.form button[type=submit]").click()
    wait(browser, lambda d: d.current_url.endswith("/me/"))
    me = visit("/me/", "me")
    browser.execute_script("document.getElementById('signin-h').scrollIntoView()")
    browser.save_screenshot(str(ARTIFACTS / "accounts-me-signin.png"))
    assert "sofia@new.example" in me and "not verified" in me
    assert "sofia@new.example" in visit("/accounts/email/", "email")
    visit("/accounts/password/change/", "password-change")
    visit("/accounts/3rdparty/", "providers")
    assert found == {}, found
