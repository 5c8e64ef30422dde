"""The Minos effect queue (rules §2.4): effects are lists of primitive operations run front first; an operation
that needs a choice stops the queue and becomes the current decision. Also the primitives effects and actions
share: cards from the deck and offer, permanent goods, costs, warriors entering regions."""

from __future__ import annotations

from collections.abc import Collection, Iterable

from arena.games.minos import data as D
from arena.games.minos.position import MinosPosition


def distinct_copies(cards: Iterable[str], known: Collection[str] = ()) -> list[str]:
    """One instance per distinct outcome, sorted: copies of one card (`I-07#1`, `I-07#2`) are interchangeable
    unless other seats can tell them apart (one of them is `known`, i.e. was taken from the offer), so the
    lowest instance id of each (card, known) pair stands for all of them."""
    first: dict[tuple[str, bool], str] = {}
    for c in sorted(set(cards)):
        first.setdefault((c.split("#", 1)[0], c in known), c)
    return sorted(first.values())


EFFECT_CHOICE_OPS = {"temp_good", "perm_good", "draw_card", "track", "deploy", "march", "ship_step", "_forage",
                     "_trade"}


class EffectsMixin(MinosPosition):
    """The work queue of effect operations, and the resource and map primitives they use.

    A mixin of `MinosState` over the declared `MinosPosition`: it adds no fields."""

    __slots__ = ()

    def _draw_from_deck(self) -> str | None:
        deck = self.decks[self.era]
        if not deck:
            disc = self.discard[self.era]
            if not disc:
                return None
            self.rng.shuffle(disc)
            deck.extend(disc)
            disc.clear()
        return deck.pop()

    def _can_draw(self) -> bool:
        return bool(self.decks[self.era] or self.discard[self.era])

    def _take_offer(self, slot: int) -> str:
        card = self.offer[slot]
        self.offer[slot] = self._draw_from_deck() or ""
        return card

    def _perm_available(self, g: str) -> bool:
        return self.stacks[g] > 0 or g in self.pile

    def _take_perm_tile(self, g: str) -> bool:
        if self.stacks[g] > 0:
            self.stacks[g] -= 1
            return True
        if g in self.pile:
            self.pile.remove(g)  # the order of the rest stays as it is [D-36]
            return True
        return False

    def _gain_perm(self, s: int, g: str) -> None:
        """A permanent good after setup: the tile, then one income step (rules §2.4)."""
        if self._take_perm_tile(g):
            self._dirty = True
            self.players[s]["perm"][g] += 1
            self.queue.insert(0, {"op": "income_step", "n": 1, "p": s})

    def _sources(self, s: int, g: str) -> int:
        p = self.players[s]
        return p["perm"][g] + sum(1 for c in p["play"] if D.card_of(c)["discount"] == g)

    def _affordable(self, s: int, cost: dict) -> bool:
        p = self.players[s]
        if p["coins"] < cost.get("coins", 0):
            return False
        for g, k in cost.get("goods", {}).items():
            if p["temp"][g] < k - min(k, self._sources(s, g)):
                return False
        return True

    def _pay(self, s: int, cost: dict) -> None:
        p = self.players[s]
        p["coins"] -= cost.get("coins", 0)
        for g, k in cost.get("goods", {}).items():
            p["temp"][g] -= k - min(k, self._sources(s, g))

    def _eligible_deploy(self, s: int) -> list[int]:
        own = set()
        for r, reg in self.regions.items():
            if reg["w"][s] or reg["city"] == s or s in reg["farms"]:
                own.add(r)
        out = set(own)
        for r in own:
            out.update(a for a in D.ADJ[r] if a in self.regions)
        return sorted(out)

    def _enter(self, s: int, r: int, k: int) -> None:
        """k warriors of human seat s enter region r (already removed from where they came); foraging §2.5."""
        reg = self.regions[r]
        self._dirty = True
        had = reg["w"][s] > 0
        reg["w"][s] += k
        if not had and [s, r] not in self.foraged:
            self.foraged.append([s, r])
            self.queue.insert(0, {"op": "_forage", "r": r, "p": s})

    def _uncovered(self, r: int) -> list[str]:
        reg = self.regions[r]
        return [g for i, g in enumerate(D.REGIONS[r]["icons"]) if reg["farms"][i] < 0]

    def _exec(self, t: dict) -> bool:
        """Resolve the front task one unit at a time. True when it needs the seat's choice (it stays in front)."""
        op = t["op"]
        s = t["p"]
        p = self.players[s]
        if op in EFFECT_CHOICE_OPS:
            opts = self._choice_options(t)
            if not opts:
                self.queue.pop(0)
                return False
            if op == "_forage" and len(opts) == 1:
                self._choose(t, opts[0])
                return False
            if op in ("temp_good", "perm_good", "track") and t.get("good", t.get("track")) not in ("any",):
                self._choose(t, opts[0])  # named: no real choice
                return False
            return True
        self.queue.pop(0)
        n = t.get("n", 1)
        if op == "coins":
            p["coins"] += n
        elif op == "weapons":
            p["weapons"] += n
        elif op == "vp":
            self._vp(s, n)
        elif op == "recruit":
            k = min(n, p["supply"])
            p["supply"] -= k
            p["reserve"] += k
        elif op == "income_step":
            if n > 1:  # one space at a time: this space's on-enter effect resolves before the next step
                self.queue.insert(0, dict(t, n=n - 1))
            if p["income"] >= D.INCOME_MAX:
                self._vp(s, D.C["overflow_vp_per_step"])
            else:
                p["income"] += 1
                self._push(s, D.INCOME[p["income"]]["on_enter"])
        elif op == "ability_step":
            for _ in range(n):
                if p["level"] >= 3:
                    self._vp(s, D.C["overflow_vp_per_step"])
                else:
                    p["level"] += 1
        elif op == "building_income":
            m = self.mods(s)  # now, not when the building was placed: see Turn._build
            p["coins"] += m["building_coins"]
            self._vp(s, m["building_vp"])
        elif op == "vp_per":
            k = self._count(s, t["what"])
            gain = k * t["each"]
            if "max" in t:
                gain = min(gain, t["max"])
            self._vp(s, gain)
        elif op == "bonus_action":
            self._push(s, D.BONUS_ACTIONS[self.bonus_action]["effect"])
        elif op == "action_bonus":
            tr = self.turn
            if tr is not None and tr["seat"] == s:
                if tr["main"] == "pending":
                    tr["pre"] += n
                elif tr["main"] == "active":
                    tr["points"] += n
        elif op == "_arrive":
            bonus = D.ROUTE_SPACES[t["route"]][p["ships"][t["route"]]].get("trade_bonus")
            if bonus:
                self.queue.insert(0, {"op": "_trade", "colour": bonus, "p": s})
        else:
            raise AssertionError(f"unknown op {op}")
        return False

    def _count(self, s: int, what: str) -> int:
        p = self.players[s]
        if what == "farms":
            return self.farms_on_map(s)
        if what == "cities":
            return sum(1 for reg in self.regions.values() if reg["city"] == s)
        if what == "towers":
            return D.PIECES_ON_BOARD["tower"] - p["board"]["tower"]
        if what == "ships":
            return sum(1 for v in p["ships"].values() if v)
        if what == "regions_present":
            return sum(1 for reg in self.regions.values() if reg["w"][s])
        if what == "palace_cards":
            return len(p["palace"])
        if what == "perm_goods":
            return sum(p["perm"].values())
        if what == "sea_peoples_defeated":
            return len(p["sea"])
        if what == "play_area_cards":
            return len(p["play"])
        raise KeyError(what)

    def _choice_options(self, t: dict) -> list[str]:
        op = t["op"]
        s = t["p"]
        p = self.players[s]
        if op == "temp_good":
            return [f"good:{g}" for g in (D.GOODS if t["good"] == "any" else [t["good"]])]
        if op == "perm_good":
            if t["good"] == "random":
                return ["deck"] if self.pile else []
            goods = D.GOODS if t["good"] == "any" else [t["good"]]
            return [f"good:{g}" for g in goods if self._perm_available(g)]
        if op == "track":
            return [f"track:{x}" for x in (D.TRACKS if t["track"] == "any" else [t["track"]])]
        if op == "draw_card":
            out = [f"offer:{i + 1}" for i, c in enumerate(self.offer) if c]
            if self._can_draw():
                out.append("deck")
            return out
        if op == "deploy":
            if not p["reserve"]:
                return []
            out = [f"deploy:{r}" for r in self._eligible_deploy(s)]
            return out + ["stop"] if out else []
        if op == "march":
            out = [f"march:{a}:{b}" for a in sorted(self.regions) if self.regions[a]["w"][s]
                   for b in D.ADJ[a] if b in self.regions]
            return out + ["stop"] if out else []
        if op == "ship_step":
            out = [f"step:{r}" for r in D.ROUTES if 0 < p["ships"][r] < D.ROUTE_MAX]
            return out + ["stop"] if out else []
        if op == "_forage":
            return [f"good:{g}" for g in dict.fromkeys(self._uncovered(t["r"]))]
        if op == "_trade":
            return [f"tile:{x}" for x in self.trade_tiles if D.TRADE_TILES[x]["colour"] == t["colour"]]
        raise AssertionError(op)

    def _unit_done(self, t: dict) -> None:
        """One unit of the front task is resolved: drop it or count it down (before pushing sub-effects)."""
        t["n"] = t.get("n", 1) - 1
        if t["n"] <= 0:
            self.queue.pop(0)

    def _choose(self, t: dict, text: str) -> None:
        op = t["op"]
        s = t["p"]
        p = self.players[s]
        arg = text.split(":")
        if op == "temp_good":
            self._unit_done(t)
            p["temp"][arg[1]] += 1
        elif op == "perm_good":
            self.queue.pop(0)
            if t["good"] == "random":
                g = self.pile.pop()
                self._dirty = True
                p["perm"][g] += 1
                self.queue.insert(0, {"op": "income_step", "n": 1, "p": s})
            else:
                self._gain_perm(s, arg[1])
        elif op == "track":
            self._unit_done(t)
            self._track_step(s, arg[1])
        elif op == "draw_card":
            self._unit_done(t)
            self._draw(s, text)
        elif op == "deploy":
            if text == "stop":
                self.queue.pop(0)
                return
            self._unit_done(t)
            p["reserve"] -= 1
            self._enter(s, int(arg[1]), 1)
        elif op == "march":
            if text == "stop":
                self.queue.pop(0)
                return
            self._unit_done(t)
            self.regions[int(arg[1])]["w"][s] -= 1
            self._enter(s, int(arg[2]), 1)
        elif op == "ship_step":
            if text == "stop":
                self.queue.pop(0)
                return
            self._unit_done(t)
            self._ship_step(s, arg[1])
        elif op == "_forage":
            self.queue.pop(0)
            p["temp"][arg[1]] += 1
        elif op == "_trade":
            self.queue.pop(0)
            self.trade_tiles.remove(arg[1])
            p["trade"].append(arg[1])
            self._push(s, D.TRADE_TILES[arg[1]]["effect"])
        self._ev(type="choice", seat=s, op=op.lstrip("_"), choice=text)

    def _track_step(self, s: int, track: str) -> None:
        p = self.players[s]
        if p["tracks"][track] >= D.TRACK_MAX:
            self._vp(s, D.C["overflow_vp_per_step"])
            return
        p["tracks"][track] += 1
        self._dirty = True
        self._push(s, D.TRACK[track]["on_enter"].get(str(p["tracks"][track]), []))

    def _ship_step(self, s: int, route: str) -> None:
        self.players[s]["ships"][route] += 1
        self.queue.insert(0, {"op": "_arrive", "route": route, "p": s})

    def _draw(self, s: int, text: str) -> None:
        p = self.players[s]
        if text == "deck":
            c = self._draw_from_deck()
            if c:
                p["hand"].append(c)
        else:
            c = self._take_offer(int(text.split(":")[1]) - 1)
            p["hand"].append(c)
            p["known"].append(c)
            self._ev(type="take_offer", seat=s, card=c)
