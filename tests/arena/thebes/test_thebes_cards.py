"""Taking researcher cards: refill from the pile, drawn exhibitions push a→b→c→discard, deck exhaustion."""

from thebes_positions import Position


def _obs(state):
    return state.observation(None)


def test_the_taken_card_is_replaced_by_the_top_of_the_pile():
    state = Position(4).display("R36", "R37", "R38", "R39").pile_top("R50").only(0, "rome").state()
    events = state.apply_text("take R36")
    obs = _obs(state)
    assert [c["id"] for c in obs["seats"][0]["cards"]] == ["R36"]
    assert [c["id"] for c in obs["display"]] == ["R50", "R37", "R38", "R39"]
    assert {"type": "card_drawn", "slot": 0, "card": "R50"} in events


def test_a_drawn_exhibition_goes_to_slot_a_and_another_card_fills_the_display():
    state = Position(4).display("R36").exhibitions().pile_top("X01", "R50").only(0, "rome").state()
    events = state.apply_text("take R36")
    obs = _obs(state)
    assert [(x["slot"], x["id"]) for x in obs["exhibitions"]] == [("a", "X01")]
    assert obs["display"][0]["id"] == "R50"
    assert {"type": "exhibition_drawn", "card": "X01"} in events


def test_exhibitions_shift_a_to_b_to_c_and_the_one_pushed_off_c_is_discarded():
    state = Position(4).display("R36").exhibitions("X02", "X03", "X04").pile_top("X01", "R50") \
        .only(0, "rome").state()
    events = state.apply_text("take R36")
    obs = _obs(state)
    assert [(x["slot"], x["id"]) for x in obs["exhibitions"]] == [("a", "X01"), ("b", "X02"), ("c", "X03")]
    assert obs["discard"][-1] == "X04"
    assert {"type": "exhibitions_shifted", "slots": ["X01", "X02", "X03"]} in events
    assert {"type": "exhibition_discarded", "card": "X04"} in events


def test_every_exhibition_moves_on_one_slot_and_the_one_in_c_is_discarded_even_behind_an_empty_slot():
    """Seeds 000/001/003: the cards move a→b, b→c and "if a card is in (c), it is discarded"; an empty slot
    does not shelter the card in c (the engine's old decision D19 kept it)."""
    state = Position(4).display("R36").exhibitions("X02", None, "X04").pile_top("X01", "R50") \
        .only(0, "rome").state()
    events = state.apply_text("take R36")
    obs = _obs(state)
    assert [(x["slot"], x["id"]) for x in obs["exhibitions"]] == [("a", "X01"), ("b", "X02")]
    assert obs["discard"][-1] == "X04"
    assert {"type": "exhibition_discarded", "card": "X04"} in events
    state = Position(4).display("R36").exhibitions(None, "X02", None).pile_top("X01", "R50") \
        .only(0, "rome").state()
    events = state.apply_text("take R36")
    assert [(x["slot"], x["id"]) for x in _obs(state)["exhibitions"]] == [("a", "X01"), ("c", "X02")]
    assert {"type": "exhibitions_shifted", "slots": ["X01", "", "X02"]} in events
    assert not any(e["type"] == "exhibition_discarded" for e in events)


def test_first_exhaustion_shuffles_the_discard_pile_with_stack_3():
    p = Position(4).display("R36").only(0, "rome")
    p.move_all("draw_pile", "discard")
    before = _obs(p.state())
    assert before["draw_pile_count"] == 0
    pool = set(before["discard"]) | set(before["stack3"])
    state = p.state()
    events = state.apply_text("take R36")
    obs = _obs(state)
    assert obs["stack3_used"] and obs["stack3_count"] == 0
    assert {"type": "deck_rebuilt", "with_stack3": True, "cards": len(pool)} in events
    # everything drawn or still in the pile came from the old discard pile and stack 3
    in_play = set(obs["draw_pile"]) | {c["id"] for c in obs["display"][:1]} | {x["id"] for x in obs["exhibitions"]}
    in_play |= set(obs["discard"])
    assert in_play - {c["id"] for c in obs["display"][1:]} == pool


def test_later_exhaustions_shuffle_the_discard_pile_alone():
    p = Position(4).display("R36").only(0, "rome")
    p.move_all("draw_pile", "discard")
    p.move_all("stack3", "discard")
    p.doc["stack3_used"] = True
    state = p.state()
    n = len(state.discard)
    events = state.apply_text("take R36")
    assert {"type": "deck_rebuilt", "with_stack3": False, "cards": n} in events
    assert state.stack3 == [] and state.stack3_used


def test_with_draw_and_discard_piles_empty_the_slot_stays_empty_and_play_goes_on():
    """NOTES decision 8."""
    p = Position(4).display("R36", "R37").exhibitions().only(0, "rome")
    # park every other card with seat 3
    for key in ("draw_pile", "stack3", "discard"):
        for cid in list(p.doc[key]):
            p.give(3, cid)
    state = p.state()
    events = state.apply_text("take R36")
    obs = _obs(state)
    assert [c["id"] for c in obs["display"]] == ["R37"]
    assert {"type": "slot_left_empty", "slot": 0} in events
    assert not state.is_terminal() and state.legal_actions()


def test_an_exchange_that_finds_the_pile_empty_rebuilds_it_with_the_cards_it_just_discarded():
    """Decision D28: the pile is rebuilt when a card must be drawn from it, so the 4 exchanged cards are in the
    new pile (with the discard pile, and stack 3 the first time)."""
    p = Position(4).display("R36", "R37", "R38", "R39").exhibitions().only(0, "warsaw")
    p.move_all("draw_pile", "discard")
    p.move_all("stack3", "discard")
    p.doc["stack3_used"] = True
    for cid in list(p.doc["discard"]):
        p.give(3, cid)          # nothing else anywhere: only the 4 displayed cards can come back
    state = p.state()
    events = state.apply_text("exchange")
    assert {"type": "deck_rebuilt", "with_stack3": False, "cards": 4} in events
    assert sorted(c["id"] for c in _obs(state)["display"]) == ["R36", "R37", "R38", "R39"]
