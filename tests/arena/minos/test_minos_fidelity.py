"""Issue 10: building income at the new ability level, independent JSON snapshots, one option per distinct
outcome (identical dice, card copies)."""

from __future__ import annotations

import json
import random

from minos_helpers import play, random_playout, start_turn, texts, through_setup

from arena.games import load
from arena.games.minos import data as D


def _builder(level: int, **player):
    """Seat s of a 2p game, Master Masons (AB4) at `level`, at the start of a Build turn of strength 5."""
    st = through_setup(2)
    s = st.turn_order[0]
    p = st.players[s]
    p["ability"], p["level"] = "AB4", level
    p.update(player)
    return st, s, p


def _free_city_region(st, s):
    r = next(r for r in sorted(st.regions) if st.regions[r]["sea"] and st.regions[r]["city"] < 0)
    reg = st.regions[r]
    reg["sea"], reg["found"] = [], ""
    reg["w"][s] = 1
    return r


def test_master_masons_first_city_from_level_0_pays_the_new_levels_two_coins():
    # §5.3: (4) the uncovered city slot 1 gives 2 VP and an ability step (level 0 -> 1), (5) building_coins is
    # read at level 1 (2 coins), not at level 0 (1 coin)
    st, s, p = _builder(0, coins=2, temp=dict.fromkeys(D.GOODS, 1), perm=dict.fromkeys(D.GOODS, 0))
    r = _free_city_region(st, s)
    vp = p["vp"]
    start_turn(st, s, "build", 5)
    play(st, "main:start", f"city:{r}")
    assert p["level"] == 1
    assert p["coins"] == 0 + 2
    assert p["vp"] == vp + 2  # level 1 gives no building VP


def test_master_masons_first_city_from_level_1_gains_the_new_levels_building_vp():
    st, s, p = _builder(1, coins=2, temp=dict.fromkeys(D.GOODS, 1), perm=dict.fromkeys(D.GOODS, 0))
    r = _free_city_region(st, s)
    vp = p["vp"]
    start_turn(st, s, "build", 5)
    play(st, "main:start", f"city:{r}")
    assert p["level"] == 2
    assert p["coins"] == 2
    assert p["vp"] == vp + 2 + 1  # slot 1 VP, then level 2's building VP


def test_farm_moving_income_from_7_to_8_raises_the_level_before_building_income():
    # the farm slot's on_uncover is an income step; income space 8's on-enter effect is an ability step
    assert D.INCOME[8]["on_enter"] == [{"op": "ability_step", "n": 1}]
    st, s, p = _builder(1, coins=0, income=7)
    r = p["start_region"]
    st.regions[r]["w"][s] = 2
    p["temp"]["wood"], p["perm"]["wood"] = 1, 0
    vp = p["vp"]
    start_turn(st, s, "build", 5)
    good = D.REGIONS[r]["icons"][0]
    play(st, "main:start", f"farm:{r}:{good}")
    assert p["income"] == 8 and p["level"] == 2
    assert p["coins"] == 2 and p["vp"] == vp + 1  # level 2: 2 coins and 1 VP per building


def test_building_income_without_a_level_change_is_unchanged():
    st, s, p = _builder(2, coins=2, temp=dict.fromkeys(D.GOODS, 1), perm=dict.fromkeys(D.GOODS, 0))
    p["board"]["city"] -= 1  # slot 1 already uncovered: the next city uncovers slot 2 (3 VP, no step)
    r = _free_city_region(st, s)
    vp = p["vp"]
    start_turn(st, s, "build", 5)
    play(st, "main:start", f"city:{r}")
    assert p["level"] == 2 and p["coins"] == 2 and p["vp"] == vp + 3 + 1


# ---------------------------------------------------------------- to_json: an independent snapshot

def _mid_game(name: str, players: int, steps: int):
    st = load(name, players=players).new_state(5)
    rng = random.Random(5)
    for _ in range(steps):
        legal = st.legal_actions()
        st.apply(legal[rng.randrange(len(legal))])
    return st, rng


def _mutate_everything(x):
    """Change every list and dict in a JSON document in place."""
    if isinstance(x, dict):
        for k in list(x):
            if isinstance(x[k], (dict, list)):
                _mutate_everything(x[k])
        x["__edited__"] = 1
    elif isinstance(x, list):
        for v in x:
            if isinstance(v, (dict, list)):
                _mutate_everything(v)
        x.append("__edited__")


