"""Setup per player count (rules §3, seed "Preparação")."""

from __future__ import annotations

import itertools

import pytest
from minos_helpers import new, play, texts, through_setup

from arena.games.minos import data as D


@pytest.mark.parametrize("players,dice,regions", [(1, 13, 10), (2, 13, 10), (3, 16, 13), (4, 17, 16)])
def test_dice_and_map_follow_the_player_count(players, dice, regions):
    st = new(players)
    assert len(st.dice) == dice
    colours = [c for c, _ in st.dice.values()]
    if players <= 2:  # seed: return 1 die of each colour for 2 players
        assert colours.count("grey") == 4 and colours.count("red") == 3
    if players == 3:  # seed: return 1 grey for 3 players
        assert colours.count("grey") == 4 and colours.count("red") == 4
    assert sorted(st.regions) == list(range(1, regions + 1))


@pytest.mark.parametrize("players,slots", [(1, [10, 3]), (2, [10, 3]), (3, [10, 7, 3]), (4, [10, 7, 3])])
def test_one_vase_of_each_colour_and_the_7vp_slot_covered_with_two(players, slots):
    st = new(players)
    assert [v["colour"] for v in st.vases] == ["red", "blue", "yellow"]
    assert all([vp for vp, _ in v["slots"]] == slots for v in st.vases)


def test_goods_stacks_and_face_down_pile():
    st = new(3)
    assert st.stacks == dict.fromkeys(D.GOODS, 5)
    assert len(st.pile) == 24 and all(st.pile.count(g) == 4 for g in D.GOODS)


def test_offer_has_five_era_one_cards_and_era_two_is_set_aside():
    st = new(2)
    assert len(st.offer) == 5 and all(c.startswith("I-") for c in st.offer)
    assert len(st.decks["I"]) == 67 and len(st.decks["II"]) == 72
    assert st.era == "I"


def test_starting_draft_alternates_card_or_ability_then_the_other_kind():
    st = new(3, seed=4)
    assert st.phase == "setup_pick"
    first = st.current_player()
    opts = texts(st)
    assert "pick:S1" in opts and "pick:AB1" in opts
    play(st, "pick:AB3")
    second = st.current_player()
    assert second == (first + 1) % 3
    play(st, "pick:S1")
    play(st, "pick:S2")
    # pass 2 in reverse order: the third player again, then second, then first; each only the missing kind
    assert st.current_player() == (first + 2) % 3
    assert all(t.startswith("pick:AB") for t in texts(st))
    play(st, "pick:AB1")
    assert st.current_player() == second
    assert all(t.startswith("pick:AB") for t in texts(st))
    play(st, "pick:AB2")
    assert st.current_player() == first
    assert all(t.startswith("pick:S") for t in texts(st))
    assert "pick:S1" not in texts(st)
    play(st, "pick:S9")
    # first player = lowest initiative (S1)
    holder = next(p["seat"] for p in st.players if p["start_card"] == "S1")
    assert st.first == holder and st.turn_order[0] == holder


def test_start_regions_chosen_in_reverse_turn_order_for_four():
    st = new(4, seed=1)
    while st.phase == "setup_pick":
        play(st, texts(st)[0])
    assert st.phase == "start_region"
    order = st.turn_order
    assert st.current_player() == order[-1]
    assert texts(st) == ["start:1", "start:8", "start:11", "start:16"]
    play(st, "start:8")
    assert st.current_player() == order[-2] and "start:8" not in texts(st)


def test_two_players_last_player_chooses_and_the_other_gets_the_partner():
    st = new(2, seed=3)
    while st.phase == "setup_pick":
        play(st, texts(st)[0])
    last = st.turn_order[-1]
    assert st.current_player() == last
    assert texts(st) == ["start:1", "start:3", "start:4", "start:7"]
    play(st, "start:3")
    assert st.players[last]["start_region"] == 3 and st.players[1 - last]["start_region"] == 7


