"""Minos action turns (rules §5): retrieving a die, the slot bonus, palace traits, the main action point by
point (DP-10), and the extra actions craft, barter and fight."""

from __future__ import annotations

from typing import Final

from arena.games.minos import data as D
from arena.games.minos.effects import (
    affordable,
    cached_text,
    can_draw,
    distinct_copies,
    draw,
    eligible_deploy,
    enter,
    gain_perm,
    pay,
    perm_available,
    ship_step,
)
from arena.games.minos.end_of_round import income_1
from arena.games.minos.position import MinosPosition
from arena.games.minos.rhadamanthus import bot_turn
from arena.games.minos.vases import checkpoint


def auto_actions(st: MinosPosition) -> bool:
    order = st.turn_order
    while st.step_i < 4 * len(order):
        if st.turn is not None:
            return True
        s = st._turn_seat()
        if not st._human(s):
            bot_turn(st)
            st.step_i += 1
            checkpoint(st)  # a bot move can make a human dominant (it returns warriors)
            continue
        top = _retrieve_candidates(st, s)
        if len(top) > 1:
            return True
        retrieve(st, s, top[0])
        return True
    st.phase = "income"
    income_1(st)
    return False


def _retrieve_candidates(st: MinosPosition, s: int) -> list[str]:
    """The seat's dice not yet retrieved that show the highest value, sorted (one pass)."""
    best = -1
    top: list[str] = []
    retrieved = st.retrieved
    dice = st.dice
    for d, o in st.owner.items():
        if o == s and d not in retrieved:
            v = dice[d][1]
            if v > best:
                best = v
                top = [d]
            elif v == best:
                top.append(d)
    if not top:
        raise ValueError(f"seat {s} has no die left to retrieve")
    top.sort()
    return top


def retrieve(st: MinosPosition, s: int, die: str) -> None:
    row, slot = st.die_place(die)
    st.retrieved.append(die)
    sd = st.slot_data(row, slot)
    v = st.dice[die][1]
    traits = []
    for c in st.players[s]["palace"]:
        trig = D.card_of(c)["trait"]["trigger"]
        if trig.get("action") == row or v in trig.get("die", ()):
            traits.append(c)
    st.turn = {"seat": s, "die": die, "row": row, "slot": slot, "strength": sd["strength"],
                 "bonus": bool(sd["bonus"]), "traits": traits, "main": "pending", "action": "",
                 "points": 0, "pre": 0, "extras": []}
    st.foraged = []
    st._ev(type="retrieve", seat=s, die=die, row=row, slot=slot)


def legal_retrieve(st: MinosPosition) -> list[str]:
    return [cached_text(_RETRIEVE, "retrieve:", d) for d in _retrieve_candidates(st, st._turn_seat())]


def do_retrieve(st: MinosPosition, s: int, text: str) -> None:
    retrieve(st, s, text.split(":")[1])


#: Action texts built once: the same string objects each time (their hashes cached), so neither the legal list
#: nor the actions looked up from it build or hash a new string.
_CRAFT: Final = [f"extra:craft:{g}" for g in D.GOODS]
_BARTER: Final = [f"extra:barter:{g}" for g in D.GOODS]
_START: Final = [f"main:start:{a}" for a in D.MAIN_ACTIONS]
_FIGHT: Final = {r: f"extra:fight:{r}" for r in D.REGIONS}
_CITY: Final = {r: f"city:{r}" for r in D.REGIONS}
_TOWER: Final = {r: f"tower:{r}" for r in D.REGIONS}
_FARM: Final = {r: [f"farm:{r}:{g}" for g in D.REGIONS[r]["icons"]] for r in D.REGIONS}
_DEPLOY: Final = {r: [f"deploy:{r}:{k}" for k in (1, 2)] for r in D.REGIONS}
_MARCH: Final = {a: {b: [f"march:{a}:{b}:{k}" for k in (1, 2)] for b in D.ADJ[a]} for a in D.REGIONS}
_SHIP: Final = {r: f"ship:{r}" for r in D.ROUTES}
_STEP: Final = {r: f"step:{r}" for r in D.ROUTES}
_OFFER: Final = [f"offer:{i + 1}" for i in range(5)]
_TRAIT: Final[dict[str, str]] = {}  # card instance -> text (`cached_text`)
_PLAY: Final[dict[str, str]] = {}
_RETRIEVE: Final[dict[str, str]] = {}


