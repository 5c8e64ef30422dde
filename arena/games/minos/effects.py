"""The Minos effect queue (rules §2.4): effects are lists of primitive operations run front first; an operation
that needs a choice stops the queue and becomes the current decision. Also the primitives effects and actions
share: cards from the deck and offer, permanent goods, costs, warriors entering regions."""

from __future__ import annotations

from collections.abc import Collection
from typing import Final

from arena.games.minos import data as D
from arena.games.minos.position import MinosPosition


def distinct_copies(cards: Collection[str], known: Collection[str] = ()) -> list[str]:
    """One instance per distinct outcome, sorted: copies of one card (`I-07#1`, `I-07#2`) are interchangeable
    unless other seats can tell them apart (one of them is `known`, i.e. was taken from the offer), so the
    lowest instance id of each (card, known) pair stands for all of them."""
    if len(cards) <= 1:
        return list(cards)  # nothing to tell apart (the common case: no or one trait, one card)
    first: dict[tuple[str, bool], str] = {}
    for c in sorted(set(cards)):
        first.setdefault((c.split("#", 1)[0], c in known), c)
    return sorted(first.values())


def cached_text(table: dict[str, str], prefix: str, arg: str) -> str:
    """`prefix + arg`, built once and kept in `table` (a bounded cache): legal-action lists then hold the same
    string objects each time, whose hashes are cached for the action look-ups."""
    t = table.get(arg)
    if t is None:
        t = prefix + arg
        if len(table) < 10_000:
            table[arg] = t
    return t


EFFECT_CHOICE_OPS: Final = {"temp_good", "perm_good", "draw_card", "track", "deploy", "march", "ship_step", "_forage",
                     "_trade"}


def draw_from_deck(st: MinosPosition) -> str | None:
    deck = st.decks[st.era]
    if not deck:
        disc = st.discard[st.era]
        if not disc:
            return None
        st.rng.shuffle(disc)
        deck.extend(disc)
        disc.clear()
    return deck.pop()


def can_draw(st: MinosPosition) -> bool:
    return bool(st.decks[st.era] or st.discard[st.era])


def take_offer(st: MinosPosition, slot: int) -> str:
    card = st.offer[slot]
    st.offer[slot] = draw_from_deck(st) or ""
    return card


def perm_available(st: MinosPosition, g: str) -> bool:
    return st.stacks[g] > 0 or g in st.pile


def take_perm_tile(st: MinosPosition, g: str) -> bool:
    if st.stacks[g] > 0:
        st.stacks[g] -= 1
        return True
    if g in st.pile:
        st.pile.remove(g)  # the order of the rest stays as it is [D-36]
        return True
    return False


def gain_perm(st: MinosPosition, s: int, g: str) -> None:
    """A permanent good after setup: the tile, then one income step (rules §2.4)."""
    if take_perm_tile(st, g):
        st._dirty = True
        st.players[s]["perm"][g] += 1
        st.queue.insert(0, {"op": "income_step", "n": 1, "p": s})


def sources(st: MinosPosition, s: int, g: str) -> int:
    p = st.players[s]
    return p["perm"][g] + sum(1 for c in p["play"] if D.card_of(c)["discount"] == g)


def affordable(st: MinosPosition, s: int, cost: dict) -> bool:
    p = st.players[s]
    if p["coins"] < cost.get("coins", 0):
        return False
    for g, k in cost.get("goods", {}).items():
        if p["temp"][g] < k - min(k, sources(st, s, g)):
            return False
    return True


def pay(st: MinosPosition, s: int, cost: dict) -> None:
    p = st.players[s]
    p["coins"] -= cost.get("coins", 0)
    for g, k in cost.get("goods", {}).items():
        p["temp"][g] -= k - min(k, sources(st, s, g))


def eligible_deploy(st: MinosPosition, s: int) -> list[int]:
    own = set()
    for r, reg in st.regions.items():
        if reg["w"][s] or reg["city"] == s or s in reg["farms"]:
            own.add(r)
    out = set(own)
    for r in own:
        out.update(a for a in D.ADJ[r] if a in st.regions)
    return sorted(out)


