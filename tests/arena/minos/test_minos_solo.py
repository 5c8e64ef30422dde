"""Solo mode: Rhadamanthus (rules §14, seed "Modo de jogo solo")."""

from __future__ import annotations

import random

from minos_helpers import new, play, random_playout, texts, through_setup

from arena.games.minos import data as D
from arena.games.minos import rhadamanthus as R
from arena.games.minos.end_of_round import end_round
from arena.games.rng import SplitMix64


def test_bot_plays_full_solo_games_and_scores_by_its_rules():
    for seed in range(40):
        st = new(1, seed=seed)
        random_playout(st, random.Random(seed))
        assert st.is_terminal()
        b = st.bot
        assert b["vp"] == sum(b["parts"].values())
        assert b["parts"]["ships"] == 2 * sum(v - 1 for v in b["ships"].values())
        assert b["parts"]["face_down_cards"] == sum(2 if c.startswith("I-") else 4 for c in b["down"])
        assert st.solo_won() == (st.players[0]["vp"] > b["vp"])
        assert st.current_player() == -1


def test_human_never_decides_for_the_bot():
    st = new(1, seed=3)
    while not st.is_terminal():
        assert st.current_player() == 0
        play(st, texts(st)[0])


def test_die_rule_colour_order_highest_lowest_and_tiebreak():
    st = through_setup(1)
    dice = {"r1": ["red", 2], "r2": ["red", 5], "b1": ["blue", 5], "y1": ["yellow", 1], "g1": ["grey", 5]}
    st.dice = dict(dice)
    pool = list(dice)
    assert R.pick_die(st, D.BOT_DECK["RH01"]["front"], pool) == "r2"         # red, highest
    assert R.pick_die(st, D.BOT_DECK["RH07"]["front"], pool) == "r1"         # red/blue, lowest
    assert R.pick_die(st, D.BOT_DECK["RH05"]["front"], pool) == "r2"         # any highest: tie -> red first
    assert R.pick_die(st, D.BOT_DECK["RH03"]["front"], ["r1", "b1"]) == "b1"  # no yellow: any, highest
    assert R.pick_die(st, D.BOT_DECK["RH08"]["front"], pool) == "y1"


def test_placement_a1_then_wild_then_a2_a3_a4_with_intent():
    st = through_setup(1)
    back = D.BOT_DECK["RH01"]["back"]  # expand, build, develop, prepare
    assert R.placement_row(st, back) == "expand"
    st.rows["expand"] = ["r1", "r2"]
    assert R.placement_row(st, back) == "wild"
    st.rows["wild"] = ["r3", "b1"]
    assert R.placement_row(st, back) == "build"
    st.rows = {r: [] for r in st.rows}
    st.rows["expand"] = ["r1", "r2"]
    st.bot["deck"] = ["RH02", "RH01", "RH03"]
    R.bot_draft(st)  # draws RH02 (blue highest), places by RH01's back: expand full -> wild, intent expand
    die = st.bot["drawn"][-1]
    placed = [d for d, o in st.owner.items() if o == 1]
    assert die == "RH02" and st.rows["wild"] == placed and st.bot["intent"][placed[0]] == "expand"
    assert st.dice[placed[0]][0] == "blue"


def test_vase_claim_takes_the_lowest_free_slot():
    st = through_setup(1)
    red = st.vases[0]
    R.claim_vase(st, "red")
    assert red["slots"] == [[10, -1], [3, 1]] and st.bot["parts"]["vases"] == 3
    R.claim_vase(st, "red")  # already has a marker there
    assert st.bot["parts"]["vases"] == 3


def _bot_turn(st, row, value, slot=1, intent=None):
    st.rows = {r: [] for r in st.rows}
    st.owner = {"r1": 1}
    st.dice["r1"] = ["red", value]
    st.rows[row] = ["g1"] * (slot - 1) + ["r1"]
    st.retrieved = []
    if intent:
        st.bot["intent"]["r1"] = intent
    R.bot_turn(st)


