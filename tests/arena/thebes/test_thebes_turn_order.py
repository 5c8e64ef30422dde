"""Turn order by the time track: furthest back acts; on a shared space the marker on top (arrived last)."""

from thebes_positions import Position

from arena.games import load


def test_the_start_player_is_on_top_of_the_start_stack_and_the_stack_plays_in_order():
    state = load("thebes", players=4).new_state(5)
    seen = []
    for _ in range(4):
        seen.append(state.current_player())
        # every first action moves the marker forward, so the next marker of the stack acts
        state.apply(next(a for a in state.legal_actions() if a.kind == 0))
    assert seen == [0, 1, 2, 3]


def test_the_player_furthest_back_acts_and_may_act_several_times_in_a_row():
    p = Position(4).display("R36", "R37", "R38", "R39")
    p.at(0, "rome", 1902, 10).at(1, "rome", 1902, 14).at(2, "rome", 1902, 20).at(3, "rome", 1902, 30)
    state = p.state()
    assert state.current_player() == 0
    state.apply_text("take R36")           # rome, 1 week: week 11, still furthest back
    assert state.current_player() == 0
    assert state.turn_order() == [0, 1, 2, 3]


def test_on_a_shared_space_the_marker_that_arrived_last_acts_first():
    p = Position(4).display("R36", "R37", "R38", "R39").only(0, "rome", 1902, 10)
    p.at(1, "rome", 1902, 11)
    state = p.state()
    state.apply_text("take R36")  # seat 0 lands on week 11 on top of seat 1's marker
    assert state.time[0] == state.time[1]
    assert state.current_player() == 0
    assert state.turn_order() == [0, 1]


def test_order_is_by_year_then_week_the_year_marker_is_cosmetic():
    """NOTES decision 7: week 52 of 1901 is behind week 1 of 1902."""
    p = Position(4).only(1, "warsaw", 1902, 1).at(0, "warsaw", 1901, 52)
    assert p.state().current_player() == 0