def enter(st: MinosPosition, s: int, r: int, k: int) -> None:
    """k warriors of human seat s enter region r (already removed from where they came); foraging §2.5."""
    reg = st.regions[r]
    st._dirty = True
    had = reg["w"][s] > 0
    reg["w"][s] += k
    if not had and [s, r] not in st.foraged:
        st.foraged.append([s, r])
        st.queue.insert(0, {"op": "_forage", "r": r, "p": s})


def uncovered(st: MinosPosition, r: int) -> list[str]:
    reg = st.regions[r]
    return [g for i, g in enumerate(D.REGIONS[r]["icons"]) if reg["farms"][i] < 0]


def execute(st: MinosPosition, t: dict) -> bool:
    """Resolve the front task one unit at a time. True when it needs the seat's choice (it stays in front)."""
    op = t["op"]
    s = t["p"]
    p = st.players[s]
    if op in EFFECT_CHOICE_OPS:
        opts = choice_options(st, t)
        if not opts:
            st.queue.pop(0)
            return False
        if op == "_forage" and len(opts) == 1:
            choose(st, t, opts[0])
            return False
        if op in ("temp_good", "perm_good", "track") and t.get("good", t.get("track")) not in ("any",):
            choose(st, t, opts[0])  # named: no real choice
            return False
        return True
    st.queue.pop(0)
    n = t.get("n", 1)
    if op == "coins":
        p["coins"] += n
    elif op == "weapons":
        p["weapons"] += n
    elif op == "vp":
        st._vp(s, n)
    elif op == "recruit":
        k = min(n, p["supply"])
        p["supply"] -= k
        p["reserve"] += k
    elif op == "income_step":
        if n > 1:  # one space at a time: this space's on-enter effect resolves before the next step
            st.queue.insert(0, dict(t, n=n - 1))
        if p["income"] >= D.INCOME_MAX:
            st._vp(s, D.C["overflow_vp_per_step"])
        else:
            p["income"] += 1
            st._push(s, D.INCOME[p["income"]]["on_enter"])
    elif op == "ability_step":
        for _ in range(n):
            if p["level"] >= 3:
                st._vp(s, D.C["overflow_vp_per_step"])
            else:
                p["level"] += 1
    elif op == "building_income":
        m = st.mods(s)  # now, not when the building was placed: see turn.build
        p["coins"] += m["building_coins"]
        st._vp(s, m["building_vp"])
    elif op == "vp_per":
        k = _count(st, s, t["what"])
        gain = k * t["each"]
        if "max" in t:
            gain = min(gain, t["max"])
        st._vp(s, gain)
    elif op == "bonus_action":
        st._push(s, D.BONUS_ACTIONS[st.bonus_action]["effect"])
    elif op == "action_bonus":
        tr = st.turn
        if tr is not None and tr["seat"] == s:
            if tr["main"] == "pending":
                tr["pre"] += n
            elif tr["main"] == "active":
                tr["points"] += n
    elif op == "_arrive":
        bonus = D.ROUTE_SPACES[t["route"]][p["ships"][t["route"]]].get("trade_bonus")
        if bonus:
            st.queue.insert(0, {"op": "_trade", "colour": bonus, "p": s})
    else:
        raise AssertionError(f"unknown op {op}")
    return False


def _count(st: MinosPosition, s: int, what: str) -> int:
    p = st.players[s]
    if what == "farms":
        return st.farms_on_map(s)
    if what == "cities":
        return sum(1 for reg in st.regions.values() if reg["city"] == s)
    if what == "towers":
        return D.PIECES_ON_BOARD["tower"] - p["board"]["tower"]
    if what == "ships":
        return sum(1 for v in p["ships"].values() if v)
    if what == "regions_present":
        return sum(1 for reg in st.regions.values() if reg["w"][s])
    if what == "palace_cards":
        return len(p["palace"])
    if what == "perm_goods":
        return sum(p["perm"].values())
    if what == "sea_peoples_defeated":
        return len(p["sea"])
    if what == "play_area_cards":
        return len(p["play"])
    raise KeyError(what)


