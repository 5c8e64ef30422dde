"""Determinization: a full Thebes state consistent with what one seat observes, its hidden parts sampled.

In Thebes everything is public but the order of the draw pile, which unseen cards lie in stack 3 and the
generator that will draw the tokens and shuffle the decks: `observation(seat)` shows every hand, token, bag's
contents, the set of unseen cards and the sizes of both piles. `determinize(game, observation, rng)` rebuilds the
position from the observation and samples the hidden parts from what is still possible:

- unseen cards are dealt to the draw pile and stack 3 respecting how the setup built them (RULES.md, setup):
  until stack 3 joins the pile, the cards still to come from stack 1 (the top of the pile) are researchers,
  stack 3 holds every large exhibition not yet seen (3-4 players), and the exhibitions of stack 2 lie below stack
  1; once stack 3 has been shuffled in, the pile is a uniform shuffle of the unseen cards;
- the generator gets a fresh random state (the tokens a dig will draw and the next shuffles).

Every unseen card is equally likely in each place it may be, so a sample is drawn from the seat's belief: the
shuffles are uniform, and the cards seen so far say nothing about the order of the rest.

Contract (tested in tests/arena/thebes/test_determinize.py over thousands of positions): the sampled state's
`observation(seat)` equals the given observation and its `legal_actions()` are the seat's legal actions.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from arena.games.rng import SplitMix64
from arena.games.thebes.data import (
    CARD_INDEX,
    DISPLAY_SLOTS,
    EXHIBITION_SIZE,
    EXHIBITION_SLOTS,
    GENERAL_TOKEN,
    LARGE_EXHIBITIONS,
    N_RESEARCHERS,
    SITE_INDEX,
    SITES,
    SMALL_EXHIBITIONS,
    SPECIALIZED_TOKEN0,
    token_name,
)
from arena.games.thebes.state import ThebesState

if TYPE_CHECKING:
    from arena.games.thebes.game import ThebesGame

__all__ = ["Determinizer", "determinize", "setup_stack_sizes"]


def setup_stack_sizes() -> tuple[int, int, int]:
    """The researcher cards of stacks 1, 2 and 3 at setup (the same split as `ThebesState.initial`)."""
    rest = N_RESEARCHERS - DISPLAY_SLOTS
    third, extra = divmod(rest, 3)
    s1, s2, s3 = (third + (1 if i < extra else 0) for i in range(3))
    return s1, s2, s3


def _token_text(view: dict[str, Any]) -> str:
    kind = view["kind"]
    if kind == "general":
        token = GENERAL_TOKEN
    elif kind == "specialized":
        token = SPECIALIZED_TOKEN0 + SITE_INDEX[view["knowledge_site"]]
    else:
        token = int(view["value"])
    return f"{view['site']}/{token_name(token)}"


def _bag_tokens(view: dict[str, Any]) -> list[str]:
    tokens = [token_name(int(v)) for v in view.get("artifacts", [])]
    tokens += ["specialized-" + s for s in view.get("specialized", [])]
    tokens += ["general"] * int(view.get("general", 0))
    tokens += ["dirt"] * int(view.get("dirt", 0))
    return tokens


def _arrival_stamps(obs: dict[str, Any], players: int) -> list[int]:
    """Arrival stamps that give the observed turn order: only their order among seats on the same week
    matters (a marker that moves later gets a newer stamp than all of these)."""
    order = [int(p) for p in obs.get("turn_order", [])]
    stamps = [0] * players
    for i, p in enumerate(order):
        stamps[p] = players - i
    return stamps


def _deal_unseen(obs: dict[str, Any], players: int, rng: random.Random) -> tuple[list[int], list[int]]:
    """The draw pile (top first) and stack 3, as card indices, sampled from the unseen cards (see the module
    docstring)."""
    unseen = [CARD_INDEX[c] for c in obs.get("unseen_cards", [])]
    pile_n = int(obs.get("draw_pile_count", 0))
    stack3_n = int(obs.get("stack3_count", 0))
    if obs.get("stack3_used") or not stack3_n and not pile_n:
        rng.shuffle(unseen)
        return unseen[:pile_n], unseen[pile_n:]
    s1, s2, _ = setup_stack_sizes()
    stack2_exhibitions = len(SMALL_EXHIBITIONS) + (len(LARGE_EXHIBITIONS) if players == 2 else 0)
    drawn = s1 + s2 + stack2_exhibitions - pile_n  # cards taken from the pile since the setup
    from_stack1 = max(0, s1 - drawn)  # the top of the pile: researchers only
    researchers = [c for c in unseen if c < N_RESEARCHERS]
    large = [c for c in unseen if EXHIBITION_SIZE[c] == "large"]
    small = [c for c in unseen if EXHIBITION_SIZE[c] == "small"]
    in_stack3 = large if players > 2 else []
    in_stack2 = small + ([] if players > 2 else large)
    rng.shuffle(researchers)
    stack3_researchers = stack3_n - len(in_stack3)
    stack2_researchers = pile_n - from_stack1 - len(in_stack2)
    if min(stack3_researchers, stack2_researchers) < 0:  # not a position the setup can lead to: uniform
        rng.shuffle(unseen)
        return unseen[:pile_n], unseen[pile_n:]
    top = researchers[:from_stack1]
    stack2 = researchers[from_stack1:from_stack1 + stack2_researchers] + in_stack2
    stack3 = researchers[from_stack1 + stack2_researchers:] + in_stack3
    rng.shuffle(stack2)
    rng.shuffle(stack3)
    return top + stack2, stack3


class Determinizer:
    """Samples of one observation, many times: the public position is rebuilt once (`from_json`); each sample
    is a clone with freshly dealt piles and a fresh generator (~30x cheaper than rebuilding: a search samples a
    state per iteration)."""

    def __init__(self, game: ThebesGame, observation: dict[str, Any]):
        self.observation = observation
        self.players = game.players
        self.template = _rebuild(game, observation)

    def sample(self, rng: random.Random) -> ThebesState:
        st = self.template.clone()
        pile, stack3 = _deal_unseen(self.observation, self.players, rng)
        st.draw_pile = pile[::-1]  # the top of the pile is the end of the list
        st.stack3 = stack3
        st.rng = SplitMix64(rng.getrandbits(64))
        return st


def determinize(game: ThebesGame, observation: dict[str, Any], rng: random.Random) -> ThebesState:
    """A state of `game` whose `observation(seat)` is `observation` (a seat's view, as `observation()` returns
    it or as the DecideRequest carries it), with the hidden parts drawn with `rng`. Raises ValueError when the
    observation is not one of this game's (wrong player count, unknown cards)."""
    return Determinizer(game, observation).sample(rng)


