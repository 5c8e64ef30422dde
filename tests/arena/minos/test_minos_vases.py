"""Vases (rules §8, seed "Objetivos"): highest free slot, simultaneous achievers, late achievers, conditions."""

from __future__ import annotations

from minos_helpers import through_setup

from arena.games.minos.vases import checkpoint, vase_value


def _vase_state(players, vase_id):
    st = through_setup(players)
    st.vases = [{"id": vase_id, "colour": "blue", "slots": [[vp, -1] for vp in ([10, 7, 3] if players > 2 else [10, 3])],
                 "achieved": []}]
    for p in st.players:
        p["parts"]["vases"] = 0
    return st


def test_single_achiever_takes_the_highest_free_slot():
    st = _vase_state(4, "VB3")  # 5 permanent goods
    s = st.turn_order[1]
    st.players[s]["perm"]["wood"] += 4
    checkpoint(st)
    assert st.vases[0]["slots"][0] == [10, s] and st.players[s]["parts"]["vases"] == 10
    checkpoint(st)  # achieved once only
    assert st.players[s]["parts"]["vases"] == 10


def test_simultaneous_achievers_all_gain_the_highest_free_value_on_different_slots():
    st = _vase_state(4, "VB3")
    order = st.turn_order
    for s in order[:3]:
        st.players[s]["perm"]["wood"] += 4
    checkpoint(st)
    assert [st.players[s]["parts"]["vases"] for s in order[:3]] == [10, 10, 10]
    assert [sl[1] for sl in st.vases[0]["slots"]] == order[:3]
    # a fourth achiever later: no free slot, nothing
    st.players[order[3]]["perm"]["wood"] += 4
    checkpoint(st)
    assert st.players[order[3]]["parts"]["vases"] == 0


def test_more_simultaneous_achievers_than_slots_still_score_d20():
    st = _vase_state(4, "VB3")
    st.vases[0]["slots"][0][1] = 99  # 10 taken
    st.vases[0]["slots"][1][1] = 98  # 7 taken
    for p in st.players:
        p["perm"]["wood"] += 4
    checkpoint(st)
    assert [p["parts"]["vases"] for p in st.players] == [3, 3, 3, 3]
    assert sorted(st.vases[0]["achieved"]) == [0, 1, 2, 3]


def test_vase_conditions():
    st = through_setup(2)
    s = 0
    p = st.players[s]
    for reg in st.regions.values():
        reg["w"] = [0, 0]
    for r in (1, 2, 3, 4, 5, 6):
        st.regions[r]["w"][s] = 1
    st.regions[6]["w"][1] = 1
    assert vase_value(st, s, "regions_present") == 6
    assert vase_value(st, s, "regions_dominated") == 5
    p["tracks"] = {"influence": 3, "population": 3, "culture": 3}
    assert vase_value(st, s, "progress_sum") == 9
    p["palace"], p["play"] = ["a", "b"], ["c"]
    assert vase_value(st, s, "play_area_plus_palace_cards") == 3
