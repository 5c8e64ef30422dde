"""The end: no action passes week 1 of 1904 (NOTES 9); retiring in 1903 (NOTES 10); the game ends when all
markers stand on the end space."""

from thebes_positions import Position, random_game, texts

from arena.games.thebes.data import END_TIME


def test_no_action_may_move_a_marker_past_the_end_space():
    # R43: berlin 4 weeks (+1 trip from warsaw); R57: moscow 1 week (+1 trip); 3 weeks remain
    state = Position(4).display("R43", "R57").only(0, "warsaw", 1903, 50).state()
    assert END_TIME - state.time[0] == 3
    assert "take R43" not in texts(state) and "take R57" in texts(state)
    assert "only 3 remain" in state.illegal_reason(state.game.parse_action("take R43"))
    assert all(a.weeks + 1 <= 3 for a in state.legal_actions() if a.kind == 3)


def test_an_action_may_end_exactly_on_the_end_space_and_that_player_is_finished():
    state = Position(4).display("R57").only(0, "warsaw", 1903, 51).state()
    events = state.apply_text("take R57")
    assert state.time[0] == END_TIME
    assert {"type": "finished", "seat": 0} in events
    assert state.is_terminal() and state.current_player() == -1 and state.legal_actions() == []


def test_retiring_is_only_allowed_in_the_final_year_and_moves_to_the_end_space():
    state = Position(4).only(0, "warsaw", 1902, 52).state()
    assert "retire" not in texts(state)
    assert "final year" in state.illegal_reason(state.game.parse_action("retire"))
    state = Position(4).only(0, "warsaw", 1903, 1).state()
    assert texts(state)[-1] == "retire"
    state.apply_text("retire")
    assert state.time[0] == END_TIME and state.is_terminal()


def test_a_player_with_no_action_that_fits_must_retire():
    # paris, one week left: every displayed card costs 2+ weeks, no exhibition, no site one week away
    state = Position(4).display("R32", "R33", "R34", "R35").only(0, "paris", 1903, 52).state()
    assert texts(state) == ["retire"]


def test_every_game_ends_with_all_markers_on_the_end_space():
    for players in (2, 3, 4):
        state = random_game(players, seed=players)
        assert state.is_terminal() and state.time == [END_TIME] * players


def test_before_the_final_year_retiring_is_legal_only_when_no_action_fits():
    """Decision D25: with every card held (nothing to take or exchange) and no specialized knowledge, a player
    in 1902 has no action; retiring is then the only one, so the game always ends."""
    p = Position(4).display().exhibitions().only(0, "warsaw", 1902, 20)
    for key in ("draw_pile", "stack3", "discard"):
        for cid in list(p.doc[key]):
            p.give(3, cid)
    assert texts(p.state()) == ["retire"]
    p.give(0, "R36")   # one greece book: a dig fits, so no retiring before 1903
    assert "retire" not in texts(p.state()) and texts(p.state())


def test_an_action_that_would_pass_the_end_space_is_illegal_not_cut_short():
    """RULES.md "Readings": seed 003 forbids an action longer than the weeks left to space 1; seed 000's "ele
    para no espaço 1" is read as where such a marker lands, not as a licence to overshoot. A dig of more weeks
    than remain is not offered and is refused with the reason; the longest dig that fits ends on the end space."""
    # seat 0 digs crete from crete (no trip) with 3 weeks left in 1903
    state = Position(4).give(0, "R52", "R53").only(0, "crete", 1903, 50).state()  # 6 crete books
    assert END_TIME - state.time[0] == 3
    digs = [a for a in state.legal_actions() if a.kind == 3 and a.site == 1 and not a.flags]
    assert digs and max(a.weeks for a in digs) == 3
    reason = state.illegal_reason(state.game.parse_action("dig crete 4"))
    assert reason is not None and "only 3 remain" in reason
    state.apply_text("dig crete 3")
    assert state.time[0] == END_TIME
