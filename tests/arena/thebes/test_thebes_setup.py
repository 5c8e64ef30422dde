"""Setup per player count (seeds 000/001/003, data.json "setup", NOTES decision 11)."""

import pytest

from arena.games import load
from arena.games.thebes.data import DATA, END_TIME, SITES


@pytest.mark.parametrize("players,year,week", [(2, 1901, 0), (3, 1901, 16), (4, 1902, 0)])
def test_markers_start_stacked_on_the_start_space_of_the_player_count(players, year, week):
    """Seed 001: "Place all time markers in a stack on the start space (with 2 or 4 players). With 3 players,
    place the time markers on space 16"; seed 003: on "0" with 2 or 4 players. Week 0 is the start space."""
    obs = load("thebes", players=players).new_state(7).observation(None)
    for seat in obs["seats"]:
        assert (seat["year"], seat["week"], seat["place"]) == (year, week, "warsaw")
        assert seat["permits_used"] == [] and seat["cards"] == [] and seat["tokens"] == []


@pytest.mark.parametrize("players,year", [(2, 1901), (4, 1902)])
def test_a_first_action_of_w_weeks_from_the_start_space_ends_on_week_w_of_the_start_year(players, year):
    """With 2 or 4 players the game lasts (1904 - year) * 52 + 1 weeks: the start space lies before week 1
    (the engine used to start on week 1, one week short). Leaving it passes no year end."""
    state = load("thebes", players=players).new_state(7)
    exchange = state.game.parse_action("exchange")   # at Warsaw: 1 week, no trip
    events = state.apply(exchange)
    seat = state.observation(0)["seats"][0]
    assert (seat["year"], seat["week"]) == (year, 1)
    assert not any(e["type"] == "year_passed" for e in events)
    assert END_TIME - load("thebes", players=players).new_state(7).time[0] == (1904 - year) * 52 + 1


@pytest.mark.parametrize("players", [3, 4])
def test_deck_three_stacks_small_exhibitions_in_stack_2_large_in_stack_3(players):
    obs = load("thebes", players=players).new_state(11).observation(None)
    assert len(obs["display"]) == 4 and all(c["id"].startswith("R") for c in obs["display"])
    pile, stack3 = obs["draw_pile"], obs["stack3"]
    # 81 researcher cards in three stacks of 27; stack 1 (all researcher cards) lies on stack 2
    assert len(pile) == 27 + 27 + 5 and len(stack3) == 27 + 5
    assert all(c.startswith("R") for c in pile[:27])
    assert sorted(c for c in pile if c.startswith("X")) == ["X01", "X02", "X03", "X04", "X05"]
    assert sorted(c for c in stack3 if c.startswith("X")) == ["X06", "X07", "X08", "X09", "X10"]
    assert obs["exhibitions"] == [] and obs["discard"] == [] and not obs["stack3_used"]


def test_two_players_all_exhibitions_in_stack_2():
    """NOTES decision 11: three stacks as usual, all 10 exhibitions shuffled into stack 2."""
    obs = load("thebes", players=2).new_state(3).observation(None)
    pile, stack3 = obs["draw_pile"], obs["stack3"]
    assert len(pile) == 27 + 27 + 10 and len(stack3) == 27
    assert all(c.startswith("R") for c in pile[:27]) and all(c.startswith("R") for c in stack3)
    assert sorted(c for c in pile if c.startswith("X")) == [f"X{i:02d}" for i in range(1, 11)]


def test_bags_hold_30_tokens_and_the_first_dig_bonus_lies_on_each_site():
    obs = load("thebes", players=4).new_state(0).observation(None)
    for bag in obs["bags"]:
        spec = DATA["bags"][bag["site"]]
        assert bag["size"] == 30 and bag["dirt"] == 16 and bag["general"] == 1
        assert bag["specialized"] == [spec["specialized_knowledge_token"]["site"]]
        assert bag["artifacts"] == sorted(spec["artifact_values_in_bag_at_start"])
        # 13 artifacts in all: 12 in the bag and the value-1 bonus on the board
        assert sorted(bag["artifacts"] + [1]) == sorted(spec["artifact_values"])
        assert bag["first_dig_bonus"]
    assert [b["site"] for b in obs["bags"]] == list(SITES)


def test_the_seed_decides_the_shuffle():
    game = load("thebes", players=4)
    a, b, c = (game.new_state(s).observation(None) for s in (1, 1, 2))
    assert a == b
    assert a["draw_pile"] != c["draw_pile"]


@pytest.mark.outside_checkout
def test_the_package_data_is_the_shared_component_data():
    import json
    from pathlib import Path

    from arena.games.thebes.data import DATA_PATH
    shared = Path(__file__).resolve().parents[3].parent / "shared" / "games" / "thebes" / "data.json"
    if not shared.exists():
        pytest.skip(f"{shared} is not part of this checkout")
    assert json.loads(DATA_PATH.read_text()) == json.loads(shared.read_text())