def _rebuild(game: ThebesGame, observation: dict[str, Any]) -> ThebesState:
    """The observed position with the unseen cards in the draw pile and stack 3 in some order (see
    `Determinizer.sample`) and a zero generator."""
    obs = observation
    players = game.players
    if int(obs.get("players", players)) != players:
        raise ValueError(f"a {obs.get('players')}-player observation for a {players}-player game")
    stamps = _arrival_stamps(obs, players)
    seats = []
    for p, view in enumerate(obs["seats"]):
        seats.append({
            "time": int(view["time"]),
            "arrival": stamps[p],
            "place": view["place"],
            "cards": [c["id"] for c in view.get("cards", [])],
            "tokens": [_token_text(t) for t in view.get("tokens", [])],
            "exhibitions": [x["id"] for x in view.get("exhibitions", [])],
            "permits_used": list(view.get("permits_used", [])),
        })
    display = [c["id"] for c in obs.get("display", [])]
    display += [None] * (DISPLAY_SLOTS - len(display))
    slots: list[str | None] = [None] * len(EXHIBITION_SLOTS)
    for x in obs.get("exhibitions", []):
        slots[EXHIBITION_SLOTS.index(x["slot"])] = x["id"]
    bags = {b["site"]: _bag_tokens(b) for b in obs["bags"]}
    unseen = list(obs.get("unseen_cards", []))
    pile_n = int(obs.get("draw_pile_count", 0))
    document = {
        "format": "thebes-state", "version": 1, "params": game.params,
        "seats": seats, "display": display, "exhibitions": slots,
        "draw_pile": unseen[:pile_n], "stack3": unseen[pile_n:], "stack3_used": bool(obs.get("stack3_used", False)),
        "discard": list(obs.get("discard", [])),
        "bags": {s: bags.get(s, []) for s in SITES},
        "first_dig_bonus": [b["site"] for b in obs["bags"] if b.get("first_dig_bonus")],
        "exchange_run": {"seat": int(obs.get("exchange_run_seat", -1)),
                         "count": int(obs.get("exchange_run_count", 0))},
        "arrivals": max(stamps, default=0) + 1,
        "rng": 0,
    }
    return ThebesState.from_json(game, document)
