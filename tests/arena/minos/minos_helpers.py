"""Hand-built Minos positions for the rule tests."""

from __future__ import annotations

import random

from arena.games import load
from arena.games.minos.state import MinosState
from arena.games.minos.turn import retrieve


def new(players: int, seed: int = 0, **opts) -> MinosState:
    return load("minos", players=players, **opts).new_state(seed)


def through_setup(players: int, seed: int = 0, **opts) -> MinosState:
    """A game advanced through setup with the first legal option each time: round 1, draft, no die placed."""
    st = new(players, seed, **opts)
    while st.phase != "draft":
        st.apply(st.legal_actions()[0])
    return st


def fresh(st: MinosState) -> MinosState:
    """After editing a state by hand: forget the cached legal actions."""
    st._legal_cache = None
    return st


def texts(st: MinosState) -> list[str]:
    fresh(st)
    return [str(a) for a in st.legal_actions()]


def start_turn(st: MinosState, seat: int, row: str, value: int, slot: int = 1, colour: str = "red",
               die: str | None = None) -> MinosState:
    """Put `seat` at the start of an action turn with one die of `value` retrieved from `row`/`slot`."""
    die = die or {"red": "r1", "blue": "b1", "yellow": "y1", "grey": "g1"}[colour]
    st.phase = "actions"
    st.queue = []
    st.rows = {r: [] for r in st.rows}
    st.owner = {die: seat}
    st.retrieved = []
    st.dice[die] = [colour, value]
    others = [d for d in st.dice if d != die and st.dice[d][0] != "x"]
    st.rows[row] = others[:slot - 1] + [die]
    for d in others[:slot - 1]:
        st.owner[d] = (seat + 1) % max(st.n, 2)
        st.retrieved.append(d)
    st.step_i = st.turn_order.index(seat)
    retrieve(st, seat, die)
    return fresh(st)


def play(st: MinosState, *actions: str) -> list[dict]:
    events = []
    for a in actions:
        fresh(st)
        events += st.apply(st.game.parse_action(a))
    return events


def random_playout(st: MinosState, rng: random.Random, max_steps: int = 100000) -> int:
    k = 0
    while not st.is_terminal() and k < max_steps:
        legal = st.legal_actions()
        st.apply(legal[rng.randrange(len(legal))])
        k += 1
    return k


def through_draft(players: int, seed: int = 0) -> MinosState:
    """Round 1 with every die drafted (first legal option each time): the groups decision is next."""
    st = through_setup(players, seed)
    while st.phase == "draft":
        st.apply(st.legal_actions()[0])
    return st
