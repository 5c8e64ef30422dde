"""The Minos rollout policy of the built-in search bots: the greedy text scores, with random moves mixed in.

A rollout plays a sampled position on for a few dozen decisions, thousands of times a decision, so its policy
must be cheap: it scores each legal action by its text alone (`text_score`, the engine's greedy heuristic: no
observation dict), ties broken at random, and plays a random legal action `random_share` of the time. It lives
here, beside the engine, so that `arena engines build` compiles it with the rules (`arena.games.native.MODULES`):
the SDK's `arena_bot.rollout` re-exports it, so the built-in search bots and every Python bot's runtime play
their rollouts compiled (pure Python where the engines are).

Its play is part of no replay contract (only bots use it), but compiled and pure must choose alike for the same
random numbers (tests/bots/test_rollout.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from arena.games.base import Action
from arena.games.minos import data as D
from arena.games.minos.state import MinosState

#: the share of random legal actions among the greedy ones
RANDOM_SHARE: Final = 0.3
#: the weight of an action text by its first part (the greedy heuristic; `text_score` refines some)
WEIGHTS: Final[dict[str, float]] = {
    "city": 9, "extra": 4, "farm": 7, "tower": 6, "play": 8, "ship": 5, "step": 4, "trait": 10, "bonus": 10,
    "deploy": 3, "march": 1, "recruit": 2, "offer": 3, "deck": 2, "main": 2, "end": -5, "move": 5, "fight": 6,
    "good": 1, "track": 2, "tile": 2, "draft": 1, "groups": 1, "stop": -1, "decline": -2, "keep": 0, "palace": 0,
    "pick": 0, "start": 0, "retrieve": 0}
_EXTRA: Final[dict[str, float]] = {"fight": 8, "craft": 6, "barter": 1}
_DRAFT: Final[dict[str, float]] = {"build": 3, "expand": 2.5, "develop": 2, "prepare": 1.5, "wild": 2}
_SCORES: Final[dict[str, float]] = {}  # text -> score: the texts repeat (a bounded cache)
_SCORES_MAX: Final = 50_000


def _score(text: str) -> float:
    parts = text.split(":")
    head = parts[0]
    w = WEIGHTS.get(head, 0.0)
    if head == "main":
        w = -3.0 if parts[1] == "forgo" else (-4.0 if parts[1] == "finish" else 6.0)
    elif head == "extra":
        w = _EXTRA[parts[1]]
    elif head == "groups":
        w = 0.0 if parts[1] == "none" else 1.0 + parts[1].count(",")
    elif head == "draft":
        w = _DRAFT[parts[2]]
    elif head == "play":
        w = 8 + D.card_of(parts[1])["vp"] / 2
    elif (head == "deploy" or head == "march") and len(parts) > 3:
        w += 0.5
    return w


def text_score(text: str) -> float:
    """The greedy heuristic's value of an action by its text alone: higher for actions that usually gain VP or
    engine (cities, cards, fights, tracks), negative for ending or passing."""
    w = _SCORES.get(text)
    if w is None:
        w = _score(text)
        if len(_SCORES) < _SCORES_MAX:
            _SCORES[text] = w
    return w


def pick(texts: Sequence[str], rand: Callable[[], float], random_share: float) -> int:
    """The index of the chosen text: a uniformly random one `random_share` of the time (one `rand()` call, then
    one more), else one of the best by `text_score`, ties broken by one more `rand()` call."""
    n = len(texts)
    if rand() < random_share:
        return int(rand() * n)
    top = text_score(texts[0])
    best = [0]
    for i in range(1, n):
        v = text_score(texts[i])
        if v > top:
            top = v
            best = [i]
        elif v == top:
            best.append(i)
    return best[int(rand() * len(best))]


class MinosRollout:
    """Minos rollouts: the greedy text scores, ties broken at random, and a random legal action `random_share`
    of the time."""

    def __init__(self, random_share: float = RANDOM_SHARE) -> None:
        self.random_share = random_share

    def choose(self, state: MinosState, legal: Sequence[Action], rand: Callable[[], float]) -> Action:
        """The chosen legal action (`rand` is a `random.Random().random`)."""
        return legal[pick([str(a) for a in legal], rand, self.random_share)]

    def playout(self, state: MinosState, rand: Callable[[], float], max_decisions: int = -1) -> int:
        """Play `state` on (in place, unchecked `step`s, no events) until it is terminal or `max_decisions` were
        played (negative: no limit), choosing as `choose` does. Returns the decisions played."""
        k = 0
        share = self.random_share
        while not state.is_terminal() and (max_decisions < 0 or k < max_decisions):
            texts = state.legal_texts()
            state.step(texts[pick(texts, rand, share)])
            k += 1
        return k
