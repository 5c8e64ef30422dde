"""End of round (rules §4.5, seed "Fim da rodada"): income, ships, weapons, palace, dice returned, first player."""

from __future__ import annotations

from minos_helpers import play, texts, through_draft

from arena.games.minos.end_of_round import hand_palace_cost, palace_limit


def _to_income(players=2, seed=0):
    """Round 1 right at the end of the action phase (every die retrieved)."""
    st = through_draft(players, seed)
    st.sim = []
    st.commits = {str(s): [] for s in range(players)}
    st.phase = "actions"
    st.retrieved = list(st.owner)
    st.step_i = 4 * len(st.turn_order)
    st.turn = None
    return st


def test_income_coins_vp_ships_and_weapons_then_palace():
    st = _to_income()
    s = st.turn_order[0]
    p = st.players[s]
    p["ability"], p["level"] = "AB1", 0
    p["income"] = 5  # 5 coins, 2 VP
    p["ships"]["egypt"] = 4  # 3 coins, 1 VP
    p["board"]["ship"] = 2
    p["tracks"]["population"] = 6  # weapon income 3
    coins, vp, w = p["coins"], p["vp"], p["weapons"]
    st._advance()
    # 1 ship uncovered: slot 1 has no modifier; weapon_income_bonus 0
    assert p["coins"] == coins + 5 + 3 and p["vp"] == vp + 2 + 1 and p["weapons"] == w + 3
    assert st.phase == "palace"


def test_ship_income_choices_and_sea_lords_bonus():
    st = _to_income()
    s = st.turn_order[0]
    p = st.players[s]
    p["ability"], p["level"] = "AB2", 1  # +1 coin and +1 VP per ship
    p["ships"]["cyprus"] = 3  # 2 temp goods (any)
    p["board"]["ship"] = 2
    coins = p["coins"]
    st._advance()
    assert st.decision() == "temp_good" and st.current_player() == s
    play(st, "good:clay", "good:wool")
    assert p["temp"]["clay"] >= 1 and p["temp"]["wool"] >= 1
    assert p["coins"] >= coins + 3 + 1


def test_palace_limit_from_influence_play_area_free_hand_costs_vp_d25():
    st = _to_income()
    st._advance()
    s = st.current_player()
    p = st.players[s]
    p["ability"] = "AB1"
    p["tracks"]["influence"] = 3  # palace limit 2
    p["play"] = ["I-07#1"]
    p["hand"] = ["II-08#1", "I-11#1"]  # 6 VP and 3 VP cards
    p["vp"], p["parts"]["play"] = 4, 4 - sum(v for k, v in p["parts"].items() if k != "play")
    opts = texts(st)
    assert "move:I-07#1" in opts and "move:I-11#1" in opts and "move:II-08#1" not in opts
    play(st, "move:I-11#1")
    opts = texts(st)
    assert "move:I-07#1" in opts and not any(o.startswith("move:II") for o in opts)
    play(st, "move:I-07#1")
    assert texts(st) == ["stop"]  # limit reached
    assert p["palace"][-1] != "I-07#1"  # nothing applied before everyone has chosen
    play(st, "stop")
    while st.phase == "palace":
        play(st, "stop")
    assert "I-11#1" in p["palace"] and "I-07#1" in p["palace"] and p["vp"] == 1
    assert p["parts"]["palace_moves"] == -3 and "I-07#1" in p["palace_open"]


def test_royal_scribes_make_hand_cards_cheaper():
    st = _to_income()
    s = st.turn_order[0]
    p = st.players[s]
    p["ability"], p["level"] = "AB5", 0
    assert hand_palace_cost(st, s, "II-08#1") == 4
    p["level"] = 2
    assert hand_palace_cost(st, s, "II-08#1") == 0
    assert palace_limit(st, s) == 2


def test_dice_return_and_first_player_passes_clockwise():
    st = _to_income(3, seed=2)
    first = st.turn_order[0]
    st._advance()
    while st.phase == "palace":
        play(st, "stop")
    assert st.round == 2 and st.turn_order[0] == (first + 1) % 3
    assert st.owner == {} and all(v == [] for v in st.rows.values())
