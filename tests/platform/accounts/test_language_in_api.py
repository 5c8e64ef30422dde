"""The account's language through the API: `/api/auth/me/` says it and `PATCH` changes it (a language the site
does not speak is refused, changing nothing), the pages and mails then follow it, and the data export holds it."""

from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.django_db


def test_me_says_and_changes_the_language(make_user, client_for, client):
    from accounts.language import language_of

    user = make_user("ana")
    api = client_for(user)
    assert api.get("/api/auth/me/").json()["language"] == ""  # none chosen yet
    resp = api.patch("/api/auth/me/", {"language": "pt-br"}, format="json")
    assert resp.status_code == 200 and resp.json()["language"] == "pt-br"
    assert api.get("/api/auth/me/").json()["language"] == "pt-br"
    client.force_login(user)  # the pages follow the account's choice
    assert '<html lang="pt-BR"' in client.get("/", HTTP_ACCEPT_LANGUAGE="zh-CN").content.decode()

    for bad in ("klingon", "pt_BR ", "<script>", 7, None):
        resp = api.patch("/api/auth/me/", {"language": bad}, format="json", HTTP_ACCEPT_LANGUAGE="zh-Hans")
        assert resp.status_code == 400 and "language" in resp.json(), bad
    user._arena_language = None  # language_of's per-object cache
    assert language_of(user) == "pt-br"

    # nothing else of the account changes through PATCH
    resp = api.patch("/api/auth/me/", {"username": "mallory", "is_staff": True, "language": ""}, format="json")
    assert resp.status_code == 200 and resp.json()["language"] == ""
    user.refresh_from_db()
    assert user.username == "ana" and not user.is_staff
    assert api.put("/api/auth/me/", {"language": "en"}, format="json").status_code == 405
    assert client_for(None).patch("/api/auth/me/", {"language": "en"}, format="json").status_code in (401, 403)


def test_the_export_holds_the_language(make_user, client_for):
    user = make_user("bia")
    api = client_for(user)
    api.patch("/api/auth/me/", {"language": "zh-hans"}, format="json")
    resp = api.get("/api/auth/me/export/")
    body = b"".join(resp.streaming_content) if getattr(resp, "streaming", False) else resp.content
    assert json.loads(body)["account"]["language"] == "zh-hans"


def test_the_apis_own_messages_follow_accept_language(make_user, client_for):
    make_user("taken")
    me = make_user("cai")
    anon = client_for(None)
    for accept, said in (("en", "this username is taken"), ("pt-BR", "este nome de usuário já está em uso"),
                         ("zh-Hans", "此用户名已被占用")):
        resp = anon.post("/api/auth/signup/", {"username": "taken", "email": "t@example.org",
                                               "password": "Pw-123456789x"}, format="json", HTTP_ACCEPT_LANGUAGE=accept)
        assert resp.status_code == 400 and resp.json()["username"] == [said], accept
    resp = client_for(me).post("/api/bots/1/transfer/", {"team": "nowhere"}, format="json", HTTP_ACCEPT_LANGUAGE="zh-Hans")
    assert resp.status_code == 404 and "没有" in resp.json()["detail"]