def _check_snapshot_is_independent(name: str, players: int, steps: int) -> None:
    st, rng = _mid_game(name, players, steps)
    snap = st.to_json()
    frozen = json.dumps(snap, sort_keys=True)
    _mutate_everything(st.to_json())  # editing a snapshot ...
    assert json.dumps(st.to_json(), sort_keys=True) == frozen  # ... leaves the game alone
    edited = st.to_json()
    _mutate_everything(edited)
    assert json.dumps(st.to_json(), sort_keys=True) == frozen
    for _ in range(60):  # playing on ...
        if st.is_terminal():
            break
        legal = st.legal_actions()
        st.apply(legal[rng.randrange(len(legal))])
    assert json.dumps(snap, sort_keys=True) == frozen  # ... leaves the snapshot alone
    assert json.dumps(st.to_json(), sort_keys=True) != frozen


def test_minos_to_json_is_an_independent_snapshot():
    _check_snapshot_is_independent("minos", 2, 120)  # in the action phase: regions have warriors
    _check_snapshot_is_independent("minos", 1, 120)  # solo: the bot's dicts too


def test_thebes_to_json_is_an_independent_snapshot():
    _check_snapshot_is_independent("thebes", 3, 30)


# ---------------------------------------------------------------- one option per distinct outcome

def _develop_turn(hand, known=()):
    st = through_setup(2)
    s = st.turn_order[0]
    p = st.players[s]
    p["hand"], p["known"] = list(hand), list(known)
    p["coins"], p["temp"] = 20, dict.fromkeys(D.GOODS, 9)
    start_turn(st, s, "develop", 5)
    play(st, "main:start")
    return st, s, p


def test_identical_card_copies_are_played_by_one_action():
    st, _, _ = _develop_turn(["I-07#2", "I-07#1", "I-02#1"])
    plays = [t for t in texts(st) if t.startswith("play:")]
    assert plays == ["play:I-02#1", "play:I-07#1"]
    play(st, "play:I-07#1")
    assert "play:I-07#2" in texts(st)  # the other copy is still there to play


def test_a_copy_others_saw_taken_from_the_offer_is_a_different_choice():
    # playing the copy everyone knows leaves an unknown card in hand; playing the unknown one reveals it
    st, _, _ = _develop_turn(["I-07#1", "I-07#2"], known=["I-07#2"])
    assert [t for t in texts(st) if t.startswith("play:")] == ["play:I-07#1", "play:I-07#2"]


def test_identical_copies_are_moved_into_the_palace_by_one_action():
    st = through_setup(2)
    s = st.turn_order[0]
    p = st.players[s]
    p["play"], p["hand"], p["known"], p["vp"] = ["I-07#1", "I-07#2"], ["I-02#1", "I-02#2"], [], 50
    p["tracks"]["influence"] = 10
    st.phase, st.queue, st.sim, st.commits = "palace", [], [s], {str(s): []}
    opts = texts(st)
    assert opts == ["move:I-02#1", "move:I-07#1", "stop"]
    play(st, "move:I-07#1")
    assert texts(st) == ["move:I-02#1", "move:I-07#2", "stop"]


def test_identical_setup_copies_are_kept_and_tucked_by_one_action():
    st = load("minos", players=2).new_state(8)
    while st.phase != "keep":
        st.apply(st.legal_actions()[0])
    s = st.current_player()
    p = st.players[s]
    k = D.STARTING[p["start_card"]]["setup_keep"]
    p["drawn"] = ["I-07#1", "I-07#2", "I-07#3", "I-02#1", "I-02#2", "I-11#1"][:len(p["drawn"])]
    opts = texts(st)
    kinds = [tuple(c.split("#")[0] for c in t[5:].split(",")) for t in opts]
    assert len(kinds) == len(set(kinds))
    both = next(t for t in opts if t.count("I-07") >= 2 and k >= 2)
    play(st, both)
    assert len([t for t in texts(st) if t.startswith("palace:I-07")]) == 1


def test_a_game_with_the_new_texts_replays_from_json_and_its_action_log():
    st = load("minos", players=4).new_state(3)
    start = st.to_json()
    log = []
    rng = random.Random(3)
    while not st.is_terminal():
        legal = st.legal_actions()
        a = legal[rng.randrange(len(legal))]
        log.append(str(a))
        st.apply(a)
    assert any(t.startswith("draft:") and t.split(":")[1][:-1] in D.COLOURS for t in log)
    game = load("minos", players=4)
    again = game.state_from_json(start)
    for t in log:
        again.apply(game.parse_action(t))
    assert again.to_json() == st.to_json() and again.scores() == st.scores()


def test_random_games_still_finish_for_every_player_count():
    for players in (1, 2, 3, 4):
        st = load("minos", players=players).new_state(11)
        random_playout(st, random.Random(players))
        assert st.is_terminal()
