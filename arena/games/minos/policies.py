"""In-process Minos policies: random, greedy and Rhadamanthus (the solo bot's priorities as a policy).

Policies only read the observation dict and the legal actions (`arena/games/policy.py`).
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from arena.games.minos import data as D
from arena.games.minos.rollout import WEIGHTS, text_score
from arena.games.policy import Policy, RandomPolicy


class GreedyPolicy(Policy):
    """One-ply heuristic: prefers actions that usually gain VP or engine (cities, cards, fights, tracks)."""

    name = "greedy"
    needs_observation = False
    WEIGHTS: ClassVar[dict[str, float]] = WEIGHTS

    def _score(self, text: str) -> float:
        """The value of an action by its text alone (`arena.games.minos.rollout.text_score`)."""
        return text_score(text)

    def choose(self, observation, legal, rng):
        best = max(self._score(str(a)) for a in legal)
        top = [i for i, a in enumerate(legal) if self._score(str(a)) == best]
        return rng.choice(top)


class RhadamanthusPolicy(Policy):
    """Rhadamanthus' priorities (rules §14) for a normal seat: each draft pick follows a randomly drawn bot card
    (die rule on the front, row order a1, wild, a2, a3, a4 on the back of another); on its turns it starts the
    main action (wild: the card's a1), spends every point, prefers cities, farms and ships when building,
    fights and presence when expanding, the leftmost offer card when preparing and the highest-VP card when
    developing, and otherwise takes the first legal option."""

    name = "rhadamanthus"
    needs_observation = True
    ROW_PREF: ClassVar[list[str]] = ["expand", "build", "develop", "prepare", "wild"]

    def choose(self, observation, legal, rng):
        texts = [str(a) for a in legal]
        kind = texts[0].split(":")[0]
        if kind == "draft":
            return self._draft(observation, texts, rng)
        for prefix in ("bonus", "trait:", "main:start", "city:", "farm:", "ship:", "step:", "extra:fight:",
                       "deploy:", "recruit", "offer:1", "offer:", "play:", "move:", "fight", "groups:",
                       "good:", "track:", "tile:", "main:finish", "end", "stop"):
            hits = [i for i, t in enumerate(texts) if t.startswith(prefix)]
            if hits:
                if prefix == "main:start" and len(hits) > 1:
                    return hits[rng.randrange(len(hits))]
                if prefix == "play:":
                    return max(hits, key=lambda i: D.card_of(texts[i].split(":")[1])["vp"])
                if prefix == "groups:":
                    return max(hits, key=lambda i: texts[i].count(",") + (texts[i] != "groups:none"))
                return hits[0]
        return 0

    def _draft(self, obs: dict[str, Any], texts: list[str], rng: random.Random) -> int:
        deck = list(D.BOT_DECK.values())
        front = rng.choice(deck)["front"]
        back = rng.choice(deck)["back"]["action_priority"]
        faces = sorted({t.split(":")[1] for t in texts})  # `red5`: the pool's distinct dice
        sign = -1 if front["die"]["pick"] == "highest" else 1
        rank = {c: i for i, c in enumerate(D.SOLO["die_colour_tiebreak"])}

        def best(cands: list[str]) -> str:
            return min(cands, key=lambda f: (sign * int(f[-1]), rank[f[:-1]]))

        face = None
        for colour in front["die"]["colours"]:
            if colour == "any":
                break
            cands = [f for f in faces if f[:-1] == colour]
            if cands:
                face = best(cands)
                break
        face = face or best(faces)
        for row in (back[0], "wild", back[1], back[2], back[3]):
            t = f"draft:{face}:{row}"
            if t in texts:
                return texts.index(t)
        return 0


POLICIES = {"random": RandomPolicy, "greedy": GreedyPolicy, "rhadamanthus": RhadamanthusPolicy}
