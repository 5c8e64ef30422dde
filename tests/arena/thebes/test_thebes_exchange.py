"""Exchanging the 4 displayed cards at Warsaw: travel + 1 week; runs cost 1, 2, 3… (NOTES decision 12)."""

from thebes_positions import Position


def test_exchange_costs_the_trip_plus_one_week_and_replaces_all_four_cards():
    p = Position(4).display("R36", "R37", "R38", "R39").pile_top("R45", "R46", "R47", "R48").only(0, "berlin")
    state = p.state()
    t0 = state.time[0]
    state.apply_text("exchange")
    obs = state.observation(None)
    assert state.time[0] - t0 == 1 + 1 and obs["seats"][0]["place"] == "warsaw"
    assert obs["discard"][-4:] == ["R36", "R37", "R38", "R39"]
    assert [c["id"] for c in obs["display"]] == ["R45", "R46", "R47", "R48"]


def test_a_run_of_three_exchanges_costs_1_2_3_weeks():
    state = Position(4).only(0, "warsaw").state()
    t0 = state.time[0]
    costs = []
    for _ in range(3):
        before = state.time[0]
        state.apply_text("exchange")
        costs.append(state.time[0] - before)
    assert costs == [1, 2, 3] and state.time[0] - t0 == 6


def test_any_other_action_resets_the_run():
    # R57: moscow, 1 week; moscow-warsaw 1
    state = Position(4).display("R57").only(0, "warsaw").state()
    state.apply_text("exchange")
    take = next(a for a in state.legal_actions() if a.kind == 0)
    state.apply(take)
    assert (state.exchange_run_seat, state.exchange_run_count) == (-1, 0)
    before = state.time[0]
    trip = state._trip(0, 6, False)
    state.apply_text("exchange")
    assert state.time[0] - before == trip + 1


def test_another_players_turn_breaks_the_run():
    # seat 0 on top of seat 1 at week 1 of 1902: seat 0 exchanges (week 2), seat 1 takes a card (week 3 or
    # later), then seat 0 exchanges again at the cost of a first exchange
    state = Position(4).only(0, "warsaw", 1902, 1).at(1, "warsaw", 1902, 1).state()
    assert state.current_player() == 0
    state.apply_text("exchange")
    assert state.current_player() == 1
    state.apply(next(a for a in state.legal_actions() if a.kind == 0))
    assert state.current_player() == 0
    before = state.time[0]
    state.apply_text("exchange")
    assert state.time[0] - before == 1
