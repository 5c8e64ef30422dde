"""The action turn (rules §4.4, §4.6, §5-7): retrieval, slot bonus, Royal Traits, main actions, forgo, extras."""

from __future__ import annotations

import pytest
from minos_helpers import fresh, play, start_turn, texts, through_draft, through_setup

from arena.games.base import IllegalAction
from arena.games.minos import data as D
from arena.games.minos.effects import sources, uncovered


def _state(players=2, seed=0):
    st = through_setup(players, seed)
    return st, st.turn_order[0]


def test_retrieve_highest_die_and_choose_among_ties():
    st = through_draft(2)
    st.sim = []
    st.commits = {"0": [], "1": []}
    s = st.turn_order[0]
    mine = [d for d, o in st.owner.items() if o == s]
    for d in mine:
        st.dice[d][1] = 2
    st.dice[mine[0]][1] = st.dice[mine[1]][1] = 6
    fresh(st)
    st._advance()
    assert st.decision() == "retrieve" and st.current_player() == s
    assert texts(st) == sorted(f"retrieve:{d}" for d in mine[:2])
    play(st, f"retrieve:{mine[1]}")
    assert st.turn["die"] == mine[1] and st.decision() == "turn"


def test_forgo_gives_two_coins_and_turn_needs_bonus_and_traits_first():
    st, s = _state()
    p = st.players[s]
    p["palace"] = ["I-02#1"]  # die 1/2: 1 coin
    start_turn(st, s, "prepare", 2, slot=2)  # 2p prepare slot 2: S1 + 1 culture step
    opts = texts(st)
    assert "bonus" in opts and "trait:I-02#1" in opts and "end" not in opts
    coins = p["coins"]
    play(st, "main:forgo")
    assert p["coins"] == coins + 2
    assert "end" not in texts(st)
    play(st, "trait:I-02#1")  # traits fire even when the action is forgone (seed)
    assert p["coins"] == coins + 3
    play(st, "bonus")
    assert p["tracks"]["culture"] == 1 and st.decision() == "temp_good"
    play(st, "good:wine")
    assert texts(st)[-1] == "end"


def test_traits_trigger_by_row_or_die_value_and_only_from_the_palace():
    st, s = _state()
    p = st.players[s]
    p["palace"] = ["I-03#1", "I-04#1", "I-05#1"]  # prepare: coin / die 3-4: coin / expand: coin
    p["play"] = ["I-03#2"]
    start_turn(st, s, "prepare", 3)
    assert st.turn["traits"] == ["I-03#1", "I-04#1"]


def test_wild_fires_wild_and_die_traits_but_not_the_copied_actions():
    st, s = _state()
    p = st.players[s]
    p["palace"] = ["I-13#1", "I-03#1", "I-02#1"]  # wild: 2 coins / prepare: 1 coin / die 1-2: 1 coin
    start_turn(st, s, "wild", 2)
    assert st.turn["traits"] == ["I-13#1", "I-02#1"]
    assert [t for t in texts(st) if t.startswith("main:start")] == [
        "main:start:prepare", "main:start:develop", "main:start:build", "main:start:expand"]


def test_action_bonus_before_start_during_and_after():
    st, s = _state()
    p = st.players[s]
    p["palace"] = ["I-09#1"]  # prepare: +1 strength
    start_turn(st, s, "prepare", 5)  # slot 1: strength 3
    play(st, "trait:I-09#1", "main:start")
    assert st.turn["points"] == 4
    start_turn(st, s, "prepare", 5)
    play(st, "main:start", "deck", "trait:I-09#1")
    assert st.turn["points"] == 3  # 3 - 1 spent + 1 bonus
    start_turn(st, s, "prepare", 5)
    play(st, "main:forgo", "trait:I-09#1")
    assert st.turn["points"] == 0 and st.turn["main"] == "done"  # lost


def test_prepare_takes_offer_cards_with_refill_or_the_deck_top():
    st, s = _state()
    p = st.players[s]
    start_turn(st, s, "prepare", 5)
    card = st.offer[2]
    top = st.decks["I"][-1]
    play(st, "main:start", "offer:3")
    assert card in p["hand"] and st.offer[2] == top and card in p["known"]
    nxt = st.decks["I"][-1]
    play(st, "deck")
    assert nxt in p["hand"] and nxt not in p["known"]


def test_develop_pays_with_sources_permanent_goods_and_play_area_discounts_d06():
    st, s = _state()
    p = st.players[s]
    p["perm"] = dict.fromkeys(D.GOODS, 0)
    p["temp"] = dict.fromkeys(D.GOODS, 0)
    p["coins"] = 0
    p["hand"] = ["I-07#1"]  # 1 wood + 1 stone: 3 weapons
    p["play"] = ["I-05#1"]  # wood discount icon
    start_turn(st, s, "develop", 5)
    play(st, "main:start")
    assert "play:I-07#1" not in texts(st)
    p["perm"]["stone"] = 1
    assert "play:I-07#1" in texts(st)
    w = p["weapons"]
    play(st, "play:I-07#1")
    assert p["play"] == ["I-05#1", "I-07#1"] and p["weapons"] == w + 3
    assert p["perm"]["stone"] == 1 and p["temp"] == dict.fromkeys(D.GOODS, 0)  # sources are not spent
    # a card in the palace no longer gives its discount
    p["palace"], p["play"] = ["I-05#1"], []
    assert sources(st, s, "wood") == 0


