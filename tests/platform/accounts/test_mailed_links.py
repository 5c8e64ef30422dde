"""Host-header poisoning (issue 22, 6): an Arena reached under any name (`ALLOWED_HOSTS = ["*"]`, as an opened
server had) must still mail links to its own configured address, never to the Host a request claims. Before,
a reset asked for with `Host: evil.example` mailed the victim a valid key on the attacker's site."""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from test_account_flows import PASSWORD, api_signup, mailoutbox  # noqa: F401  (mailoutbox: a fixture)

SITE = "https://arena.example.org"


@pytest.fixture(autouse=True)
def any_host_accepted(settings):
    settings.ALLOWED_HOSTS = ["*"]
    settings.ARENA_SITE_URL = SITE
    cache.clear()
    yield
    cache.clear()


def links(mail) -> list[str]:
    return re.findall(r"https?://[^\s\"'<>]+", mail.body)


def assert_only_site_links(mail):
    found = links(mail)
    assert found, mail.body
    assert all(link.startswith(SITE + "/") for link in found), found
    assert "evil.example" not in mail.body and "evil.example" not in mail.subject


def test_a_password_reset_asked_for_under_a_foreign_host_links_to_the_site(anon, client, mailoutbox):  # noqa: F811
    api_signup(anon, "victim", "victim@example.org")
    mailoutbox.clear()
    client.post("/accounts/password/reset/", {"email": "victim@example.org"}, HTTP_HOST="evil.example")
    anon.post("/api/auth/password/reset/", {"email": "victim@example.org"}, format="json", HTTP_HOST="evil.example")
    assert len(list(mailoutbox)) == 2
    for mail in mailoutbox:
        assert_only_site_links(mail)
        assert any("/accounts/password/reset/key/" in link for link in links(mail))


def test_a_verification_link_asked_for_under_a_foreign_host_links_to_the_site(anon, mailoutbox):  # noqa: F811
    anon.post("/api/auth/signup/", {"username": "newcomer", "email": "newcomer@example.org", "password": PASSWORD},
              format="json", HTTP_HOST="evil.example")
    (mail,) = mailoutbox
    assert_only_site_links(mail)
    assert any("/accounts/confirm-email/" in link for link in links(mail))


def test_a_reset_for_an_unknown_address_links_to_the_site_too(client, mailoutbox):  # noqa: F811
    client.post("/accounts/password/reset/", {"email": "nobody@example.org"}, HTTP_HOST="evil.example")
    for mail in mailoutbox:
        assert_only_site_links(mail)