def choice_options(st: MinosPosition, t: dict) -> list[str]:
    op = t["op"]
    s = t["p"]
    p = st.players[s]
    if op == "temp_good":
        return [f"good:{g}" for g in (D.GOODS if t["good"] == "any" else [t["good"]])]
    if op == "perm_good":
        if t["good"] == "random":
            return ["deck"] if st.pile else []
        goods = D.GOODS if t["good"] == "any" else [t["good"]]
        return [f"good:{g}" for g in goods if perm_available(st, g)]
    if op == "track":
        return [f"track:{x}" for x in (D.TRACKS if t["track"] == "any" else [t["track"]])]
    if op == "draw_card":
        out = [f"offer:{i + 1}" for i, c in enumerate(st.offer) if c]
        if can_draw(st):
            out.append("deck")
        return out
    if op == "deploy":
        if not p["reserve"]:
            return []
        out = [f"deploy:{r}" for r in eligible_deploy(st, s)]
        return out + ["stop"] if out else []
    if op == "march":
        out = [f"march:{a}:{b}" for a in sorted(st.regions) if st.regions[a]["w"][s]
               for b in D.ADJ[a] if b in st.regions]
        return out + ["stop"] if out else []
    if op == "ship_step":
        out = [f"step:{r}" for r in D.ROUTES if 0 < p["ships"][r] < D.ROUTE_MAX]
        return out + ["stop"] if out else []
    if op == "_forage":
        return [f"good:{g}" for g in dict.fromkeys(uncovered(st, t["r"]))]
    if op == "_trade":
        return [f"tile:{x}" for x in st.trade_tiles if D.TRADE_TILES[x]["colour"] == t["colour"]]
    raise AssertionError(op)


def _unit_done(st: MinosPosition, t: dict) -> None:
    """One unit of the front task is resolved: drop it or count it down (before pushing sub-effects)."""
    t["n"] = t.get("n", 1) - 1
    if t["n"] <= 0:
        st.queue.pop(0)


def choose(st: MinosPosition, t: dict, text: str) -> None:
    op = t["op"]
    s = t["p"]
    p = st.players[s]
    arg = text.split(":")
    if op == "temp_good":
        _unit_done(st, t)
        p["temp"][arg[1]] += 1
    elif op == "perm_good":
        st.queue.pop(0)
        if t["good"] == "random":
            g = st.pile.pop()
            st._dirty = True
            p["perm"][g] += 1
            st.queue.insert(0, {"op": "income_step", "n": 1, "p": s})
        else:
            gain_perm(st, s, arg[1])
    elif op == "track":
        _unit_done(st, t)
        _track_step(st, s, arg[1])
    elif op == "draw_card":
        _unit_done(st, t)
        draw(st, s, text)
    elif op == "deploy":
        if text == "stop":
            st.queue.pop(0)
            return
        _unit_done(st, t)
        p["reserve"] -= 1
        enter(st, s, int(arg[1]), 1)
    elif op == "march":
        if text == "stop":
            st.queue.pop(0)
            return
        _unit_done(st, t)
        st.regions[int(arg[1])]["w"][s] -= 1
        enter(st, s, int(arg[2]), 1)
    elif op == "ship_step":
        if text == "stop":
            st.queue.pop(0)
            return
        _unit_done(st, t)
        ship_step(st, s, arg[1])
    elif op == "_forage":
        st.queue.pop(0)
        p["temp"][arg[1]] += 1
    elif op == "_trade":
        st.queue.pop(0)
        st.trade_tiles.remove(arg[1])
        p["trade"].append(arg[1])
        st._push(s, D.TRADE_TILES[arg[1]]["effect"])
    st._ev(type="choice", seat=s, op=op.lstrip("_"), choice=text)


def _track_step(st: MinosPosition, s: int, track: str) -> None:
    p = st.players[s]
    if p["tracks"][track] >= D.TRACK_MAX:
        st._vp(s, D.C["overflow_vp_per_step"])
        return
    p["tracks"][track] += 1
    st._dirty = True
    st._push(s, D.TRACK[track]["on_enter"].get(str(p["tracks"][track]), []))


def ship_step(st: MinosPosition, s: int, route: str) -> None:
    st.players[s]["ships"][route] += 1
    st.queue.insert(0, {"op": "_arrive", "route": route, "p": s})


def draw(st: MinosPosition, s: int, text: str) -> None:
    p = st.players[s]
    if text == "deck":
        c = draw_from_deck(st)
        if c:
            p["hand"].append(c)
    else:
        c = take_offer(st, int(text.split(":")[1]) - 1)
        p["hand"].append(c)
        p["known"].append(c)
        st._ev(type="take_offer", seat=s, card=c)
