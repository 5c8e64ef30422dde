"""Scoring after rounds 2 and 4, the era switch, final combat, final scoring and the tie-break (§11-12)."""

from __future__ import annotations

from minos_helpers import play, texts, through_setup

from arena.games.minos import data as D
from arena.games.minos.effects import draw_from_deck
from arena.games.minos.end_of_round import end_round
from arena.games.minos.scoring import interim_scoring


def test_farm_scoring_2_4_8_14():
    assert [D.FARM_VP[k] for k in range(5)] == [0, 2, 4, 8, 14]
    st = through_setup(2)
    st.regions[2]["farms"] = [0, 0]
    st.regions[5]["farms"] = [0, -1]
    st.players[0]["board"]["farm"] = 1
    st.players[0]["parts"]["farms"] = 0
    interim_scoring(st)
    assert st.players[0]["parts"]["farms"] == 8


def test_region_dominance_presence_ties_and_towers():
    st = through_setup(3)
    for reg in st.regions.values():
        reg["w"] = [0, 0, 0]
    st.regions[2]["w"] = [3, 1, 0]   # seat 0 dominant, seat 1 presence
    st.regions[5]["w"] = [2, 2, 1]   # tie for most: everybody presence
    st.players[0]["tracks"]["population"] = 4   # 3 / 6
    st.players[1]["tracks"]["population"] = 0   # 1 / 2
    st.players[2]["tracks"]["population"] = 10  # 6 / 12
    st.players[0]["board"]["tower"] = 1          # 2 towers built: +1 per dominated region
    for p in st.players:
        p["parts"]["regions"] = 0
    interim_scoring(st)
    assert [p["parts"]["regions"] for p in st.players] == [6 + 1 + 3, 1 + 1, 6]


def test_era_switch_after_round_two_scoring():
    st = through_setup(2)
    st.round = 2
    old_offer = [c for c in st.offer if c]
    end_round(st)
    assert st.era == "II" and all(c.startswith("II-") for c in st.offer)
    assert all(c in st.discard["I"] for c in old_offer)
    assert st.round == 3


def test_empty_deck_reshuffles_the_discard_d34():
    st = through_setup(2)
    st.discard["I"] = st.decks["I"][:3]
    st.decks["I"] = []
    got = {draw_from_deck(st) for _ in range(3)}
    assert len(got) == 3 and draw_from_deck(st) is None


def _final(players=2):
    st = through_setup(players)
    for reg in st.regions.values():
        reg["w"] = [0] * st.nm
        reg["sea"] = []
    st.round = 4
    for p in st.players:
        p["ability"], p["level"] = "AB1", 0  # no fight discount
    return st


def test_final_combat_removes_level_one_and_majority_holder_may_fight_d27():
    st = _final(3)
    st.regions[2]["sea"] = ["SP2-A", "SP1-A"]   # level I removed, then SP2-A (4 weapons, 5 VP)
    st.regions[2]["w"] = [2, 2, 0]               # tie: more weapons wins
    st.regions[5]["sea"] = ["SP2-E"]              # 6 weapons: nobody can pay -> stays
    st.regions[5]["w"] = [0, 0, 1]
    st.players[0]["weapons"], st.players[1]["weapons"], st.players[2]["weapons"] = 4, 5, 0
    end_round(st)
    st._advance()
    assert st.phase == "final_combat" and st.current_player() == 1
    assert texts(st) == ["fight", "decline"]
    vp = st.players[1]["vp"]
    play(st, "fight")
    assert st.players[1]["weapons"] == 1 and st.players[1]["sea"] == ["SP2-A"]
    assert st.players[1]["parts"]["final_combat"] == 5
    assert st.is_terminal() and st.regions[5]["sea"] == ["SP2-E"]
    assert st.players[1]["vp"] >= vp + 5


def test_final_combat_tie_on_weapons_goes_to_round_four_turn_order():
    st = _final(3)
    st.regions[2]["sea"] = ["SP2-A"]
    st.regions[2]["w"] = [1, 1, 1]
    for p in st.players:
        p["weapons"] = 4
    order4 = list(st.turn_order)
    end_round(st)
    st._advance()
    assert st.current_player() == order4[0]


def test_final_resources_play_area_and_palace_vp():
    st = _final(2)
    p = st.players[0]
    p["coins"], p["weapons"], p["hand"] = 7, 4, ["I-01#1", "I-02#1", "I-03#1"]  # 14 // 5 = 2
    p["play"] = ["I-04#1", "I-05#1"]          # 1 VP each
    p["palace"] = ["II-08#1", "I-11#1"]       # 6 + 3
    end_round(st)
    st._advance()
    assert st.is_terminal()
    assert (p["parts"]["resources"], p["parts"]["play_area"], p["parts"]["palace"]) == (2, 2, 9)
    assert st.scores()[0] == sum(v for k, v in st.score_breakdown()[0].items() if k != "total")


def test_tie_break_by_leftover_resources_then_shared_d28():
    st = _final(3)
    for p in st.players:
        p["vp"] = 10
        p["coins"], p["weapons"], p["hand"] = 0, 0, []
    st.players[1]["coins"] = 3
    assert st.ranking() == [2, 1, 2]
    st.players[0]["coins"] = 3
    assert st.ranking() == [1, 1, 3]


def test_scoring_happens_after_rounds_two_and_four_only_and_era_switches_once():
    import random

    from minos_helpers import new
    for players in (1, 3):
        st = new(players, seed=21)
        rng = random.Random(21)
        events = []
        while not st.is_terminal():
            legal = st.legal_actions()
            events += st.apply(legal[rng.randrange(len(legal))])
        assert [e["round"] for e in events if e["type"] == "scoring"] == [2, 4]
        assert [e["era"] for e in events if e["type"] == "era"] == ["II"]
        assert [e["round"] for e in events if e["type"] == "round"] == [1, 2, 3, 4]
        assert events[-1]["type"] == "game_over"
