"""An owner reads why their version failed validation, and what a bot's fault was, in their language: the bot's
page, the API (`status_reason` by Accept-Language, beside its codes), the mail and the webhook (the recipient's
language; the payload keeps the codes), the match page and the viewer's payload. A reason stored in English
before codes existed is re-told when it is a known phrase and shown as stored otherwise."""

from __future__ import annotations

import gzip
import json

import pytest

pytestmark = pytest.mark.django_db

ILLEGAL = ("answered 'dig:atlantis', which is not the text of a legal action (legal are e.g. 'pass', "
           "'dig:greece')")


@pytest.fixture
def failed(make_user, mailoutbox, monkeypatch, django_capture_on_commit_callbacks):
    """A Chinese-speaking owner whose version failed its check for two reasons, told by mail and webhook."""
    from allauth.account.models import EmailAddress
    from platform_helpers import make_bot

    from accounts.language import remember
    from arena.reasons import Reason
    from arena_site.celery import app
    from botregistry.services import mark_validated
    from notifications import services, tasks

    user = make_user("lin")
    user.email = "lin@example.org"
    user.save()
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    remember(user, "zh-hans")
    prefs = services.update(user, events={"version_failed": True})
    prefs.webhook_url = "https://hooks.example.org/arena"
    prefs.save()
    hooks: list[dict] = []
    monkeypatch.setattr(tasks.deliver_webhook, "delay", lambda pk, event, body, delivery: hooks.append(json.loads(body)))
    before = app.conf.task_always_eager
    app.conf.task_always_eager = True
    try:
        with django_capture_on_commit_callbacks(execute=True):
            bot = make_bot(user, "lin-bot", status="validating")
            mark_validated(bot.active_version, False, [Reason("check.game_not_listed", {"game": "thebes"}),
                                                       Reason("check.crash")], "the log")
    finally:
        app.conf.task_always_eager = before
    bot.active_version.refresh_from_db()
    return {"user": user, "bot": bot, "version": bot.active_version, "mail": mailoutbox, "hooks": hooks}


def test_a_failed_validations_reason_in_each_language(client, client_for, failed):
    version = failed["version"]
    # stored once in English words (what the API and the export always had) and as codes
    assert version.status_reason == "bot.toml does not list the game thebes; the bot crashed in the smoke match"
    codes = [{"code": "check.game_not_listed", "params": {"game": "thebes"}}, {"code": "check.crash", "params": {}}]
    assert version.status_reasons == codes

    # the mail and the webhook in the recipient's language (Chinese), the codes in the webhook's data
    zh = "bot.toml 没有列出游戏 thebes；机器人在冒烟测试比赛中崩溃"
    assert len(failed["mail"]) == 1 and zh in failed["mail"][0].body
    assert len(failed["hooks"]) == 1 and failed["hooks"][0]["text"] == zh
    assert failed["hooks"][0]["data"]["reason_codes"] == codes

    # the bot's page in the reader's language
    pt = "o bot.toml não lista o jogo thebes; o bot caiu na partida de teste"
    page = client.get(f"/bots/{failed['bot'].pk}/", HTTP_ACCEPT_LANGUAGE="pt-BR").content.decode()
    assert pt in page and "the smoke match" not in page
    client.force_login(failed["user"])  # the owner's own page, in the account's language
    assert zh in client.get("/me/").content.decode()

    # the API by Accept-Language, with the codes for programs
    api = client_for(failed["user"])
    for accept, text in (("pt-BR", pt), ("zh-Hans", zh), ("en", version.status_reason)):
        body = api.get(f"/api/versions/{version.pk}/", HTTP_ACCEPT_LANGUAGE=accept).json()
        assert body["status_reason"] == text and body["status_reason_codes"] == codes, accept
    bot = api.get(f"/api/bots/{failed['bot'].pk}/", HTTP_ACCEPT_LANGUAGE="pt-BR").json()
    assert bot["active_version"]["status_reason"] == pt
    # a refusal that quotes the reason says it in the request's language too
    refused = api.post(f"/api/versions/{version.pk}/revalidate/", HTTP_ACCEPT_LANGUAGE="pt-BR")
    assert refused.status_code == 409
    assert refused.json()["detail"].startswith(f"versão 1: falhou ({pt}); só uma versão que falhou")


