"""Thebes greedy bot: plays the legal action with the most estimated points per week spent, travel included.

Exhibitions are worth their points; a dig its expected finds from the public bag contents; a card a fixed worth
(less as the game runs out; congress cards their marginal points). The public rule numbers it needs (distances,
the time wheel, congress points) travel with the bot in thebes_rules.json: bots have no network at run time.
"""

import json
from pathlib import Path

from arena_bot import Bot, run

RULES = json.loads((Path(__file__).parent / "thebes_rules.json").read_text())
DIST, WHEEL = RULES["distance"], RULES["wheel"]
CARD_WORTH = {"assistant": 1.5, "shovel": 1.5, "car": 2.0, "zeppelin": 1.0, "special_permission": 0.8}
SPENT_CARD_COST = 0.5   # a one-use card spent now could have helped later
TOKEN_WORTH = 1.0       # a knowledge token found in a bag, in points


def congress_points(count):
    points = RULES["congress_points"]
    return points[min(count, len(points) - 1)]


class Greedy(Bot):
    def decide(self, request):
        obs = request.thebes
        me = obs.seats[obs.current_player]
        values = [self.value(obs, me, legal.thebes) for legal in request.legal_actions]
        return values.index(max(values))  # ties: the first in legal order

    def value(self, obs, me, act):
        if act.kind == "retire":
            return 0.0
        late = min(max(RULES["end_time"] - me.time, 1) / 104.0, 1.0)  # share of the game still to play
        if act.kind == "take":
            card = next(c for c in obs.display if c.id == act.card)
            gain = card_gain(me, card) * (1.0 if card.kind == "congress" else late)
            weeks, dest = card.weeks, card.city
        elif act.kind == "exhibit":
            card = next(x for x in obs.exhibitions if x.id == act.card)
            gain, weeks, dest = float(card.points), card.weeks, card.city
        elif act.kind == "exchange":
            again = obs.exchange_run_seat == me.seat
            gain, weeks, dest = 0.2, 1 + (obs.exchange_run_count if again else 0), "warsaw"
        else:
            gain, weeks, dest = dig_gain(obs, me, act), act.weeks, RULES["site_place"][act.site]
        if act.zeppelin:
            travel, gain = 0, gain - SPENT_CARD_COST
        else:
            travel = trip(me, dest, act.no_car)
        return gain / (travel + weeks)


def card_gain(me, card):
    if card.kind == "specialized_knowledge":
        return 1.2 * card.value
    if card.kind == "general_knowledge":
        return 0.8 * card.value
    if card.kind == "rumors":
        return 1.0
    if card.kind == "congress":
        return float(congress_points(me.congress + 1) - congress_points(me.congress))
    if card.kind == "assistant" and me.assistants >= 3 or card.kind == "shovel" and me.shovels >= 3:
        return 0.0
    if card.kind == "car" and me.cars:
        return 0.0
    return CARD_WORTH.get(card.kind, 0.5)


def dig_gain(obs, me, act):
    spec = me.books[act.site] + RULES["assistant_bonus"][min(me.assistants, 3)]
    spec += (2 if act.rumors else 0) + (1 if act.assistant else 0)
    knowledge = min(spec + min(me.general_knowledge, spec), RULES["knowledge_cap"])
    draws = WHEEL[knowledge][act.weeks] + RULES["shovel_bonus"][min(me.shovels, 3)] + (1 if act.shovel else 0)
    bag = next(b for b in obs.bags if b.site == act.site)
    worth = sum(bag.artifacts) + TOKEN_WORTH * (len(bag.specialized) + bag.general)
    gain = min(draws, bag.size) * worth / bag.size if bag.size else 0.0
    if bag.first_dig_bonus:
        gain += 1.0
    spent = sum(1 for flag in (act.rumors, act.assistant, act.shovel, act.permission) if flag)
    return gain - SPENT_CARD_COST * spent


def trip(me, dest, no_car=False):
    d = DIST[me.place][dest]
    if me.cars and d >= RULES["car_min_segments"] and not no_car:
        d -= RULES["car_saves"]
    return d


if __name__ == "__main__":
    run(Greedy())
