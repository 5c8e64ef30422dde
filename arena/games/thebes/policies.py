"""Built-in Thebes policies: uniform random, and a greedy heuristic (points per week of the next action).

Like a bot, a policy sees only the seat's observation and the legal actions (as `to_dict()` would send them);
the static rule data (routes, time wheel, congress table) is public and read from the package's data file.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from arena.games.policy import Policy, RandomPolicy
from arena.games.thebes.actions import ThebesAction
from arena.games.thebes.data import (
    ASSISTANT_BONUS,
    CAR_MIN_SEGMENTS,
    CAR_SAVES,
    DIST,
    END_TIME,
    KNOWLEDGE_CAP,
    PLACE_INDEX,
    SHOVEL_BONUS,
    SITE_INDEX,
    SITE_PLACE,
    WARSAW,
    WHEEL,
    congress_points,
)

# Worth of a researcher card (in points) before it is scaled by the share of the game still to play.
_CARD_WORTH = {"assistant": 1.5, "shovel": 1.5, "car": 2.0, "zeppelin": 1.0, "special_permission": 0.8}
_SPENT_CARD_COST = 0.5          # a one-use card spent on a dig could have helped a later one
_KNOWLEDGE_TOKEN_WORTH = 1.0    # a knowledge token found in a bag, in points
_EXCHANGE_WORTH = 0.2


class GreedyPolicy(Policy):
    """Chooses the legal action with the highest estimated points per week spent (travel included):
    exhibitions score their points, digs their expected finds given the public bag contents, cards a fixed
    worth (knowledge and tools worth less as the game runs out, congress cards their marginal points).
    Ties go to the first action in legal order, so the policy is deterministic."""

    name = "greedy"
    needs_observation = True

    def choose(self, observation: dict[str, Any] | None,  # type: ignore[override]  # Thebes actions only
               legal: Sequence[ThebesAction], rng: random.Random) -> int:
        obs = observation or {}
        me = obs["seats"][obs["current_player"]]
        best, best_value = 0, float("-inf")
        for i, action in enumerate(legal):
            value = self.value(obs, me, action.to_dict())
            if value > best_value:
                best, best_value = i, value
        return best

    def value(self, obs: dict[str, Any], me: dict[str, Any], act: dict[str, Any]) -> float:
        kind = act["kind"]
        if kind == "retire":
            return 0.0
        remaining = max(END_TIME - me["time"], 1)
        late = min(remaining / 104.0, 1.0)
        if kind == "take":
            card = next(c for c in obs["display"] if c["id"] == act["card"])
            gain = self._card_gain(me, card) * (1.0 if card["kind"] == "congress" else late)
            weeks = card["weeks"]
            dest = PLACE_INDEX[card["city"]]
        elif kind == "exhibit":
            card = next(x for x in obs["exhibitions"] if x["id"] == act["card"])
            gain, weeks, dest = float(card["points"]), card["weeks"], PLACE_INDEX[card["city"]]
        elif kind == "exchange":
            gain, weeks, dest = _EXCHANGE_WORTH, 1 + (obs["exchange_run_count"]
                                                      if obs["exchange_run_seat"] == me["seat"] else 0), WARSAW
        else:
            site = act["site"]
            gain = self._dig_gain(obs, me, act)
            weeks, dest = act["weeks"], SITE_PLACE[SITE_INDEX[site]]
        travel = 0 if act["zeppelin"] else _trip(me, dest, act["no_car"])
        if act["zeppelin"]:
            gain -= _SPENT_CARD_COST
        return gain / (travel + weeks)

    @staticmethod
    def _card_gain(me: dict[str, Any], card: dict[str, Any]) -> float:
        kind = card["kind"]
        if kind == "specialized_knowledge":
            return 1.2 * card["value"]
        if kind == "general_knowledge":
            return 0.8 * card["value"]
        if kind == "rumors":
            return 1.0
        if kind == "congress":
            return float(congress_points(me["congress"] + 1) - congress_points(me["congress"]))
        if kind in ("assistant", "shovel") and me[kind + "s"] >= 3:
            return 0.0
        if kind == "car" and me["cars"]:
            return 0.0
        return _CARD_WORTH.get(kind, 0.5)

    @staticmethod
    def _dig_gain(obs: dict[str, Any], me: dict[str, Any], act: dict[str, Any]) -> float:
        site = act["site"]
        spec = me["books"][site] + ASSISTANT_BONUS[min(me["assistants"], 3)]
        spec += 2 if act["rumors"] else 0
        spec += 1 if act["assistant"] else 0
        gen = me["general_knowledge"]
        knowledge = min(spec + min(gen, spec), KNOWLEDGE_CAP)
        draws = WHEEL[knowledge][act["weeks"]] + SHOVEL_BONUS[min(me["shovels"], 3)] + (1 if act["shovel"] else 0)
        bag = next(b for b in obs["bags"] if b["site"] == site)
        size = bag["size"]
        worth = sum(bag["artifacts"]) + _KNOWLEDGE_TOKEN_WORTH * (len(bag["specialized"]) + bag["general"])
        gain = min(draws, size) * worth / size if size else 0.0
        if bag["first_dig_bonus"]:
            gain += 1.0
        spent = sum(1 for flag in ("rumors", "assistant", "shovel", "permission") if act[flag])
        return gain - _SPENT_CARD_COST * spent


def _trip(me: dict[str, Any], dest: int, no_car: bool = False) -> int:
    d = DIST[PLACE_INDEX[me["place"]]][dest]
    if me["cars"] and d >= CAR_MIN_SEGMENTS and not no_car:
        d -= CAR_SAVES
    return d


POLICIES: dict[str, type[Policy]] = {"random": RandomPolicy, "greedy": GreedyPolicy}
