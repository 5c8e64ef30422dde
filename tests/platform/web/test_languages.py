"""The site in English, Brazilian Portuguese and Simplified Chinese: the browser's Accept-Language on a first
visit, the switcher on every page (Django's set_language: it keeps the page and remembers the choice in a cookie
and on the account, which follows its owner to another browser and into their mail), `<html lang>`, the API's
error messages by Accept-Language, and the replay's story in the page's language."""

from __future__ import annotations

import gzip
import json
import re
from datetime import UTC

import pytest

pytestmark = pytest.mark.django_db

LANGS = [("en", "en", "Matches"), ("pt-BR,pt;q=0.9,en;q=0.5", "pt-BR", "Partidas"),
         ("zh-CN,zh;q=0.9", "zh-Hans", "对局")]


def html_lang(resp) -> str:
    return re.search(r'<html lang="([^"]+)"', resp.content.decode()).group(1)


@pytest.mark.parametrize("accept,tag,matches", LANGS)
def test_the_first_visit_speaks_the_browsers_language(client, world, accept, tag, matches):
    for path in ("/", "/matches/", "/ladders/", "/games/thebes/", f"/matches/{world['match'].pk}/", "/signup/",
                 "/login/", "/tournaments/", "/teams/"):
        resp = client.get(path, HTTP_ACCEPT_LANGUAGE=accept)
        assert resp.status_code == 200, path
        assert html_lang(resp) == tag, path
        assert f">{matches}</a>" in resp.content.decode(), path  # the main navigation
    assert resp.headers["Content-Language"] == tag.lower()


