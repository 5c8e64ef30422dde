"""`legal_actions()` against an independent brute-force oracle (thebes_oracle.py) over a few hundred random
positions: real game positions, and the same positions with one-use cards, cars, permits, artifacts and
late-1903 times mixed in so that every rule has something to decide."""

import random

import pytest
from thebes_oracle import END, current_seat, legal_moves, legal_texts

from arena.games import load
from arena.games.thebes.actions import ALL_ACTIONS

# cards that open choices: special permissions, zeppelins, cars, assistants, shovels, rumors, some books
_SPICE = ["R01", "R02", "R03", "R04", "R05", "R06", "R16", "R17", "R18", "R22", "R23", "R24", "R81", "R82", "R83",
          "R84", "R85", "R36", "R40", "R45", "R50", "R55", "R28", "R32"]
_PLACES = ["london", "paris", "berlin", "vienna", "rome", "moscow", "warsaw", "greece", "crete", "egypt",
           "palestine", "mesopotamia"]


def _remove_card(doc, cid):
    for key in ("draw_pile", "stack3", "discard"):
        if cid in doc[key]:
            doc[key].remove(cid)
            return True
    for key in ("display", "exhibitions"):
        if cid in doc[key]:
            doc[key][doc[key].index(cid)] = None
            return True
    return False  # held by a player: leave it there


def _spice(doc, rng):
    """Edit a position so that the player to act holds a random handful of choice-making cards and artifacts,
    stands somewhere random at a random time, with random permits used. Cards and tokens are moved, never
    made, so the document stays a legal state."""
    p = current_seat(doc)
    if p < 0:
        return doc
    seat = doc["seats"][p]
    for cid in rng.sample(_SPICE, rng.randrange(0, 8)):
        if _remove_card(doc, cid):
            seat["cards"].append(cid)
    for site in rng.sample(list(doc["bags"]), rng.randrange(0, 4)):
        for name in [t for t in doc["bags"][site] if t.startswith("artifact")][:rng.randrange(0, 4)]:
            doc["bags"][site].remove(name)
            seat["tokens"].append(f"{site}/{name}")
    seat["place"] = rng.choice(_PLACES)
    seat["permits_used"] = rng.sample(list(doc["bags"]), rng.randrange(0, 6))
    late = rng.random() < 0.4
    t = rng.randrange(END - 14, END) if late else rng.randrange(max(0, seat["time"]), END)
    seat["time"] = t
    for q, other in enumerate(doc["seats"]):
        if q != p and other["time"] < t:
            other["time"] = t + rng.randrange(0, END - t + 1)  # keep p the one to act
    if rng.random() < 0.3:
        doc["exchange_run"] = {"seat": p, "count": rng.randrange(1, 4)}
    if rng.random() < 0.1:  # an exhausted deck: everything unseen parked in the discard pile
        doc["discard"] += doc["draw_pile"] + doc["stack3"]
        doc["draw_pile"], doc["stack3"], doc["stack3_used"] = [], [], True
    return doc


def _positions(players, count, seed):
    game = load("thebes", players=players)
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        state = game.new_state(rng.randrange(1 << 30))
        stop = rng.randrange(0, 90)
        for _ in range(stop):
            if state.is_terminal():
                break
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
        out.append(state)
        if not state.is_terminal():
            out.append(game.state_from_json(_spice(state.to_json(), rng)))
    return game, out[:count]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_legal_actions_are_exactly_what_the_oracle_allows(players):
    _game, positions = _positions(players, 120, seed=players * 1009)
    for i, state in enumerate(positions):
        legal = [str(a) for a in state.legal_actions()]
        assert len(legal) == len(set(legal)), f"position {i}: duplicates"
        expected = legal_texts(state.to_json())
        missing, extra = expected - set(legal), set(legal) - expected
        assert not missing and not extra, (f"position {i} ({state.to_json()['seats'][state.current_player()]}): "
                                           f"missing {sorted(missing)[:8]}, wrongly legal {sorted(extra)[:8]}")


def test_illegal_reason_agrees_with_the_oracle_on_every_action():
    _game, positions = _positions(4, 24, seed=77)
    for state in positions:
        expected = legal_texts(state.to_json())
        accepted = {text for text, action in ALL_ACTIONS.items() if state.illegal_reason(action) is None}
        assert accepted == expected


_SPENT = {"zeppelin": "zeppelin", "rumors": "rumors", "assistant": "assistant", "shovel": "shovel",
          "permission": "special_permission"}


@pytest.mark.parametrize("players", [2, 4])
def test_every_legal_action_costs_what_the_oracle_says_and_spends_what_it_names(players):
    """Applied to a copy: the marker moves by the oracle's weeks, the archaeologist ends at the action's place,
    the permits follow the year rule (all valid after passing week 52 except a site dug in that move), and the
    hand loses exactly the one-use cards the action names (and gains the card taken)."""
    from thebes_oracle import CARDS
    _game, positions = _positions(players, 60, seed=players * 31)
    rng = random.Random(players)
    for state in positions:
        doc = state.to_json()
        p = current_seat(doc)
        moves = legal_moves(doc)
        legal = state.legal_actions()
        for action in rng.sample(legal, min(12, len(legal))):
            text = str(action)
            weeks, place = moves[text]
            after = state.clone()
            after.apply(action)
            seat0, seat1 = doc["seats"][p], after.to_json()["seats"][p]
            assert seat1["time"] == seat0["time"] + weeks, text
            assert seat1["place"] == place, text
            words = text.split()
            t0 = seat0["time"]
            crossed = (seat1["time"] // 52 > t0 // 52) and t0 != state.game.new_state(0).time[0]
            permits = set() if crossed else set(seat0["permits_used"])
            if words[0] == "dig":
                permits.add(words[1])
            assert set(seat1["permits_used"]) == permits, text
            kinds0 = sorted(CARDS[c]["kind"] for c in seat0["cards"])
            for word in words:
                if word in _SPENT and not (word == "rumors" and words[0] != "dig"):
                    kinds0.remove(_SPENT[word])
            if words[0] == "take":
                kinds0 = sorted(kinds0 + [CARDS[words[1]]["kind"]])
            assert sorted(CARDS[c]["kind"] for c in seat1["cards"]) == kinds0, text