def test_a_reason_stored_in_words_is_retold_when_known(client, world):
    from botregistry.models import BotVersion

    broken = world["broken"]  # "bot.toml: runtime 'cobol' is not supported": no known phrase, shown as stored
    page = client.get(f"/bots/{broken.bot_id}/", HTTP_ACCEPT_LANGUAGE="zh-Hans").content.decode()
    assert "bot.toml: runtime &#x27;cobol&#x27; is not supported" in page
    BotVersion.objects.filter(pk=broken.pk).update(status_reason="the build timed out")  # an old row, no codes
    page = client.get(f"/bots/{broken.bot_id}/", HTTP_ACCEPT_LANGUAGE="zh-Hans").content.decode()
    assert "构建超时" in page and "the build timed out" not in page


def test_a_fault_in_each_language_on_the_match_page_and_in_the_viewer(client, world, settings):
    from arena import replay as replays
    from matches.models import Participant

    match = world["match"]
    Participant.objects.filter(match=match, seat=2).update(
        faults=[{"kind": "illegal", "message": ILLEGAL, "decision": 12}])
    replay = world["replay"]
    replay["decisions"][12]["fault"] = {"kind": "illegal", "message": ILLEGAL}  # as the referee records it
    replays.write(settings.STORAGE_DIR / match.replay_path, replay)

    zh = "回答了 'dig:atlantis'，这不是合法行动的文本（合法的例如 'pass', 'dig:greece'）"
    page = client.get(f"/matches/{match.pk}/", HTTP_ACCEPT_LANGUAGE="zh-Hans").content.decode()
    assert "非法行动" in page and zh.replace("'", "&#x27;") in page

    frames = client.get(f"/matches/{match.pk}/frames.json?lang=pt-br", HTTP_ACCEPT_LANGUAGE="pt-BR")
    data = frames.content if frames.get("Content-Encoding") != "gzip" else gzip.decompress(frames.content)
    payload = json.loads(data)
    assert payload["faults"]["13"] == {
        "kind": "ação ilegal",
        "message": "respondeu 'dig:atlantis', que não é o texto de uma ação legal (legais são, por exemplo, "
                   "'pass', 'dig:greece')"}
    assert payload["frames"][13]["fault"]["message"] == ILLEGAL  # the frames keep what the referee recorded
    story = payload["story"]["turns"][13]
    assert story["fault_name"] == "ação ilegal" and any("respondeu 'dig:atlantis'" in line for line in story["lines"])


def test_reasons_stored_in_words_by_the_platform_are_retold(client, world):
    """A match's, a tournament's and a retired bot's reasons are stored in English words; each page tells them in
    its reader's language (the parameters, here a match's worker, as they are)."""
    from django.utils import timezone

    from botregistry.models import Bot
    from matches.models import Match
    from tournaments.models import Tournament

    match = world["match"]
    Match.objects.filter(pk=match.pk).update(
        status_reason="gave up after 3 attempts: the worker running it stopped each time (last: w-7)")
    page = client.get(f"/matches/{match.pk}/", HTTP_ACCEPT_LANGUAGE="pt-BR").content.decode()
    assert "desistimos após 3 tentativas: o worker que a executava parou todas as vezes (o último: w-7)" in page

    t = Tournament.objects.create(name="Cup", game="thebes", players=4, starts_at=timezone.now(),
                                  status=Tournament.Status.CANCELLED,
                                  status_reason="only 2 entries for 4-player tables")
    assert "每桌 4 名玩家，但只有 2 个报名" in client.get(f"/tournaments/{t.pk}/",
                                                      HTTP_ACCEPT_LANGUAGE="zh-Hans").content.decode()

    Bot.objects.filter(pk=world["bots"][1].pk).update(retired_at=timezone.now())
    page = client.get(f"/bots/{world['bots'][1].pk}/", HTTP_ACCEPT_LANGUAGE="zh-Hans").content.decode()
    assert "已退役：管理员让它退役了。" in page
