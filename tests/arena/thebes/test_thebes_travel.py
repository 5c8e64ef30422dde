"""Travel: 1 week per route segment, car (-1 on trips of 3+, two do not stack), zeppelin (one free trip)."""

import random

import pytest
from thebes_positions import Position, texts

from arena.games import load
from arena.games.base import ActionParseError
from arena.games.thebes.actions import (
    DIG,
    EXCHANGE,
    EXHIBIT,
    F_NOCAR,
    F_ZEPPELIN,
    TAKE,
    parse_action,
)
from arena.games.thebes.data import (
    CARD_CITY,
    CARD_WEEKS,
    DATA,
    DIST,
    PLACE_INDEX,
    SITE_PLACE,
    WARSAW,
)


def test_travel_weeks_are_shortest_paths_over_the_18_routes():
    assert len(DATA["edges"]) == 18
    for a, row in DATA["distance_weeks"].items():
        for b, weeks in row.items():
            assert DIST[PLACE_INDEX[a]][PLACE_INDEX[b]] == weeks


def test_taking_a_card_costs_the_trip_plus_the_card_weeks():
    state = Position(4).display("R43").only(0, "warsaw").state()  # R43: berlin, 4 weeks; warsaw-berlin 1
    t0 = state.time[0]
    events = state.apply_text("take R43")
    assert state.time[0] - t0 == 5 and state.place[0] == PLACE_INDEX["berlin"]
    assert {"type": "travelled", "seat": 0, "from": "warsaw", "to": "berlin", "weeks": 1,
            "zeppelin": False} in events


def test_a_car_saves_one_week_on_trips_of_three_or_more_segments():
    # R57: moscow, 1 week (london-moscow is 3 segments); R31: vienna, 3 weeks (london-vienna is 2)
    state = Position(4).give(0, "R05").display("R57", "R31").only(0, "london").state()
    t0 = state.time[0]
    c = state.clone()
    c.apply_text("take R31")
    assert c.time[0] - t0 == 2 + 3       # trip of 2: no saving
    state.apply_text("take R57")
    assert state.time[0] - t0 == 3 - 1 + 1


def test_two_cars_do_not_stack():
    """NOTES decision 3."""
    state = Position(4).give(0, "R05", "R06").display("R57").only(0, "london").state()
    t0 = state.time[0]
    state.apply_text("take R57")
    assert state.time[0] - t0 == 2 + 1


def test_a_zeppelin_is_optional_makes_the_trip_free_and_is_discarded():
    """NOTES decision 16."""
    state = Position(4).give(0, "R03").display("R57").only(0, "london").state()
    assert {"take R57", "take R57 zeppelin"} <= set(texts(state))
    t0 = state.time[0]
    state.apply_text("take R57 zeppelin")
    assert state.time[0] - t0 == 1
    assert "R03" in state.to_json()["discard"] and state.zeppelins[0] == 0


def test_no_zeppelin_without_a_trip():
    state = Position(4).give(0, "R03").display("R57").only(0, "moscow").state()
    assert "take R57 zeppelin" not in texts(state)
    assert "already there" in state.illegal_reason(state.game.parse_action("take R57 zeppelin"))


def test_the_car_may_be_declined_on_a_trip_it_would_shorten():
    """Seed 003: a player holding a car "and using it" may shorten a trip of 3+ weeks by one week: using it is
    a choice (the engine's old decision D20 always applied it). Declining matters, e.g. to pass week 52 (and
    so renew the permits) or to let another player act first; `nocar` is only offered where the car would
    shorten the trip."""
    # london-moscow is 3 segments: R57 (moscow, 1 week) costs 2 + 1 with the car, 3 + 1 without
    state = Position(4).give(0, "R05").display("R57", "R31").permits_used(0, "greece") \
        .only(0, "london", 1902, 49).state()
    assert {"take R57", "take R57 nocar"} <= set(texts(state))
    assert "take R31 nocar" not in texts(state)                 # london-vienna is 2 segments
    assert "nothing to decline" in state.illegal_reason(state.game.parse_action("take R31 nocar"))
    driven = state.clone()
    driven.apply_text("take R57")
    assert driven.observation(0)["seats"][0]["week"] == 52 and driven.permits_used[0] == 0b00001
    events = state.apply_text("take R57 nocar")
    assert (state.observation(0)["seats"][0]["year"], state.observation(0)["seats"][0]["week"]) == (1903, 1)
    assert state.permits_used[0] == 0 and {"type": "year_passed", "seat": 0, "year": 1903} in events
    assert "R05" in state.to_json()["seats"][0]["cards"]      # the car is kept


def test_declining_the_car_is_offered_for_every_kind_of_trip_and_never_with_a_zeppelin():
    state = Position(4).give(0, "R05", "R03", "R36").display("R57").only(0, "egypt").state()
    legal = set(texts(state))
    assert {"take R57 nocar", "exchange nocar"} <= legal     # egypt-moscow is 4, egypt-warsaw 3
    assert not any("nocar" in t for t in legal if t.startswith("dig greece"))  # egypt-greece is 2
    assert not any("zeppelin" in t and "nocar" in t for t in legal)
    state = Position(4).give(0, "R05", "R03", "R36").only(0, "london").state()
    assert {"dig greece 8", "dig greece 8 nocar", "dig greece 8 zeppelin"} <= set(texts(state))  # 3 segments
    t0 = state.time[0]
    state.apply_text("dig greece 8 nocar")
    assert state.time[0] - t0 == 3 + 8
    no_car = Position(4).give(0, "R36").display("R57").only(0, "egypt").state()
    assert not any("nocar" in t for t in texts(no_car))
    assert "no car" in no_car.illegal_reason(no_car.game.parse_action("take R57 nocar"))


def test_a_trip_costs_its_shortest_path_and_no_longer_route_is_offered():
    """RULES.md "Readings": the weeks of a trip are the segments of a shortest path (less the car's week, or 0
    flown); no action spends extra travel weeks. Every action of every decision of seeded random games, played
    through `apply`, moves the marker by exactly that plus the action's own weeks."""
    checked = 0
    for players in (2, 3, 4):
        game = load("thebes", players=players)
        for seed in range(4):
            state, rng = game.new_state(seed), random.Random(seed)
            while not state.is_terminal():
                p = state.current_player()
                for action in state.legal_actions():
                    if action.kind == DIG:
                        dest, weeks = SITE_PLACE[action.site], action.weeks
                    elif action.kind == EXCHANGE:
                        dest, weeks = WARSAW, state._exchange_weeks(p)
                    elif action.kind in (TAKE, EXHIBIT):
                        dest, weeks = CARD_CITY[action.card], CARD_WEEKS[action.card]
                    else:
                        continue
                    segments = DIST[state.place[p]][dest]
                    trip = (0 if action.flags & F_ZEPPELIN else
                            segments - 1 if state.cars[p] and segments >= 3 and not action.flags & F_NOCAR
                            else segments)
                    after = state.clone()
                    after.apply(action)
                    assert after.time[p] - state.time[p] == trip + weeks, (str(action), trip, weeks)
                    checked += 1
                legal = state.legal_actions()
                state.apply(legal[rng.randrange(len(legal))])
    assert checked > 5000


def test_an_action_text_with_extra_travel_weeks_does_not_parse():
    for text in ("take R23 detour 2", "take R23 travel 5", "dig egypt 5 travel 3", "exchange 2"):
        with pytest.raises(ActionParseError):
            parse_action(text)
