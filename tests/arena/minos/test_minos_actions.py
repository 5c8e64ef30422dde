"""Action texts: one canonical form, exact parse/format, structured form."""

from __future__ import annotations

import random

import pytest
from minos_helpers import new

from arena.games.base import ActionParseError
from arena.games.minos.actions import MinosAction, parse_action


def test_every_legal_action_round_trips_through_its_text():
    for players in (1, 2, 3, 4):
        st = new(players, seed=players)
        rng = random.Random(players)
        while not st.is_terminal():
            legal = st.legal_actions()
            assert len(set(legal)) == len(legal)  # each option once
            for a in legal:
                assert parse_action(str(a)) == a
                d = a.to_dict()
                assert d["text"] == str(a) and ":".join([d["kind"], *d["args"]]) == str(a)
            st.apply(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("text", ["", "draft:r1", "draft:x1:build", "keep:I-02#1,I-01#1", "groups:culture,influence",
                                  "main:start:wild", "end ", "Deck", "move:I-01",
                                  # minos-1 forms and near misses of the readable ones (minos-2)
                                  "draft:r1:build", "farm:5:0", "draft:red7:build", "draft:red05:build",
                                  "draft:Red5:build", "draft:purple5:build", "farm:5:Wood", "farm:5:gold"])
def test_non_canonical_texts_are_rejected(text):
    with pytest.raises(ActionParseError):
        parse_action(text)


def test_actions_are_values():
    assert MinosAction("end") == parse_action("end")
    assert len({parse_action("end"), MinosAction("end")}) == 1
    assert parse_action("march:3:5:2").to_dict() == {"text": "march:3:5:2", "kind": "march", "args": ["3", "5", "2"]}


def test_readable_texts_parse_exactly():
    for text in ("draft:red5:build", "draft:grey1:wild", "draft:yellow6:prepare", "farm:5:wool", "farm:16:wine"):
        assert str(parse_action(text)) == text
    assert parse_action("draft:blue3:expand").args == ["blue3", "expand"]
