"""Observations show only what a seat may know (rules §15.4-15.5)."""

from __future__ import annotations

import json
import random

from minos_helpers import new, play, texts, through_draft, through_setup

from arena.games.minos import data as D
from arena.games.minos.observation import trait_text


def _swap_hidden(st, seat_hidden):
    """Same position except hidden information: seat_hidden's unknown hand cards, deck orders, pile order."""
    other = st.clone()
    p = other.players[seat_hidden]
    unknown = [c for c in p["hand"] if c not in p["known"]]
    deck = other.decks[other.era]
    for c in unknown:
        i = p["hand"].index(c)
        p["hand"][i], deck[0] = deck[0], c
    other.rng.shuffle(deck)
    other.rng.shuffle(other.decks["II"])
    other.rng.shuffle(other.pile)
    for reg in other.regions.values():
        if len(reg["sea"]) == 2:
            reg["sea"][0] = "SP2-A" if reg["sea"][0] != "SP2-A" else "SP2-B"
    return other


def test_hidden_information_does_not_change_an_observation():
    st = through_draft(3, seed=4)
    for s in range(3):
        for h in range(3):
            if h == s:
                continue
            other = _swap_hidden(st, h)
            assert other.to_json() != st.to_json()
            assert other.observation(s) == st.observation(s)
    assert _swap_hidden(st, 1).observation(None) != st.observation(None)


def test_own_hand_visible_others_only_offer_cards_and_counts():
    st = through_setup(2)
    a, b = 0, 1
    st.players[b]["hand"] = ["I-01#1", "I-02#1", "II-03#1"]
    st.players[b]["known"] = ["I-02#1"]
    ob = st.observation(a)["player_states"][b]
    assert ob["hand"] == ["I-02#1"] and ob["hand_count"] == 3
    assert (ob["hand_unknown_i"], ob["hand_unknown_ii"]) == (1, 1)
    assert st.observation(b)["player_states"][b]["hand"] == ["I-01#1", "I-02#1", "II-03#1"]


def test_palace_cards_are_public_because_era_and_trait_name_the_card_d35_e20():
    # every (era, Royal Trait) belongs to exactly one card: showing them (the seed leaves the trait visible)
    # shows the card, so the engine shows the card itself to everyone (RULES.md E-20)
    by_trait: dict[tuple[str, str], set[str]] = {}
    for c in D.CARDS:
        by_trait.setdefault((D.CARDS[c]["era"], trait_text(c + "#1")), set()).add(c)
    assert all(len(ids) == 1 for ids in by_trait.values())
    st = through_setup(2)
    p = st.players[1]
    p["palace"] = ["I-11#1", "I-02#1"]
    p["palace_open"] = ["I-02#1"]
    pal = st.observation(0)["player_states"][1]["palace"]
    assert pal[0] == {"card": "I-11#1", "era": "I", "trait": "die 5/6: vp 1"}
    assert pal[1]["card"] == "I-02#1"
    assert st.observation(1)["player_states"][1]["palace"] == pal


def test_level_two_tiles_hidden_while_covered():
    st = through_setup(2)
    r = next(r for r, reg in st.regions.items() if len(reg["sea"]) == 2)
    view = next(x for x in st.observation(0)["regions"] if x["id"] == r)
    assert view["sea"][0] == "hidden" and view["sea"][1] == st.regions[r]["sea"][1]
    omni = next(x for x in st.observation(None)["regions"] if x["id"] == r)
    assert omni["sea"] == st.regions[r]["sea"]


def test_simultaneous_choices_stay_hidden_until_everyone_has_chosen():
    st = through_draft(3, seed=1)
    first = st.current_player()
    before = [st.observation(s) for s in range(3)]
    play(st, texts(st)[-1])
    second = st.current_player()
    ob = st.observation(second)
    assert ob["player_states"][first]["pending"] == []
    assert ob["player_states"][first]["tracks"] == before[second]["player_states"][first]["tracks"]
    assert st.observation(first)["player_states"][first]["pending"] != [] or texts(st)


def test_setup_draw_hidden_from_others():
    st = new(2, seed=8)
    while st.phase != "keep":
        play(st, texts(st)[0])
    s = st.current_player()
    assert st.observation(s)["player_states"][s]["setup_drawn"]
    assert st.observation(1 - s)["player_states"][s]["setup_drawn"] == []


def test_observations_are_json_and_solo_shows_only_the_top_bot_card_back():
    st = new(1, seed=2)
    rng = random.Random(2)
    for _ in range(60):
        legal = st.legal_actions()
        st.apply(legal[rng.randrange(len(legal))])
    ob = st.observation(0)
    json.dumps(ob)
    assert "hidden" not in ob and "hidden" in st.observation(None)
    assert ob["bot"]["deck_top_back"] and "deck" not in ob["bot"]


def test_triggered_traits_of_palace_cards_are_public_e20():
    from minos_helpers import start_turn
    st = through_setup(2)
    s = st.turn_order[0]
    p = st.players[s]
    p["palace"] = ["I-04#1", "I-14#1"]
    p["palace_open"] = ["I-14#1"]
    start_turn(st, s, "prepare", 3)
    assert st.observation(1 - s)["turn"]["traits"] == ["I-04#1", "I-14#1"] == st.observation(s)["turn"]["traits"]
    before = st.clone()
    events = play(st, "trait:I-04#1")
    assert before.redact_decision(s, 1 - s, "trait:I-04#1", events) == ("trait:I-04#1", events)


def test_solo_bot_deck_order_below_the_top_card_is_hidden():
    st = through_draft(1, seed=6)
    other = st.clone()
    deck = other.bot["deck"]
    deck[1:] = deck[1:][::-1]
    assert other.to_json() != st.to_json()
    assert other.observation(0) == st.observation(0)
    deck[0], deck[1] = deck[1], deck[0]
    if D.BOT_DECK[deck[0]]["back"] != D.BOT_DECK[deck[1]]["back"]:
        assert other.observation(0) != st.observation(0)  # the top card's back is public
