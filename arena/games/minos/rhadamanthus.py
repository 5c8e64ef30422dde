"""Rhadamanthus, the solo opponent (rules §14), as part of the rules: the engine runs its draft picks and action
turns itself, from its shuffled 12-card deck and the randomization pool, using the state's RNG.

Rhadamanthus sits on map seat `BOT` (1). It has no resources; it gains VP directly (`state.solo_bot()["parts"]`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from arena.games.minos import data as D
from arena.games.minos.effects import take_offer
from arena.games.minos.position import BOT, MinosPosition, Region

COLOUR_RANK: Final = {c: i for i, c in enumerate(D.SOLO["die_colour_tiebreak"])}
ROW_RANK: Final = {r: i for i, r in enumerate(D.SOLO["retrieve_tiebreak_rows"])}


def pick_die(state: MinosPosition, front: dict, pool: list[str]) -> str:
    """The die a bot card's front selects from `pool` (§14.2 step 2)."""
    rule = front["die"]
    sign = -1 if rule["pick"] == "highest" else 1

    def best(cands: list[str]) -> str:
        return min(cands, key=lambda d: (sign * state.dice[d][1], COLOUR_RANK[state.dice[d][0]], d))

    for colour in rule["colours"]:
        if colour == "any":
            break
        cands = [d for d in pool if state.dice[d][0] == colour]
        if cands:
            return best(cands)
    return best(pool)


def placement_row(state: MinosPosition, back: dict) -> str:
    """The first row with a free slot in the order a1, wild, a2, a3, a4 (§14.2 step 3)."""
    a = back["action_priority"]
    free = state._free_rows()
    for row in (a[0], "wild", a[1], a[2], a[3]):
        if row in free:
            return row
    raise AssertionError("the action board always has a free slot during the draft")


def claim_vase(state: MinosPosition, colour: str) -> None:
    """§14.4: the lowest free VP slot of that colour's vase, unless the bot already has a marker there."""
    vase = next(v for v in state.vases if v["colour"] == colour)
    if BOT in vase["achieved"]:
        return
    free = sorted((sl for sl in vase["slots"] if sl[1] < 0), key=lambda sl: sl[0])
    if not free:
        return
    free[0][1] = BOT
    vase["achieved"].append(BOT)
    state._bot_vp(free[0][0], "vases")
    state._ev(type="bot_vase", vase=vase["id"], vp=free[0][0])


def bot_draft(state: MinosPosition) -> None:
    b = state.solo_bot()
    card = b["deck"].pop(0)
    b["drawn"].append(card)
    front = D.BOT_DECK[card]["front"]
    die = pick_die(state, front, state._pool())
    row = placement_row(state, D.BOT_DECK[b["deck"][0]]["back"])
    if row == "wild":
        b["intent"][die] = D.BOT_DECK[b["deck"][0]]["back"]["action_priority"][0]
    state._place(BOT, die, row)
    if front["vase"]:
        claim_vase(state, front["vase"])


def _level1_on_top(reg: Region) -> bool:
    return bool(reg["sea"]) and D.SEA[reg["sea"][-1]]["level"] == 1


