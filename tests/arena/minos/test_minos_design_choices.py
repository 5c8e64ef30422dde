"""Design choices of the specification (rules.md §17) not covered by the other modules."""

from __future__ import annotations

from minos_helpers import play, start_turn, texts, through_setup

from arena.games.minos import data as D
from arena.games.minos.scoring import interim_scoring


def test_d02_map_is_a_two_row_strip_with_symmetric_adjacency():
    col = {r: (D.REGIONS[r]["coast"], D.REGIONS[r]["column"]) for r in D.REGIONS}
    for a, (ca, xa) in col.items():
        for b, (cb, xb) in col.items():
            if a == b:
                continue
            if ca == cb:
                expect = abs(xa - xb) == 1
            elif ca == "north":
                expect = xb in (xa, xa - 1)
            else:
                expect = xb in (xa, xa + 1)
            assert (b in D.ADJ[a]) == expect, (a, b)


def test_d04_action_board_slots_per_player_count():
    assert {n: [len(D.BOARD[n][r]) for r in D.ROWS] for n in (2, 3, 4)} == {
        2: [2, 2, 2, 2, 2], 3: [3, 3, 3, 3, 2], 4: [4, 4, 4, 4, 3]}
    st = through_setup(1)
    assert st.board_n == 2 and len(st.slot_data("wild", 2)["bonus"]) == 1


def test_d12_income_space_on_enter_effects():
    st = through_setup(2)
    p = st.players[0]
    p["income"] = 1
    st.queue = [{"op": "income_step", "n": 2, "p": 0}]
    st._advance()  # space 2: recruit 1; space 3: nothing
    assert p["income"] == 3 and (p["supply"], p["reserve"]) == (5, 4)


def test_d13_master_masons_gain_coins_per_building():
    st = through_setup(2)
    s = st.turn_order[0]
    p = st.players[s]
    p["ability"], p["level"] = "AB4", 2  # 2 coins and 1 VP per building
    p["temp"] = dict.fromkeys(D.GOODS, 3)
    p["coins"] = 1
    start_turn(st, s, "build", 5)
    vp = p["vp"]
    play(st, "main:start", "ship:egypt")
    assert p["coins"] == 0 + 2 + 2  # paid 1, slot 1 uncovered: 2 coins, masons: 2 coins
    assert p["vp"] == vp + 1


def test_d16_decks_hold_24_cards_three_copies_each():
    for era in ("I", "II"):
        ids = [c.split("#")[0] for c in D.DECK_INSTANCES[era]]
        assert len(ids) == 72 and len(set(ids)) == 24 and all(ids.count(i) == 3 for i in set(ids))


def test_d22_slot_bonus_action_resolves_the_games_tile():
    st = through_setup(2)
    s = st.turn_order[0]
    p = st.players[s]
    st.bonus_action = "BA5"  # 2 weapons
    start_turn(st, s, "expand", 1, slot=2)  # S1 + bonus action + 1 weapon
    w = p["weapons"]
    play(st, "bonus")
    assert p["weapons"] == w + 3


def test_d36_named_permanent_good_falls_back_to_the_face_down_pile():
    st = through_setup(2)
    p = st.players[0]
    st.stacks["oil"] = 0
    n_pile = st.pile.count("oil")
    st.queue = [{"op": "perm_good", "good": "oil", "p": 0}]
    st._advance()
    assert p["perm"]["oil"] >= 1 and st.pile.count("oil") == n_pile - 1 and p["income"] == 1
    st.pile = [g for g in st.pile if g != "oil"]
    st.queue = [{"op": "perm_good", "good": "any", "p": 0}]
    st._advance()
    assert "good:oil" not in texts(st) and "good:wood" in texts(st)


def test_d32_bot_scores_farms_and_regions_with_its_population_space():
    st = through_setup(1)
    for reg in st.regions.values():
        reg["w"] = [0, 0]
    st.regions[2]["w"] = [0, 2]  # dominant: 4 at space 2
    st.regions[5]["w"] = [1, 1]  # tie: presence 2
    st.bot["parts"]["regions"] = st.bot["parts"]["farms"] = 0
    interim_scoring(st)
    assert st.bot["parts"]["regions"] == 6 and st.bot["parts"]["farms"] == 2  # its start farm
    st.bot["pop"] = 4
    st.bot["parts"]["regions"] = 0
    interim_scoring(st)
    assert st.bot["parts"]["regions"] == 6 + 3