def test_map_tiles_on_non_starting_regions_only_and_players_start_pieces():
    st = through_setup(4, seed=2)
    starts = {p["start_region"] for p in st.players}
    for r, reg in st.regions.items():
        if r in starts:
            assert reg["sea"] == [] and reg["found"] == "" and reg["city"] >= 0
        else:
            assert len(reg["sea"]) == 2 and reg["found"]
            assert D.SEA[reg["sea"][0]]["level"] == 2 and D.SEA[reg["sea"][1]]["level"] == 1
    for p in st.players:
        assert st.regions[p["start_region"]]["w"][p["seat"]] == 1
        assert (p["reserve"], p["supply"]) == (3, 6)
        assert p["board"] == {"city": 2, "tower": 3, "ship": 3, "farm": 4}


def test_starting_card_resources_and_setup_good_without_income_step():
    st = through_setup(2, seed=5)
    for p in st.players:
        sc = D.STARTING[p["start_card"]]
        assert p["perm"][sc["permanent_good"]] == 1 and sum(p["perm"].values()) == 1
        assert p["income"] == 0  # seed: the setup good does not advance the income track
        assert p["coins"] == sc["coins"] and p["weapons"] == sc["weapons"]
        for g, k in sc["temp_goods"].items():
            assert p["temp"][g] == k


def test_starting_hands_draw_keep_three_and_tuck_one_into_the_palace():
    st = new(2, seed=8)
    while st.phase != "keep":
        play(st, texts(st)[0])
    s = st.current_player()
    p = st.players[s]
    draw = D.STARTING[p["start_card"]]["setup_draw"]
    assert len(p["drawn"]) == draw
    keeps = texts(st)
    distinct = {tuple(c.split("#")[0] for c in k[5:].split(",")) for k in keeps}
    assert len(keeps) == len(distinct) <= {6: 20, 5: 10, 4: 4}[draw]  # one option per distinct set of cards
    assert distinct == {tuple(c.split("#")[0] for c in combo)
                        for combo in itertools.combinations(sorted(p["drawn"]), 3)}
    play(st, keeps[0])
    kept = keeps[0][5:].split(",")
    assert texts(st) == [f"palace:{c}" for c in kept]
    play(st, f"palace:{kept[1]}")
    assert st.current_player() != s
    while st.phase == "keep":
        play(st, texts(st)[0])
    assert p["palace"] == [kept[1]] and sorted(p["hand"]) == sorted([kept[0], kept[2]])
    assert len(st.discard["I"]) == sum(D.STARTING[q["start_card"]]["setup_draw"] - 3 for q in st.players)


def test_solo_setup_random_card_and_ability_and_bot_pieces():
    st = new(1, seed=11)
    p = st.players[0]
    assert p["start_card"] and p["ability"] and st.phase == "start_region"
    assert texts(st) == ["start:1", "start:3", "start:4", "start:7"]
    play(st, "start:3")
    b = st.bot
    assert b["start_region"] == 7
    reg = st.regions[7]
    assert reg["city"] == 1 and reg["w"][1] == 1 and b["supply"] == 9
    assert reg["farms"][D.REGIONS[7]["icons"].index("wood")] == 1 and b["board"]["farm"] == 3
    assert b["ships"] == {"egypt": 1, "mycenae": 1, "cyprus": 1}
    assert b["pop"] == 2
    while st.phase != "draft":
        play(st, texts(st)[0])
    assert st.turn_order == [0, 1]  # the human is first player in round 1 [D-32]
    assert reg["sea"] == [] and st.regions[3]["sea"] == []


def test_solo_difficulty_gives_the_bot_starting_vp():
    assert new(1, difficulty="veteran").bot["vp"] == 15
    assert new(1, difficulty="legendary").bot["vp"] == 30
    with pytest.raises(ValueError):
        new(2, difficulty="veteran")