def test_the_switcher_keeps_the_page_and_remembers_the_choice(client):
    page = client.get("/matches/?game=thebes", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    form = re.search(r'<form class="language-switch" method="post" action="([^"]+)">(.*?)</form>', page, re.S)
    assert form and 'name="next" value="/matches/?game=thebes"' in form.group(2)
    assert 'value="pt-br"' in form.group(2) and "Português" in form.group(2) and "简体中文" in form.group(2)
    resp = client.post(form.group(1), {"language": "pt-br", "next": "/matches/?game=thebes"})
    assert resp.status_code == 302 and resp.headers["Location"] == "/matches/?game=thebes"
    again = client.get("/matches/?game=thebes", HTTP_ACCEPT_LANGUAGE="zh-CN")  # the cookie beats the browser
    assert html_lang(again) == "pt-BR" and "Filtrar as partidas" in again.content.decode()
    # a `next` off this site is not followed
    away = client.post("/i18n/setlang/", {"language": "en", "next": "https://evil.example/"})
    assert away.status_code == 302 and away.headers["Location"] == "/"
    # and a language the site does not speak changes nothing
    client.post("/i18n/setlang/", {"language": "pt-br", "next": "/"})
    client.post("/i18n/setlang/", {"language": "xx", "next": "/"})
    assert html_lang(client.get("/")) == "pt-BR"


def test_a_signed_in_persons_choice_follows_them_to_another_browser(client, make_user):
    from django.test import Client

    from accounts.models import Preferences

    user = make_user("lang-owner")
    client.force_login(user)
    client.post("/i18n/setlang/", {"language": "zh-hans", "next": "/me/"})
    assert Preferences.objects.get(user=user).language == "zh-hans"
    other = Client()  # no cookie, an English browser
    other.force_login(user)
    resp = other.get("/me/", HTTP_ACCEPT_LANGUAGE="en")
    assert html_lang(resp) == "zh-Hans" and "我的机器人" in resp.content.decode()
    assert html_lang(Client().get("/", HTTP_ACCEPT_LANGUAGE="en")) == "en"  # nobody else's page changes


@pytest.mark.parametrize("accept,detail", [("en", "Not found."), ("pt-BR", "Não encontrado."),
                                           ("zh-Hans", "未找到。")])
def test_api_errors_speak_the_accept_language(client, accept, detail):
    resp = client.get("/api/bots/999999/", HTTP_ACCEPT_LANGUAGE=accept)
    assert resp.status_code == 404 and resp.json() == {"detail": detail}
    resp = client.post("/api/challenges/", {}, HTTP_ACCEPT_LANGUAGE=accept, content_type="application/json")
    assert resp.status_code in (401, 403)
    english = "Authentication credentials were not provided."
    assert (resp.json()["detail"] == english) == (accept == "en"), resp.json()


@pytest.mark.parametrize("lang,words", [("en", "The game is set up."), ("pt-BR", "O jogo está preparado."),
                                        ("zh-Hans", "游戏已准备就绪。")])
def test_the_viewer_story_is_told_in_the_pages_language(client, world, lang, words):
    m = world["match"]
    resp = client.get(f"/matches/{m.pk}/frames.json?seat=all&lang={lang}", HTTP_ACCEPT_ENCODING="gzip")
    assert resp.status_code == 200
    story = json.loads(gzip.decompress(resp.content))["story"]
    assert story["turns"][0]["text"] == words
    assert "Accept-Language" in resp.headers["Vary"]


def test_dates_are_written_the_locales_way(client, world):
    from datetime import datetime

    from tournaments.models import Tournament

    Tournament.objects.create(name="Cup", game="thebes", players=4,
                              starts_at=datetime(2031, 3, 4, 5, 6, tzinfo=UTC))
    en = client.get("/tournaments/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    pt = client.get("/tournaments/", HTTP_ACCEPT_LANGUAGE="pt-BR").content.decode()
    assert "04/03/2031" in pt and "04/03/2031" not in en


def test_mail_speaks_the_recipients_language(make_user, mailoutbox, settings, django_capture_on_commit_callbacks):
    """A notification and a password reset reach each person in the language their account chose, whoever asked
    and in whatever language the request came."""
    from allauth.account.models import EmailAddress
    from django.test import Client
    from platform_helpers import make_bot

    from accounts.language import remember
    from arena_site.celery import app
    from botregistry.services import mark_validated
    from notifications import services

    user = make_user("mei")
    user.email = "mei@example.org"
    user.save()
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    remember(user, "zh-hans")
    services.update(user, events={"version_failed": True})
    before = app.conf.task_always_eager
    app.conf.task_always_eager = True
    try:
        with django_capture_on_commit_callbacks(execute=True):
            bot = make_bot(user, "mei-bot", status="validating")
            mark_validated(bot.active_version, False, "the build failed", "log")
    finally:
        app.conf.task_always_eager = before
    assert len(mailoutbox) == 1
    assert "mei-bot 版本 1 未通过验证" in mailoutbox[0].subject
    assert "选择 Arena 通知您哪些事情" in mailoutbox[0].body

    mailoutbox.clear()
    Client().post("/accounts/password/reset/", {"email": "mei@example.org"}, HTTP_ACCEPT_LANGUAGE="en")
    assert len(mailoutbox) == 1 and "密码重置邮件" in mailoutbox[0].subject


def test_a_sign_up_mail_speaks_the_language_of_the_page(client, mailoutbox):
    resp = client.post("/signup/", {"username": "joana", "email": "joana@example.org", "password1": "Pw-123456789x",
                                    "password2": "Pw-123456789x"}, HTTP_ACCEPT_LANGUAGE="pt-BR")
    assert resp.status_code == 302, resp.content[:500]
    assert len(mailoutbox) == 1 and "confirme seu endereço de e-mail" in mailoutbox[0].subject


@pytest.mark.parametrize("game,accept,words", [("thebes", "pt-BR", "Como jogar"), ("thebes", "zh-Hans", "轮到谁"),
                                               ("minos", "pt-BR", "Povos do Mar"), ("minos", "zh-Hans", "海上民族"),
                                               ("minos", "en", "Sea Peoples")])
def test_the_game_pages_rules_are_in_the_pages_language(client, game, accept, words):
    page = client.get(f"/games/{game}/", HTTP_ACCEPT_LANGUAGE=accept).content.decode()
    assert words in page
    if accept != "en":
        assert "How to play" not in page and "Whose turn it is" not in page