def test_develop_spends_temporary_goods_for_the_uncovered_part():
    st, s = _state()
    p = st.players[s]
    p["perm"] = dict.fromkeys(D.GOODS, 0)
    p["temp"] = dict.fromkeys(D.GOODS, 0)
    p["temp"]["oil"] = 1
    p["coins"] = 1
    p["hand"] = ["I-01#1"]  # 1 oil + 1 coin: 2 temp oil
    start_turn(st, s, "develop", 5)
    play(st, "main:start", "play:I-01#1")
    assert p["coins"] == 0 and p["temp"]["oil"] == 2


def _clear_region(st, r):
    reg = st.regions[r]
    reg["sea"] = []
    reg["found"] = ""
    return reg


def test_farm_returns_a_warrior_covers_the_icon_gains_the_good_and_steps_income_d07():
    st, s = _state()
    p = st.players[s]
    r = p["start_region"]
    p["temp"]["wood"] = 1
    p["perm"]["wood"] = 0
    st.regions[r]["w"][s] = 2
    start_turn(st, s, "build", 5)
    play(st, "main:start")
    icon = D.REGIONS[r]["icons"][1]
    before = p["temp"][icon]
    play(st, f"farm:{r}:{icon}")  # the text names the good of the icon it covers
    assert st.regions[r]["farms"][1] == s and st.regions[r]["w"][s] == 1 and p["supply"] == 7
    assert p["income"] == 1 and p["board"]["farm"] == 3
    assert p["temp"][icon] == before + 1 - (1 if icon == "wood" else 0)
    assert f"farm:{r}:{icon}" not in texts(st)


def test_level_one_tile_blocks_farms_and_cities_but_not_entering():
    st, s = _state()
    p = st.players[s]
    r = next(r for r in sorted(st.regions) if st.regions[r]["sea"])
    st.regions[r]["w"][s] = 1
    p["temp"] = dict.fromkeys(D.GOODS, 5)
    p["coins"] = 10
    start_turn(st, s, "build", 5)
    play(st, "main:start")
    assert not any(t.startswith((f"farm:{r}:", f"city:{r}")) for t in texts(st))
    st.regions[r]["sea"].pop()  # Level II only: blocks nothing
    assert f"city:{r}" in texts(st) and f"farm:{r}:{D.REGIONS[r]['icons'][0]}" in texts(st)


def test_city_takes_the_foundation_tile_and_uncovers_slot_one():
    st, s = _state()
    p = st.players[s]
    r = next(r for r in sorted(st.regions) if st.regions[r]["sea"])
    reg = st.regions[r]
    reg["sea"] = []
    reg["found"] = "F03"  # 4 coins
    reg["w"][s] = 1
    p["temp"] = dict.fromkeys(D.GOODS, 1)
    p["perm"] = dict.fromkeys(D.GOODS, 0)
    p["coins"] = 2
    vp = p["vp"]
    start_turn(st, s, "build", 5)
    play(st, "main:start", f"city:{r}")
    assert reg["city"] == s and reg["found"] == "" and p["found"] == ["F03"]
    assert p["coins"] == 4 and p["vp"] == vp + 2 and p["level"] == 1  # slot 1: 2 VP + 1 ability step
    assert p["temp"]["wood"] == p["temp"]["stone"] == p["temp"]["clay"] == 0


def test_tower_in_own_city_and_ship_arrival_takes_a_trade_bonus_tile():
    st, s = _state()
    p = st.players[s]
    p["ability"], p["level"] = "AB2", 0  # ships start on space 2 (mycenae 2: red trade bonus)
    p["temp"] = dict.fromkeys(D.GOODS, 4)
    p["coins"] = 10
    r = p["start_region"]
    start_turn(st, s, "build", 5)
    play(st, "main:start")
    assert st.decision() == "turn"  # build_start_ship_step needs a ship: nothing to step yet
    assert f"tower:{r}" in texts(st)
    play(st, f"tower:{r}")
    assert st.regions[r]["tower"] and p["board"]["tower"] == 2
    play(st, "ship:mycenae")
    assert p["ships"]["mycenae"] == 2 and st.decision() == "trade"
    assert texts(st) == [f"tile:TR{i}" for i in range(1, 8)]
    w = p["weapons"]
    play(st, "tile:TR1")
    assert p["weapons"] == w + 3 and "TR1" not in st.trade_tiles