def legal_turn(st: MinosPosition) -> list[str]:
    tr = st.current_turn()
    s = tr["seat"]
    p = st.players[s]
    out = []
    if tr["bonus"]:
        out.append("bonus")
    traits = tr["traits"]
    if traits:
        out += [cached_text(_TRAIT, "trait:", c) for c in distinct_copies(traits)]  # two copies fire alike
    main = tr["main"]
    if main == "pending":
        out.append("main:forgo")
        if tr["row"] == "wild":
            out += _START
        else:
            out.append("main:start")
    elif main == "active":
        out += _point_options(st, s, tr["action"])
        out.append("main:finish")
    extras = tr["extras"]
    if "craft" not in extras:
        temp = p["temp"]
        for i, g in enumerate(D.GOODS):
            if temp[g] >= 3 and perm_available(st, g):
                out.append(_CRAFT[i])
    weapons = p["weapons"]
    if weapons > 0 and "fight" not in extras:  # a fight costs at least 1 weapon
        fights: list[int] = []
        discount = 0
        asked = False  # the discount is asked only when a region has both the seat's warriors and a tile
        for r, reg in st.regions.items():
            if reg["w"][s]:
                sea = reg["sea"]
                if sea:
                    if not asked:
                        discount = st.mod(s, "fight_discount")
                        asked = True
                    if weapons >= max(1, D.SEA[sea[-1]]["weapons"] - discount):
                        fights.append(r)
        if fights:
            fights.sort()  # in region order
            out += [_FIGHT[r] for r in fights]
    if "barter" not in extras and p["coins"] >= 3:
        out += _BARTER
    if not tr["bonus"] and not traits and main == "done":
        out.append("end")
    return out


def _point_options(st: MinosPosition, s: int, action: str) -> list[str]:
    p = st.players[s]
    out: list[str] = []
    if action == "prepare":
        out = [_OFFER[i] for i, c in enumerate(st.offer) if c]
        if can_draw(st):
            out.append("deck")
    elif action == "develop":
        out = [cached_text(_PLAY, "play:", c) for c in distinct_copies(p["hand"], p["known"])
               if affordable(st, s, D.card_of(c)["cost"])]
    elif action == "build":
        b = D.BUILDINGS
        board = p["board"]
        # whether each piece can be paid does not depend on the region: asked once, and only if needed
        farm_ok = city_ok = tower_ok = -1
        for r in sorted(st.regions):
            reg = st.regions[r]
            if reg["w"][s]:
                sea = reg["sea"]
                if not (sea and D.SEA[sea[-1]]["level"] == 1):
                    if board["farm"]:
                        if farm_ok < 0:
                            farm_ok = int(affordable(st, s, b["farm"]["cost"]))
                        if farm_ok:
                            farms = reg["farms"]
                            texts = _FARM[r]
                            if farms[0] < 0:
                                out.append(texts[0])
                            if farms[1] < 0:
                                out.append(texts[1])
                    if board["city"] and reg["city"] < 0:
                        if city_ok < 0:
                            city_ok = int(affordable(st, s, b["city"]["cost"]))
                        if city_ok:
                            out.append(_CITY[r])
            if reg["city"] == s and not reg["tower"] and board["tower"]:
                if tower_ok < 0:
                    tower_ok = int(affordable(st, s, b["tower"]["cost"]))
                if tower_ok:
                    out.append(_TOWER[r])
        ships = p["ships"]
        if board["ship"] and affordable(st, s, b["ship"]["cost"]):
            out += [_SHIP[r] for r in D.ROUTES if not ships[r]]
        out += [_STEP[r] for r in D.ROUTES if 0 < ships[r] < D.ROUTE_MAX]
    elif action == "expand":
        if p["supply"]:
            out.append("recruit")
        reserve = p["reserve"]
        if reserve:
            for r in eligible_deploy(st, s):
                texts = _DEPLOY[r]
                out.append(texts[0])
                if reserve >= 2:
                    out.append(texts[1])
        regions = st.regions
        for a in sorted(regions):
            w = regions[a]["w"][s]
            if w:
                marches = _MARCH[a]
                for b2 in D.ADJ[a]:
                    if b2 in regions:
                        texts = marches[b2]
                        out.append(texts[0])
                        if w >= 2:
                            out.append(texts[1])
    return out


