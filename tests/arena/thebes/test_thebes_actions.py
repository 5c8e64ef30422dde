"""Actions: one canonical text per action, exact parse/format, dict form, legality agreeing with apply()."""

import pytest
from thebes_positions import Position, random_game

from arena.games import ActionParseError, IllegalAction, load
from arena.games.thebes.actions import ALL_ACTIONS, action_from_dict, parse_action


def test_every_action_round_trips_through_text_and_dict():
    # take/exhibit/exchange: driven, car declined ("nocar") or flown; digs: 6 flags but never zeppelin + nocar
    assert len(ALL_ACTIONS) == 85 * 3 + 10 * 3 + 3 + 5 * 12 * (64 - 16) + 1
    for text, action in ALL_ACTIONS.items():
        assert str(action) == text
        assert parse_action(text) is action
        assert action_from_dict(action.to_dict()) == action
        assert hash(action_from_dict(action.to_dict())) == hash(action)


@pytest.mark.parametrize("text", ["dig egypt 05", "take  R23", "dig egypt 5 rumors zeppelin", "take X01",
                                  "exhibit R01", "dig egypt 13", "dig egypt 0", "Take R23", "take R23 ",
                                  "retire zeppelin", "take R23 rumors", "exchange rumors", "",
                                  "take R23 zeppelin nocar", "dig egypt 5 zeppelin nocar", "take R23 nocar zeppelin",
                                  "dig egypt 5 nocar rumors", "retire nocar"])
def test_non_canonical_texts_are_rejected(text):
    with pytest.raises(ActionParseError):
        load("thebes", players=2).parse_action(text)


def test_bad_dicts_are_rejected():
    for bad in ({"kind": "take", "card": "X01"}, {"kind": "dig", "site": "atlantis", "weeks": 3},
                {"kind": "exhibit"}, {"kind": "fly"}):
        with pytest.raises(ActionParseError):
            action_from_dict(bad)


def test_an_illegal_action_raises_naming_action_and_reason_and_changes_nothing():
    state = Position(4).give(0, "R36").only(0, "greece").state()
    before = state.to_json()
    legal = state.legal_actions()
    with pytest.raises(IllegalAction) as err:
        state.apply_text("dig greece 7")
    assert "dig greece 7" in str(err.value) and "draws no token" in err.value.reason
    with pytest.raises(IllegalAction):
        state.apply("dig greece 8")  # a string is not an action
    assert state.to_json() == before and state.legal_actions() == legal


def test_legal_actions_are_unique_ordered_and_exactly_the_actions_apply_accepts():
    for players, seed, steps in [(2, 1, 10), (3, 2, 25), (4, 3, 40), (4, 4, 5), (2, 5, 60), (3, 6, 80)]:
        state = random_game(players, seed, steps)
        legal = state.legal_actions()
        assert len(set(legal)) == len(legal)
        assert legal == state.clone().legal_actions()
        accepted = [a for a in ALL_ACTIONS.values() if state.illegal_reason(a) is None]
        assert set(accepted) == set(legal)


def test_apply_returns_events_describing_the_action():
    state = Position(4).give(0, "R36").only(0, "warsaw").state()
    events = state.apply_text("dig greece 8")
    types = [e["type"] for e in events]
    assert types[:3] == ["travelled", "time", "tokens_drawn"] and "first_dig_bonus" in types
    assert all(isinstance(e, dict) and "type" in e for e in events)


def test_actions_outside_the_game_are_refused_not_crashed_on():
    from arena.games.thebes.actions import DIG, TAKE, ThebesAction
    state = Position(4).give(0, "R36").only(0, "greece").state()
    for bogus in (ThebesAction(DIG, site=7, weeks=3), ThebesAction(DIG, site=0, weeks=13),
                  ThebesAction(TAKE, card=90), ThebesAction(TAKE, card=-1)):
        with pytest.raises(IllegalAction, match="no such Thebes action"):
            state.apply(bogus)


def test_legality_agrees_with_apply_when_every_one_use_card_is_in_hand():
    p = Position(4).give(0, "R03", "R04", "R01", "R16", "R22", "R81", "R36", "R05", "R32")
    p.exhibitions("X01").token(0, "greece", "artifact2").token(0, "egypt", "artifact3").token(0, "egypt", "artifact4")
    for place, year, week in (("london", 1902, 1), ("rome", 1903, 40), ("greece", 1903, 50)):
        state = p.permits_used(0, "greece").only(0, place, year, week).state()
        legal = state.legal_actions()
        accepted = [a for a in ALL_ACTIONS.values() if state.illegal_reason(a) is None]
        assert set(accepted) == set(legal) and len(set(legal)) == len(legal)
        flags = {f for a in legal for f in str(a).split()[3:] if a.kind == 3}
        if place == "london":
            # R05 is a car and every site is 3+ segments from London: declining it is a choice too
            assert flags == {"zeppelin", "rumors", "assistant", "shovel", "permission", "nocar"}
            assert "exhibit X01" in [str(a) for a in legal]  # X01 is held in London: no trip to fly
        if place == "rome":
            assert {"exhibit X01", "exhibit X01 zeppelin"} <= {str(a) for a in legal}
        for action in legal:
            copy = state.clone()
            copy.apply(action)
            assert copy.conservation_problem() is None
