"""A legal action in words for a person (arena.narration.action_words, the play panel's buttons): every action of a
played Thebes and Minos game gets a label that is not its protocol text, a group heading, the board thing it is
about when there is one (a card, a site, a die, a region, an offered card), and is told in each language."""

from __future__ import annotations

import random

import pytest

from arena import games, narration

KINDS = {"place", "card", "die", "die-face", "region", "offer"}


@pytest.mark.parametrize("game", ["thebes", "minos"])
def test_every_legal_action_of_a_game_reads_in_words_in_every_language(game):
    state = games.load(game, players=2).new_state(7)
    rng = random.Random(7)
    seen: dict[str, set[str]] = {"en": set(), "pt-br": set(), "zh-hans": set()}
    targets = set()
    checked = 0
    while not state.is_terminal() and checked < 3000:
        observation = state.observation(state.current_player())
        for action in state.legal_actions():
            text = str(action)
            for language in seen:
                words = narration.action_words(game, text, observation, language)
                assert words["label"] and words["label"] != text and words["group"], (text, words)
                assert words["target"] is None or words["target"]["kind"] in KINDS
                seen[language].add(words["group"])
            targets |= {narration.action_words(game, text, observation)["target"]["kind"]} \
                if narration.action_words(game, text, observation)["target"] else set()
            checked += 1
        state.apply(rng.choice(state.legal_actions()))
    assert seen["en"] != seen["pt-br"] and seen["en"] != seen["zh-hans"]  # the headings are translated
    assert targets >= ({"place", "card"} if game == "thebes" else {"die-face", "region", "offer"})


def test_the_actions_that_end_a_turn_are_confirmed_first():
    assert narration.action_words("minos", "end")["ends_turn"]
    assert narration.action_words("minos", "main:finish")["ends_turn"]
    assert not narration.action_words("minos", "draft:yellow5:build")["ends_turn"]
    assert narration.action_words("thebes", "dig egypt 5 zeppelin")["ends_turn"]  # a Thebes action is a turn
    words = narration.action_words("thebes", "dig egypt 5 zeppelin shovel", {}, "en")
    assert words["label"] == "Dig in Egypt for 5 weeks, by zeppelin, with a shovel"
    assert words["target"] == {"kind": "place", "id": "egypt"}