def test_prepare_takes_leftmost_offer_face_down_develop_takes_highest_vp_face_up():
    st = through_setup(1)
    st.offer = ["", "I-01#1", "I-11#1", "I-08#1", ""]
    st.decks["I"] = ["I-02#1", "I-02#2", "I-02#3", "I-03#1"]
    _bot_turn(st, "prepare", 6)  # strength 3
    assert st.bot["down"] == ["I-01#1", "I-03#1", "I-02#3"]
    st.offer = ["I-01#2", "I-11#2", "I-12#1", "I-11#3", "I-05#1"]
    _bot_turn(st, "develop", 6)  # strength 2
    assert st.bot["up"] == ["I-11#2", "I-11#3"]


def test_slot_track_bonus_gives_five_vp_and_other_bonuses_are_ignored_d29():
    st = through_setup(1)
    st.offer = ["", "", "", "", ""]
    st.decks["I"], st.discard["I"] = [], []
    _bot_turn(st, "prepare", 1, slot=2)  # S1 + culture step: 5 VP, then nothing to take: 1 VP
    assert st.bot["parts"]["track_bonus"] == 5 and st.bot["parts"]["fallback"] == 1


def test_expand_is_halved_and_fights_or_adds_presence():
    st = through_setup(1)
    b = st.bot
    for reg in st.regions.values():
        reg["w"] = [0, 0]
        reg["sea"] = []
    st.regions[2]["w"] = [0, 1]
    st.regions[2]["sea"] = ["SP2-B", "SP1-D"]
    st.rng = SplitMix64(0)
    token = SplitMix64(0).choice(D.SOLO["randomization_pool"])
    _bot_turn(st, "expand", 6)  # strength 3 -> 2 points
    if 2 in D.BOT_CANDIDATES[token]:
        assert b["parts"]["fights"] >= 3
    assert b["parts"]["fights"] + sum(reg["w"][1] for reg in st.regions.values()) >= 1


def test_presence_places_enough_to_beat_the_rival_at_most_two():
    st = through_setup(1)
    st.regions[5]["w"] = [3, 0]
    st.bot["supply"] = 5
    R._place_presence(st, 5)
    assert st.regions[5]["w"][1] == 2
    st.regions[6]["w"] = [0, 0]
    R._place_presence(st, 6)
    assert st.regions[6]["w"][1] == 1


def test_build_city_then_farm_then_ship_then_vp():
    st = through_setup(1)
    b = st.bot
    for reg in st.regions.values():
        reg["sea"] = []
        reg["w"] = [0, 0]
    class Fixed(SplitMix64):
        def choice(self, seq):
            return "stone"  # candidates 2, 7, 10
    st.rng = Fixed()
    st.regions[2]["w"][1] = 2
    st.regions[2]["city"] = -1
    R._point_build(st)
    assert st.regions[2]["city"] == 1 and b["parts"]["cities"] == 5
    R._point_build(st)  # city there now; farm on the stone icon of region 2
    assert st.regions[2]["farms"][0] == 1 and st.regions[2]["w"][1] == 1
    b["board"]["city"] = 0
    st.regions[2]["farms"][0] = 0
    ships = dict(b["ships"])
    R._point_build(st)
    assert sum(b["ships"].values()) == sum(ships.values()) + 1 and b["ships"]["egypt"] == ships["egypt"] + 1


def test_bot_population_space_moves_from_two_to_four_after_round_two():
    st = through_setup(1)
    st.round = 2
    end_round(st)
    assert st.bot["pop"] == 4


def test_bot_final_fights_where_dominant_or_tied():
    st = through_setup(1)
    for reg in st.regions.values():
        reg["w"] = [0, 0]
        reg["sea"] = []
    st.regions[2]["sea"] = ["SP2-E", "SP1-A"]
    st.regions[2]["w"] = [1, 1]
    st.round = 4
    end_round(st)
    st._advance()
    assert st.is_terminal() and st.bot["parts"]["final_combat"] == 6


def test_bot_deck_is_reshuffled_every_round_and_draws_four_cards():
    st = new(1, seed=5)
    rng = random.Random(5)
    seen = {}
    while not st.is_terminal():
        if st.phase == "groups":
            seen[st.round] = list(st.bot["drawn"])
            assert len(st.bot["drawn"]) == 4 and len(st.bot["deck"]) == 8
        legal = st.legal_actions()
        st.apply(legal[rng.randrange(len(legal))])
    assert sorted(seen) == [1, 2, 3, 4]
