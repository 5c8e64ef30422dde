"""Reasons a person reads (arena.reasons) in English, Brazilian Portuguese and Simplified Chinese: every code
renders in each language with its parameters filled in, a stored English text is recognised and re-told, anything
else stays as it was, and the bot check gives its outcome as reasons."""

from __future__ import annotations

import re

import pytest

from arena import reasons
from arena.reasons import TEMPLATES, Reason

LANGUAGES = ["en", "pt-br", "zh-hans"]


def example(code: str) -> Reason:
    """The reason `code` with a distinct value for each parameter (a repeated one repeats its value)."""
    return Reason(code, {name: f"<{name}>" for name in re.findall(r"%\((\w+)\)s", TEMPLATES[code])})


@pytest.mark.parametrize("code", sorted(TEMPLATES))
def test_every_code_renders_in_every_language_with_its_parameters(code):
    reason = example(code)
    told = {language: reasons.render(reason, language) for language in LANGUAGES}
    for language, text in told.items():
        assert "%(" not in text and text.strip(), (language, text)
        for value in reason.params.values():
            assert value in text, (language, code, text)
    # each language has its own words (not the English source left untranslated)
    assert told["pt-br"] != told["en"] and told["zh-hans"] != told["en"], told
    assert not re.search(r"[a-z]{4,} [a-z]{4,}", re.sub(r"<\w+>|\w+\.\w+|Bot\.\w*|[A-Z][A-Za-z]+", "", told["zh-hans"])), told


@pytest.mark.parametrize("code", sorted(TEMPLATES))
def test_a_stored_english_text_is_recognised_as_its_code(code):
    reason = example(code)
    assert reasons.parse(reason.english()) == [reason]
    assert Reason.from_json(reason.to_json()) == reason


def test_stored_texts_are_retold_and_the_bots_own_words_kept():
    told = reasons.retell("answered 'dig:nowhere', which is not the text of a legal action (legal are e.g. "
                          "'pass', 'dig:greece')", "zh-hans")
    assert told == "回答了 'dig:nowhere'，这不是合法行动的文本（合法的例如 'pass', 'dig:greece'）"
    # a known phrase inside a parameter is told too (how the process ended), and several reasons join as the
    # language joins clauses
    assert reasons.retell("the bot exited with code 3", "pt-br") == "o bot saiu com código 3"
    assert reasons.retell("the build failed; the bot crashed in the smoke match", "zh-hans") == \
        "构建失败；机器人在冒烟测试比赛中崩溃"
    # no known phrase: as stored, in every language
    for language in LANGUAGES:
        assert reasons.retell("bot.toml: runtime 'cobol' is not supported", language) == \
            "bot.toml: runtime 'cobol' is not supported"
    assert reasons.kind("illegal", "pt-br") == "ação ilegal" and reasons.kind("no-such-kind", "zh-hans") == "no-such-kind"
    with pytest.raises(KeyError):
        Reason("no.such.code")
    assert Reason.from_json({"code": "no.such.code"}) is None and Reason.from_json("text") is None


def test_a_suspensions_kinds_are_a_list_in_the_language():
    reason = Reason("suspension.faulted", {"bad": 3, "recent": 4, "match": 9, "kinds": [
        Reason("suspension.crash", {"matches": 2}).to_json(), Reason("suspension.timeout", {"matches": 1}).to_json()]})
    assert "(crashed in 2, timed out in 1)" in reasons.render(reason, "en")
    assert "在 2 场中崩溃、在 1 场中超时" in reasons.render(reason, "zh-hans")
    assert "(/matches/9/)" in reasons.render(reason, "pt-br")  # the match page's link survives translation


def test_the_checks_outcome_is_reasons(tmp_path):
    from arena.botcheck import check_bot

    (tmp_path / "bot.toml").write_text("this is not toml [")
    report = check_bot(tmp_path, sandbox=False)
    assert not report.ok and report.outcome == [Reason("check.manifest_invalid")]
    assert report.reason == "bot.toml is invalid"
    assert reasons.render_all(report.outcome, "pt-br") == "o bot.toml é inválido"


def test_lists_are_joined_as_each_language_lists_things():
    from arena.games.speech import listed, speaking

    for language, said in (("en", "a, b, c"), ("pt-br", "a, b, c"), ("zh-hans", "a、b、c")):
        with speaking(language):
            assert listed(["a", "b", "c"]) == said and listed([]) == ""


def test_the_checks_explanations_speak_the_language_being_spoken():
    """The validation log's explanations (for the bot's author) in the author's language: the platform runs the
    check inside `speaking(owner's language)`; outside it (`arena bot check`) they are English."""
    from arena.botcheck import _explain
    from arena.games.speech import speaking
    from arena.match.types import Fault, SeatResult

    seat = SeatResult(seat=0, name="b", sha256="", disqualified=True, faults=[
        Fault("illegal", "answered 'x', which is not the text of a legal action (legal are e.g. 'pass')", 4),
        Fault("illegal", "answered index 9, but there are only 2 legal actions (0..1)", 6),
        Fault("disqualified", "more than 1 faults", 6)])
    english = _explain(seat, [])
    assert english[0].startswith("your bot answered an action that is not legal 2 times: turn 5: answered 'x'")
    with speaking("zh-hans"):
        told = _explain(seat, [])
    assert told == ["你的机器人 2 次回答了不合法的行动：第 5 回合：回答了 'x'，这不是合法行动的文本（合法的例如 'pass'）；"
                    "第 7 回合：回答了索引 9，但只有 2 个合法行动（0..1）",
                    "你的机器人被取消资格（超过 1 次违规）：在平台上它会排在最后"]


def test_a_bots_own_words_in_a_fault_are_shown_as_given_however_they_are_made():
    """A bot chooses its gRPC error's detail: phrases of the arena's nested thousands deep, or one of its
    sentences, come back word for word (never parsed again level by level, never translated as the arena's),
    in bounded time, on every page that re-tells the fault."""
    import time

    from arena.reasons import retell

    nested = "x"
    for _ in range(100):  # ~3,300 characters
        nested = f"stopped serving during Decide ({nested})"
    mimic = "the bot did not start within 5 s"  # what the arena would say, written by the bot
    for detail in (nested, mimic):
        message = f"stopped serving during Decide ({detail})"
        started = time.process_time()
        told = retell(message, "zh-hans")
        assert time.process_time() - started < 5  # not thousands of parses (a busy host: generous)
        assert told.endswith(f"({detail})") or told.endswith(f"（{detail}）")
        assert detail in told and told != message  # the arena's own frame translated around it
    longer = "x"
    for _ in range(2000):
        longer = f"stopped serving during Decide ({longer})"
    started = time.process_time()
    assert retell(longer, "zh-hans") == longer  # too long to be any stored reason: shown as it is
    assert time.process_time() - started < 5