def do_turn(st: MinosPosition, s: int, text: str) -> None:
    tr = st.current_turn()
    p = st.players[s]
    arg = text.split(":")
    kind = arg[0]
    if kind == "bonus":
        tr["bonus"] = False
        st._push(s, st.slot_data(tr["row"], tr["slot"])["bonus"])
    elif kind == "trait":
        tr["traits"].remove(arg[1])
        st._push(s, D.card_of(arg[1])["trait"]["effect"])
    elif kind == "main":
        if arg[1] == "forgo":
            tr["main"] = "done"
            p["coins"] += D.C["forgo_coins"]
        elif arg[1] == "finish":
            tr["main"] = "done"
        else:
            action = arg[2] if len(arg) > 2 else tr["row"]
            tr["action"] = action
            tr["main"] = "active"
            tr["points"] = tr["strength"] + tr["pre"]
            tr["pre"] = 0
            if action == "build":
                m = st.mods(s)
                tr["points"] += m["build_strength_bonus"]
                if m["build_start_ship_step"]:
                    st.queue.insert(0, {"op": "ship_step", "n": m["build_start_ship_step"], "p": s})
            if tr["points"] <= 0:
                tr["main"] = "done"
    elif kind == "extra":
        tr["extras"].append(arg[1])
        if arg[1] == "craft":
            p["temp"][arg[2]] -= 3
            gain_perm(st, s, arg[2])
        elif arg[1] == "barter":
            p["coins"] -= 3
            p["temp"][arg[2]] += 1
        else:
            _fight(st, s, int(arg[2]))
    elif kind == "end":
        st.turn = None
        st.step_i += 1
    else:
        _point(st, s, text)
        tr["points"] -= 1
        if tr["points"] <= 0:
            tr["main"] = "done"


def _fight(st: MinosPosition, s: int, r: int) -> None:
    p = st.players[s]
    reg = st.regions[r]
    tile = reg["sea"][-1]
    st._dirty = True
    p["weapons"] -= st._fight_cost(s, tile)
    reg["w"][s] -= 1
    p["supply"] += 1
    reg["sea"].pop()
    p["sea"].append(tile)
    st._ev(type="fight", seat=s, region=r, tile=tile)
    st._push(s, D.SEA[tile]["reward"] + [{"op": "vp", "n": st.mod(s, "fight_vp_bonus")}])


def _point(st: MinosPosition, s: int, text: str) -> None:
    """One point of a main action (DP-10)."""
    p = st.players[s]
    arg = text.split(":")
    kind = arg[0]
    if kind in ("offer", "deck"):
        draw(st, s, text)
    elif kind == "play":
        c = arg[1]
        pay(st, s, D.card_of(c)["cost"])
        p["hand"].remove(c)
        if c in p["known"]:
            p["known"].remove(c)
        p["play"].append(c)
        st._dirty = True
        st._ev(type="play", seat=s, card=c)
        st._push(s, D.card_of(c)["effect"])
    elif kind in ("farm", "city", "tower", "ship"):
        build(st, s, kind, arg[1:])
    elif kind == "step":
        ship_step(st, s, arg[1])
    elif kind == "recruit":
        k = min(D.C["warriors_per_expand_point"], p["supply"])
        p["supply"] -= k
        p["reserve"] += k
    elif kind == "deploy":
        k = int(arg[2])
        p["reserve"] -= k
        enter(st, s, int(arg[1]), k)
    elif kind == "march":
        k = int(arg[3])
        st.regions[int(arg[1])]["w"][s] -= k
        enter(st, s, int(arg[2]), k)


def build(st: MinosPosition, s: int, kind: str, arg: list[str]) -> None:
    """Build one piece in the fixed order of rules §5.3."""
    p = st.players[s]
    st._dirty = True
    pay(st, s, D.BUILDINGS[kind]["cost"])
    if kind == "farm":
        r = int(arg[0])
        st.regions[r]["w"][s] -= 1
        p["supply"] += 1
    slot = D.PIECES_ON_BOARD[kind] - p["board"][kind]
    p["board"][kind] -= 1
    after: list[dict] = []
    if kind == "farm":
        icon = D.REGIONS[r]["icons"].index(arg[1])  # the two icons of a region are different goods
        st.regions[r]["farms"][icon] = s
        after = [{"op": "temp_good", "good": D.REGIONS[r]["icons"][icon], "n": 1}]
    elif kind == "city":
        r = int(arg[0])
        reg = st.regions[r]
        reg["city"] = s
        if reg["found"]:
            p["found"].append(reg["found"])
            after = list(D.FOUNDATIONS[reg["found"]]["effect"])
            reg["found"] = ""
    elif kind == "tower":
        st.regions[int(arg[0])]["tower"] = True
    else:
        route = arg[0]
        p["ships"][route] = st.mod(s, "ship_start_space")
        after = [{"op": "_arrive", "route": route}]
    st._ev(type="build", seat=s, piece=kind, where=":".join(arg))
    # (4) the uncovered slot's effect, then (5) building income read when it resolves: at the ability level
    # that effect (or an income step it causes) may just have raised (§5.3, §9.3), then (6)
    st._push(s, list(D.UNCOVER[kind][slot]["on_uncover"]) + [{"op": "building_income"}] + after)
