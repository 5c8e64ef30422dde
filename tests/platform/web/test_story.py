"""The replay's story (arena.narration with arena.games.<game>.narrate), as the viewer receives it: every turn in
words naming the action, score changes that add up to the result with their causes, chapters, scoring moments,
and nothing a seat's view hides (no hidden card of another seat is ever named in that seat's story)."""

from __future__ import annotations

import json

import pytest

from arena import narration
from arena import replay as replays
from arena.games.minos import data as D
from tests.platform.web.conftest import play_replay


def story_of(replay: dict, seat: int | None) -> tuple[list[dict], dict]:
    frames = replays.frames(replay, seat)
    names = [s["name"] for s in replay["header"]["seats"]]
    return frames, narration.story(replay["header"]["game"], frames, names)


@pytest.mark.parametrize("game,players,policy", [("thebes", 4, "greedy"), ("thebes", 2, "random"),
                                                 ("minos", 4, "random"), ("minos", 1, "random")])
def test_scores_add_up_to_the_result_with_a_cause_for_each_change(game, players, policy):
    replay = play_replay(game, players, 5, [f"p{i}" for i in range(players)], policy=policy)
    frames, story = story_of(replay, None)
    assert len(story["turns"]) == len(frames) == len(story["scores"]) == len(story["chapters"])
    final = [s["score"] for s in replay["result"]["seats"]]
    assert story["scores"][-1][:players] == pytest.approx(final)
    assert [p["total"] for p in story["parts"]][:players] == pytest.approx(final)
    for seat in range(len(story["series"])):
        moved = sum(d["delta"] for t in story["turns"] for d in t["deltas"] if d["seat"] == seat)
        assert moved == pytest.approx(story["scores"][-1][seat] - story["scores"][0][seat])
    for t in story["turns"]:
        for d in t["deltas"]:
            assert d["cause"], f"a score change without its cause: {t}"
    assert story["turns"][-1]["scoring"] == "final scoring"
    if game == "minos" and players == 1:
        assert story["series"] == ["p0", "Rhadamanthus"]


def test_thebes_turns_name_the_action_and_the_cards():
    replay = play_replay("thebes", 4, 7, ["ann", "bob", "cy", "dee"])
    _, story = story_of(replay, None)
    words = {"take": "takes", "dig": "digs in", "exchange": "exchanges the display", "exhibit": "holds the exhibition"}
    for d, t in zip(replay["decisions"], story["turns"][1:]):
        kind = d["action"].split()[0]
        assert t["text"].startswith(["ann", "bob", "cy", "dee"][d["seat"]] + " ")
        assert words[kind] in t["text"], (d["action"], t["text"])
        if kind in ("take", "exhibit"):
            assert d["action"].split()[1] in t["text"]
    assert any(t["scoring"] and t["scoring"].startswith("exhibition") for t in story["turns"]) or not any(
        d["action"].startswith("exhibit") for d in replay["decisions"])
    assert story["chapters"][0] == "1902" and story["chapters"][-1] == "1904"


def test_a_seat_view_story_never_names_what_the_seat_could_not_see():
    replay = play_replay("minos", 2, 9, ["me", "you"], policy="random")
    omni_frames, _ = story_of(replay, None)
    frames, story = story_of(replay, 0)
    hidden_decisions = 0
    for i, (omni, mine, turn) in enumerate(zip(omni_frames, frames, story["turns"])):
        hand = set(omni["observation"]["player_states"][1]["hand"])
        seen = set(mine["observation"]["player_states"][1]["hand"])
        before = set(omni_frames[i - 1]["observation"]["player_states"][1]["hand"]) if i else set()
        seen_before = set(frames[i - 1]["observation"]["player_states"][1]["hand"]) if i else set()
        hidden = (hand - seen) & (before - seen_before) if i else hand - seen
        said = json.dumps(turn)
        # the view's own frames, up to this one: a card of the same kind seen there may be named
        seen_ids = json.dumps([f["observation"] for f in frames[max(0, i - 1):i + 1]] + [mine["events"]])
        for card in hidden:
            assert card not in said, f"turn {i} names {card}, hidden from seat 0: {said}"
            name = D.card_of(card)["name"]
            assert name not in said or card.split("#")[0] in seen_ids, f"turn {i} names {name} ({card}), hidden from seat 0"
        if i and mine["action"] is None:
            hidden_decisions += 1
            assert "hidden in this view" in turn["text"]
    assert hidden_decisions > 0


@pytest.mark.parametrize("players", [1, 2, 4])
def test_minos_story_names_cards_vases_and_tiles_instead_of_codes(players):
    """A spectator reads "uses the Royal Trait of Village Elders", "defeats the Sea Peoples (level 2: 4 weapons)",
    never "I-10#2", "SP2-D", "F07" or "VR1"."""
    import re

    replay = play_replay("minos", players, 5, [f"p{i}" for i in range(players)], policy="random")
    _, story = story_of(replay, None)
    code = re.compile(r"\b(?:I{1,2}-\d\d|F\d\d|SP\d-[A-Z]|T[BR]\d|V[A-Z]\d|S\d|AB\d)\b")
    texts = [x for t in story["turns"] for x in [t["text"], *t["lines"], t["scoring"] or ""]]
    assert not [x for x in texts if code.search(x)][:5]
    assert any(D.CARDS[c]["name"] in " ".join(texts) for c in D.CARDS), "cards are named"
    glossary = story["glossary"]
    assert glossary["F01"] == "foundation: 3 VP" and glossary["SP2-A"].startswith("Sea Peoples 2")