def test_build_start_ship_step_is_offered_when_a_ship_exists():
    st, s = _state()
    p = st.players[s]
    p["ability"], p["level"] = "AB2", 0
    p["ships"]["egypt"] = 1
    p["board"]["ship"] = 2
    start_turn(st, s, "build", 5)
    play(st, "main:start")
    assert st.decision() == "ship_step" and texts(st) == ["step:egypt", "stop"]
    play(st, "step:egypt")
    assert p["ships"]["egypt"] == 2


def test_expand_recruit_deploy_march_and_foraging_once_per_region_per_turn_d08():
    st, s = _state()
    p = st.players[s]
    r = p["start_region"]
    start_turn(st, s, "expand", 6)  # strength 3
    play(st, "main:start", "recruit")
    assert (p["supply"], p["reserve"]) == (4, 5)
    adj = D.ADJ[r][0]
    assert f"deploy:{adj}:2" in texts(st)
    far = next(x for x in st.regions if x != r and x not in D.ADJ[r])
    assert not any(t.startswith(f"deploy:{far}:") for t in texts(st))
    icons = uncovered(st, adj)
    play(st, f"deploy:{adj}:2")
    assert st.regions[adj]["w"][s] == 2
    assert st.decision() == "forage" and texts(st) == [f"good:{g}" for g in icons]
    play(st, f"good:{icons[0]}")
    got = dict(p["temp"])
    play(st, f"march:{adj}:{r}:2")  # r already had a warrior: no foraging
    assert st.decision() == "turn" and p["temp"] == got


def test_forage_only_once_per_region_in_a_turn():
    st, s = _state()
    p = st.players[s]
    r = p["start_region"]
    adj = D.ADJ[r][0]
    p["palace"] = ["II-10#1"]  # expand: +1 strength
    start_turn(st, s, "expand", 6)
    play(st, "trait:II-10#1", "main:start", f"deploy:{adj}:1")
    play(st, texts(st)[0])
    play(st, f"march:{adj}:{r}:1")
    play(st, f"march:{r}:{adj}:1")  # enters adj again: already foraged there this turn
    assert st.decision() == "turn"


def test_extra_actions_once_per_type_per_turn_d19():
    st, s = _state()
    p = st.players[s]
    p["temp"]["wine"] = 6
    p["coins"] = 10
    start_turn(st, s, "prepare", 5)
    opts = texts(st)
    assert "extra:craft:wine" in opts and "extra:barter:oil" in opts
    income = p["income"]
    play(st, "extra:craft:wine")
    assert p["perm"]["wine"] >= 1 and p["temp"]["wine"] == 3 and p["income"] == income + 1
    assert not any(t.startswith("extra:craft") for t in texts(st))
    play(st, "extra:barter:oil")
    assert p["coins"] == 7 and not any(t.startswith("extra:barter") for t in texts(st))


def test_fight_pays_weapons_returns_a_warrior_and_reveals_level_two():
    st, s = _state()
    p = st.players[s]
    p["ability"], p["level"] = "AB3", 1  # fight_discount 1, fight_vp_bonus 1
    r = next(r for r in sorted(st.regions) if st.regions[r]["sea"])
    reg = st.regions[r]
    reg["sea"] = ["SP2-A", "SP1-A"]  # level I: 2 weapons, 2 VP + 1 coin
    reg["w"][s] = 1
    p["weapons"] = 1
    start_turn(st, s, "prepare", 5)
    vp, coins = p["vp"], p["coins"]
    play(st, f"extra:fight:{r}")
    assert p["weapons"] == 0 and reg["w"][s] == 0 and p["supply"] == 7
    assert reg["sea"] == ["SP2-A"] and p["sea"] == ["SP1-A"]
    assert p["vp"] == vp + 3 and p["coins"] == coins + 1


def test_fight_cost_is_at_least_one():
    st, s = _state()
    p = st.players[s]
    p["ability"], p["level"] = "AB3", 3
    assert st._fight_cost(s, "SP1-A") == 1


def test_overflow_steps_give_two_vp_d26():
    st, s = _state()
    p = st.players[s]
    p["tracks"]["culture"] = 10
    p["level"] = 3
    p["income"] = 12
    vp = p["vp"]
    st.queue = [{"op": "track", "track": "culture", "n": 1, "p": s}, {"op": "ability_step", "n": 1, "p": s},
                {"op": "income_step", "n": 1, "p": s}]
    st._advance()
    assert p["vp"] == vp + 6 and p["tracks"]["culture"] == 10


def test_illegal_action_raises_and_leaves_the_state_unchanged():
    st, _ = _state()
    before = st.to_json()
    with pytest.raises(IllegalAction) as err:
        st.apply(st.game.parse_action("main:forgo"))
    assert "main:forgo" in str(err.value) and "draft" in str(err.value)
    assert st.to_json() == before