def bot_turn(state: MinosPosition) -> None:
    """One action turn of Rhadamanthus (§14.3)."""
    b = state.solo_bot()
    mine = [d for d, o in state.owner.items() if o == BOT and d not in state.retrieved]

    def key(d: str):
        row, slot = state.die_place(d)
        return (-state.dice[d][1], ROW_RANK[row], slot)

    die = min(mine, key=key)
    row, slot = state.die_place(die)
    state.retrieved.append(die)
    sd = state.slot_data(row, slot)
    for op in sd["bonus"]:
        if op["op"] == "track":
            state._bot_vp(D.C["bot_track_step_vp"] * op.get("n", 1), "track_bonus")
    action = b["intent"].get(die, "prepare") if row == "wild" else row
    strength = sd["strength"]
    if action == "expand":
        strength = -(-strength // 2)
    state._ev(type="bot_retrieve", die=die, row=row, slot=slot, action=action, strength=strength)
    for _ in range(strength):
        _POINTS[action](state)


def _fallback(state: MinosPosition) -> None:
    state._bot_vp(D.C["bot_empty_fallback_vp"], "fallback")


def _point_prepare(state: MinosPosition) -> None:
    for i, c in enumerate(state.offer):
        if c:
            state.solo_bot()["down"].append(take_offer(state, i))
            state._ev(type="bot_take", card=c, face="down")
            return
    _fallback(state)


def _point_develop(state: MinosPosition) -> None:
    best = -1
    for i, c in enumerate(state.offer):
        if c and (best < 0 or D.card_of(c)["vp"] > D.card_of(state.offer[best])["vp"]):
            best = i
    if best < 0:
        _fallback(state)
        return
    c = take_offer(state, best)
    state.solo_bot()["up"].append(c)
    state._ev(type="bot_take", card=c, face="up")


def _candidates(state: MinosPosition, good: str) -> list[int]:
    return [r for r in D.BOT_CANDIDATES[good] if r in state.regions]


def _point_build(state: MinosPosition) -> None:
    b = state.solo_bot()
    good = state.rng.choice(D.SOLO["randomization_pool"])
    cands = _candidates(state, good)
    if b["board"]["city"]:
        for r in cands:
            reg = state.regions[r]
            if reg["w"][BOT] and reg["city"] < 0 and not _level1_on_top(reg):
                reg["city"] = BOT
                reg["found"] = ""  # removed from the game
                b["board"]["city"] -= 1
                state._bot_vp(D.C["bot_city_vp"], "cities")
                state._ev(type="bot_build", piece="city", region=r, token=good)
                return
    if b["board"]["farm"]:
        for r in cands:
            reg = state.regions[r]
            icons = D.REGIONS[r]["icons"]
            free = [i for i in (0, 1) if icons[i] == good and reg["farms"][i] < 0]
            if free and reg["w"][BOT] and not _level1_on_top(reg):
                reg["farms"][free[0]] = BOT
                reg["w"][BOT] -= 1
                b["supply"] += 1
                b["board"]["farm"] -= 1
                state._ev(type="bot_build", piece="farm", region=r, token=good)
                return
    movable = [r for r in D.ROUTES if b["ships"][r] < D.ROUTE_MAX]
    if movable:
        route = min(movable, key=lambda x: (b["ships"][x], D.ROUTES.index(x)))
        b["ships"][route] += 1
        state._ev(type="bot_ship", route=route, token=good)
        return
    _fallback(state)


def _place_presence(state: MinosPosition, r: int) -> None:
    b = state.solo_bot()
    w = state.regions[r]["w"]
    rival = max(x for s, x in enumerate(w) if s != BOT)
    k = min(max(rival - w[BOT] + 1, 1), 2, b["supply"])
    w[BOT] += k
    b["supply"] -= k
    state._ev(type="bot_deploy", region=r, warriors=k)


def _point_expand(state: MinosPosition) -> None:
    b = state.solo_bot()
    good = state.rng.choice(D.SOLO["randomization_pool"])
    cands = _candidates(state, good)
    for r in cands:
        reg = state.regions[r]
        if reg["w"][BOT] and reg["sea"]:
            tile = reg["sea"].pop()
            b["sea"].append(tile)
            reg["w"][BOT] -= 1
            b["supply"] += 1
            state._bot_vp(D.SEA[tile]["weapons"], "fights")
            state._ev(type="bot_fight", region=r, tile=tile, token=good)
            return
    if b["supply"]:
        for r in cands + sorted(state.regions):
            if state.dominant(r) != BOT:
                _place_presence(state, r)
                return
    _fallback(state)


#: one point of each main action Rhadamanthus performs (rules §14)
_POINTS: Final[dict[str, Callable[[MinosPosition], None]]] = {
    "prepare": _point_prepare, "develop": _point_develop, "build": _point_build, "expand": _point_expand,
}
