"""Hand-built Thebes positions: start from a real set-up, edit its JSON form, rebuild the state.

Every edit moves a card or token from wherever it is, so the positions stay conserved (from_json checks it).
"""

from __future__ import annotations

import random
from typing import Any

from arena.games import load
from arena.games.thebes.data import END_TIME, to_time
from arena.games.thebes.state import ThebesState


class Position:
    """A mutable JSON document of a Thebes state with editing helpers; `.state()` builds the state."""

    def __init__(self, players: int = 4, seed: int = 0):
        self.game = load("thebes", players=players)
        self.doc: dict[str, Any] = self.game.new_state(seed).to_json()

    # cards ------------------------------------------------------------------------------------------------
    def _take_card_from_anywhere(self, cid: str) -> None:
        d = self.doc
        for key in ("draw_pile", "stack3", "discard"):
            if cid in d[key]:
                d[key].remove(cid)
                return
        for key in ("display", "exhibitions"):
            if cid in d[key]:
                d[key][d[key].index(cid)] = None
                return
        for seat in d["seats"]:
            for key in ("cards", "exhibitions"):
                if cid in seat[key]:
                    seat[key].remove(cid)
                    return
        raise AssertionError(f"{cid} is nowhere")

    def give(self, seat: int, *cids: str) -> Position:
        for cid in cids:
            self._take_card_from_anywhere(cid)
            key = "exhibitions" if cid.startswith("X") else "cards"
            self.doc["seats"][seat][key].append(cid)
        return self

    def display(self, *cids: str | None) -> Position:
        """Put exactly these cards on display (slot order); the old display goes to the bottom of the pile."""
        old = [c for c in self.doc["display"] if c]
        self.doc["display"] = [None] * 4
        self.doc["draw_pile"].extend(old)
        for slot, cid in enumerate(cids):
            if cid:
                self._take_card_from_anywhere(cid)
                self.doc["display"][slot] = cid
        return self

    def exhibitions(self, *cids: str | None) -> Position:
        old = [c for c in self.doc["exhibitions"] if c]
        self.doc["exhibitions"] = [None] * 3
        self.doc["draw_pile"].extend(old)
        for slot, cid in enumerate(cids):
            if cid:
                self._take_card_from_anywhere(cid)
                self.doc["exhibitions"][slot] = cid
        return self

    def pile_top(self, *cids: str) -> Position:
        """Put these cards on top of the draw pile, first = top."""
        for cid in cids:
            self._take_card_from_anywhere(cid)
        self.doc["draw_pile"][:0] = list(cids)
        return self

    def move_all(self, src: str, dst: str) -> Position:
        self.doc[dst].extend(self.doc[src])
        self.doc[src] = []
        return self

    # tokens -----------------------------------------------------------------------------------------------
    def token(self, seat: int, site: str, name: str) -> Position:
        """Give seat a token out of the site's bag (an artifact1 may come from the board's first-dig bonus)."""
        bag = self.doc["bags"][site]
        if name in bag:
            bag.remove(name)
        elif name == "artifact1" and site in self.doc["first_dig_bonus"]:
            self.doc["first_dig_bonus"].remove(site)
        else:
            raise AssertionError(f"no {name} left for {site}")
        self.doc["seats"][seat]["tokens"].append(f"{site}/{name}")
        return self

    def strip_bag(self, site: str, *keep: str, to_seat: int = -1) -> Position:
        """Move every valuable token of the site's bag except `keep` to `to_seat` (default the last seat, a
        parking seat in tests); the 16 dirt tokens always stay."""
        bag = self.doc["bags"][site]
        keep_left = list(keep)
        seat = self.doc["seats"][to_seat]
        for name in list(bag):
            if name == "dirt":
                continue
            if name in keep_left:
                keep_left.remove(name)
                continue
            bag.remove(name)
            seat["tokens"].append(f"{site}/{name}")
        assert not keep_left, f"{keep_left} not in the {site} bag"
        return self

    # time and place ---------------------------------------------------------------------------------------
    def at(self, seat: int, place: str | None = None, year: int | None = None, week: int | None = None,
           time: int | None = None) -> Position:
        s = self.doc["seats"][seat]
        if place is not None:
            s["place"] = place
        if time is not None:
            s["time"] = time
        elif year is not None:
            s["time"] = to_time(year, week or 1)
        return self

    def only(self, seat: int, place: str | None = None, year: int = 1902, week: int = 1) -> Position:
        """Make `seat` the one to act: it stands at (year, week), every other seat at the end space."""
        for p, s in enumerate(self.doc["seats"]):
            if p != seat:
                s["time"] = END_TIME
        return self.at(seat, place, year, week)

    def permits_used(self, seat: int, *sites: str) -> Position:
        self.doc["seats"][seat]["permits_used"] = list(sites)
        return self

    def state(self) -> ThebesState:
        return self.game.state_from_json(self.doc)


def random_game(players: int, seed: int, steps: int | None = None) -> ThebesState:
    """A state after `steps` random decisions (or at the end) of a seeded game."""
    game = load("thebes", players=players)
    state = game.new_state(seed)
    rng = random.Random(seed)
    n = 0
    while not state.is_terminal() and (steps is None or n < steps):
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
        n += 1
    return state


def texts(state: ThebesState) -> list[str]:
    return [str(a) for a in state.legal_actions()]
