"""Rolling, the draft with the row ordering rule, and progress-track groups (rules §4.1-4.3)."""

from __future__ import annotations

from minos_helpers import play, texts, through_draft, through_setup

from arena.games.minos import data as D
from arena.games.minos.draft import roll
from arena.games.rng import SplitMix64


class FixedRng(SplitMix64):
    """Returns queued die faces first, then behaves as a normal RNG."""

    def __init__(self, faces):
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a, b):
        return self.faces.pop(0) if self.faces else super().randint(a, b)


def test_reroll_all_dice_when_six_show_the_same_value():
    st = through_setup(2)
    first = [3] * 6 + [1, 2, 4, 5, 1, 2, 4]         # six 3s: reroll everything (seed: 6, not 5)
    second = [3] * 5 + [1, 2, 4, 5, 6, 1, 2, 4]   # five 3s: kept
    st.rng = FixedRng(first + second)
    roll(st)
    assert [v for _, v in st.dice.values()] == second


def test_draft_offers_every_distinct_pool_die_on_every_row_with_a_free_slot():
    st = through_setup(2)
    faces = {f"{c}{v}" for c, v in st.dice.values()}
    opts = texts(st)
    assert len(opts) == len(faces) * 5 and len(set(opts)) == len(opts)
    st.rows["wild"] = ["r1", "r2"]  # wild full (2 slots with 2 players)
    for d in ("r1", "r2"):
        st.owner[d] = 1
    assert not any(t.endswith(":wild") for t in texts(st))


def test_identical_dice_are_one_draft_option_and_the_text_names_colour_and_value():
    st = through_setup(2)
    for d in st.dice:
        st.dice[d][1] = 1 + list(st.dice).index(d) % 6
    st.dice["r1"][1] = st.dice["r2"][1] = 5
    opts = texts(st)
    assert "draft:red5:build" in opts
    assert sum(t.startswith("draft:red5:") for t in opts) == 5  # once per row, not once per die
    seat = st.current_player()
    events = play(st, "draft:red5:build")
    assert st.owner == {"r1": seat}  # the first die of that face in id order
    assert {"type": "place", "seat": seat, "die": "r1", "row": "build"} in events
    assert "draft:red5:build" in texts(st)  # r2 is still in the pool
    play(st, "draft:red5:build")
    assert st.owner["r2"] != -1 and not any(t.startswith("draft:red5:") for t in texts(st))


def test_row_sorting_matches_the_specification_example():
    st = through_setup(4)
    for d, v in (("r1", 5), ("r2", 3), ("r3", 5), ("r4", 2)):
        st.dice[d][1] = v
    for seat, d in enumerate(("r1", "r2", "r3", "r4")):
        st._place(seat, d, "prepare")
    assert st.rows["prepare"] == ["r4", "r2", "r1", "r3"]
    assert st.die_place("r1") == ("prepare", 3)
    assert st.slot_data("prepare", 3) == {"strength": 2, "bonus": [{"op": "coins", "n": 1}]}
    assert st.slot_data("prepare", 4)["strength"] == 1


def test_each_player_places_four_dice_in_turn_order():
    st = through_setup(3, seed=3)
    order = st.turn_order
    seen = []
    while st.phase == "draft":
        seen.append(st.current_player())
        play(st, texts(st)[0])
    assert seen == order * 4
    assert sorted(st.owner.values()) == sorted(order * 4)


def _groups(st, seat, dice):
    st.owner = {}
    st.rows = {r: [] for r in D.ROWS}
    for d, (colour, value), row in zip(("r1", "b1", "y1", "g1"), dice, D.ROWS):
        st.dice[d] = [colour, value]
        st.owner[d] = seat
        st.rows[row].append(d)
    st.sim = [seat]
    st.phase = "groups"
    st.commits = {}
    return texts(st)


def test_groups_need_nine_grey_joins_but_never_alone_and_no_die_twice():
    st = through_setup(2)
    st.players[0]["ability"] = "AB2"  # threshold stays 9
    assert _groups(st, 0, [("red", 5), ("grey", 4), ("blue", 3), ("yellow", 2)]) == [
        "groups:none", "groups:influence"]
    # grey alone never forms a group
    assert _groups(st, 0, [("grey", 6), ("grey", 6), ("grey", 6), ("blue", 1)]) == [
        "groups:none", "groups:population"]
    # two groups need disjoint dice: red 6 + grey 3 and red 5 + grey 4
    assert _groups(st, 0, [("red", 6), ("red", 5), ("grey", 3), ("grey", 4)]) == [
        "groups:none", "groups:influence", "groups:influence,influence"]
    # mixed non-grey colours cannot share a group
    assert _groups(st, 0, [("red", 6), ("blue", 6), ("yellow", 1), ("yellow", 1)]) == ["groups:none"]


def test_group_cap_is_two_groups_d11():
    st = through_setup(2)
    st.players[0]["ability"] = "AB1"
    st.players[0]["level"] = 3  # threshold 6: three groups would be possible without the cap
    opts = _groups(st, 0, [("red", 6), ("blue", 6), ("yellow", 6), ("grey", 1)])
    assert max(len(o.split(",")) for o in opts) == 2
    assert "groups:influence,population" in opts


def test_stargazers_threshold_and_group_vp_ab1():
    st = through_draft(2)
    p = st.players[0]
    p["ability"], p["level"] = "AB1", 0
    assert "groups:influence" in _groups(st, 0, [("red", 5), ("grey", 3), ("blue", 1), ("yellow", 1)])
    p["level"] = 1
    st.dice["r1"], st.dice["g1"] = ["red", 5], ["grey", 2]
    for d in list(st.owner):
        st.owner[d] = 1
    st.owner["r1"] = st.owner["g1"] = 0
    st.sim = [0, 1]
    vp, infl = p["vp"], p["tracks"]["influence"]
    play(st, "groups:influence")
    assert p["tracks"]["influence"] == infl  # committed, not applied until everyone has chosen
    play(st, "groups:none")
    assert p["tracks"]["influence"] == infl + 1 and p["vp"] >= vp + 1
    assert p["parts"]["play"] >= 1


def test_group_steps_resolve_on_enter_effects_in_track_order():
    st = through_draft(2)
    p = st.players[st.turn_order[0]]
    st.sim = []
    st.commits = {str(s): [] for s in range(2)}
    st.commits[str(p["seat"])] = ["influence", "culture"]
    coins = p["coins"]
    st._advance()
    assert p["tracks"]["influence"] == 1 and p["coins"] == coins + 2  # influence 1: 2 coins
    assert st.decision() == "temp_good"  # culture 1: one temporary good of any type
    play(st, "good:oil")
    assert p["tracks"]["culture"] == 1
