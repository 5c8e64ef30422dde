"""Minos action turns (rules §5): retrieving a die, the slot bonus, palace traits, the main action point by
point (DP-10), and the extra actions craft, barter and fight."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from arena.games.minos import data as D
from arena.games.minos.effects import distinct_copies
from arena.games.minos.end_of_round import EndOfRoundMixin
from arena.games.minos.rhadamanthus import bot_turn

if TYPE_CHECKING:
    from arena.games.minos.state import MinosState


class TurnMixin(EndOfRoundMixin):
    """The action phase (phase `actions`; decisions `retrieve` and `turn`), then the end of the round.

    A mixin of `MinosState`: it adds no fields."""

    __slots__ = ()

    def _turn_seat(self) -> int:
        return self.turn_order[self.step_i % len(self.turn_order)]

    def _auto_actions(self) -> bool:
        order = self.turn_order
        while self.step_i < 4 * len(order):
            if self.turn is not None:
                return True
            s = self._turn_seat()
            if not self._human(s):
                bot_turn(cast("MinosState", self))
                self.step_i += 1
                self._checkpoint()  # a bot move can make a human dominant (it returns warriors)
                continue
            top = self._retrieve_candidates(s)
            if len(top) > 1:
                return True
            self._retrieve(s, top[0])
            return True
        self.phase = "income"
        self._income_1()
        return False

    def slot_data(self, row: str, slot: int) -> dict:
        return D.BOARD[self.board_n][row][slot - 1]

    def die_place(self, die: str) -> tuple[str, int]:
        for r, dice in self.rows.items():
            if die in dice:
                return r, dice.index(die) + 1
        return "", 0

    def _retrieve_candidates(self, s: int) -> list[str]:
        mine = [d for d, o in self.owner.items() if o == s and d not in self.retrieved]
        best = max(self.dice[d][1] for d in mine)
        return sorted(d for d in mine if self.dice[d][1] == best)

    def _retrieve(self, s: int, die: str) -> None:
        row, slot = self.die_place(die)
        self.retrieved.append(die)
        sd = self.slot_data(row, slot)
        v = self.dice[die][1]
        traits = []
        for c in self.players[s]["palace"]:
            trig = D.card_of(c)["trait"]["trigger"]
            if trig.get("action") == row or v in trig.get("die", ()):
                traits.append(c)
        self.turn = {"seat": s, "die": die, "row": row, "slot": slot, "strength": sd["strength"],
                     "bonus": bool(sd["bonus"]), "traits": traits, "main": "pending", "action": "",
                     "points": 0, "pre": 0, "extras": []}
        self.foraged = []
        self._ev(type="retrieve", seat=s, die=die, row=row, slot=slot)

    def _legal_retrieve(self) -> list[str]:
        return [f"retrieve:{d}" for d in self._retrieve_candidates(self._turn_seat())]

    def _do_retrieve(self, s: int, text: str) -> None:
        self._retrieve(s, text.split(":")[1])

    def _legal_turn(self) -> list[str]:
        tr = self.current_turn()
        s = tr["seat"]
        p = self.players[s]
        out = []
        if tr["bonus"]:
            out.append("bonus")
        out += [f"trait:{c}" for c in distinct_copies(tr["traits"])]  # two copies fire alike
        if tr["main"] == "pending":
            out.append("main:forgo")
            if tr["row"] == "wild":
                out += [f"main:start:{a}" for a in D.MAIN_ACTIONS]
            else:
                out.append("main:start")
        elif tr["main"] == "active":
            out += self._point_options(s, tr["action"])
            out.append("main:finish")
        if "craft" not in tr["extras"]:
            out += [f"extra:craft:{g}" for g in D.GOODS if p["temp"][g] >= 3 and self._perm_available(g)]
        if "fight" not in tr["extras"]:
            discount = self.mods(s)["fight_discount"]
            for r in sorted(self.regions):
                reg = self.regions[r]
                if reg["w"][s] and reg["sea"] and p["weapons"] >= max(1, D.SEA[reg["sea"][-1]]["weapons"] - discount):
                    out.append(f"extra:fight:{r}")
        if "barter" not in tr["extras"] and p["coins"] >= 3:
            out += [f"extra:barter:{g}" for g in D.GOODS]
        if not tr["bonus"] and not tr["traits"] and tr["main"] == "done":
            out.append("end")
        return out

    def _point_options(self, s: int, action: str) -> list[str]:
        p = self.players[s]
        out: list[str] = []
        if action == "prepare":
            out = [f"offer:{i + 1}" for i, c in enumerate(self.offer) if c]
            if self._can_draw():
                out.append("deck")
        elif action == "develop":
            out = [f"play:{c}" for c in distinct_copies(p["hand"], p["known"])
                   if self._affordable(s, D.card_of(c)["cost"])]
        elif action == "build":
            b = D.BUILDINGS
            for r in sorted(self.regions):
                reg = self.regions[r]
                level1 = bool(reg["sea"]) and D.SEA[reg["sea"][-1]]["level"] == 1
                if reg["w"][s] and not level1:
                    if p["board"]["farm"] and self._affordable(s, b["farm"]["cost"]):
                        icons = D.REGIONS[r]["icons"]
                        out += [f"farm:{r}:{icons[i]}" for i in (0, 1) if reg["farms"][i] < 0]
                    if p["board"]["city"] and reg["city"] < 0 and self._affordable(s, b["city"]["cost"]):
                        out.append(f"city:{r}")
                if (reg["city"] == s and not reg["tower"] and p["board"]["tower"]
                        and self._affordable(s, b["tower"]["cost"])):
                    out.append(f"tower:{r}")
            if p["board"]["ship"] and self._affordable(s, b["ship"]["cost"]):
                out += [f"ship:{r}" for r in D.ROUTES if not p["ships"][r]]
            out += [f"step:{r}" for r in D.ROUTES if 0 < p["ships"][r] < D.ROUTE_MAX]
        elif action == "expand":
            if p["supply"]:
                out.append("recruit")
            for r in self._eligible_deploy(s) if p["reserve"] else ():
                out += [f"deploy:{r}:{k}" for k in (1, 2) if p["reserve"] >= k]
            for a in sorted(self.regions):
                w = self.regions[a]["w"][s]
                for b2 in D.ADJ[a]:
                    if w and b2 in self.regions:
                        out += [f"march:{a}:{b2}:{k}" for k in (1, 2) if w >= k]
        return out

    def _do_turn(self, s: int, text: str) -> None:
        tr = self.current_turn()
        p = self.players[s]
        arg = text.split(":")
        kind = arg[0]
        if kind == "bonus":
            tr["bonus"] = False
            self._push(s, self.slot_data(tr["row"], tr["slot"])["bonus"])
        elif kind == "trait":
            tr["traits"].remove(arg[1])
            self._push(s, D.card_of(arg[1])["trait"]["effect"])
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
                    m = self.mods(s)
                    tr["points"] += m["build_strength_bonus"]
                    if m["build_start_ship_step"]:
                        self.queue.insert(0, {"op": "ship_step", "n": m["build_start_ship_step"], "p": s})
                if tr["points"] <= 0:
                    tr["main"] = "done"
        elif kind == "extra":
            tr["extras"].append(arg[1])
            if arg[1] == "craft":
                p["temp"][arg[2]] -= 3
                self._gain_perm(s, arg[2])
            elif arg[1] == "barter":
                p["coins"] -= 3
                p["temp"][arg[2]] += 1
            else:
                self._fight(s, int(arg[2]))
        elif kind == "end":
            self.turn = None
            self.step_i += 1
        else:
            self._point(s, text)
            tr["points"] -= 1
            if tr["points"] <= 0:
                tr["main"] = "done"

    def _fight(self, s: int, r: int) -> None:
        p = self.players[s]
        reg = self.regions[r]
        tile = reg["sea"][-1]
        self._dirty = True
        p["weapons"] -= self._fight_cost(s, tile)
        reg["w"][s] -= 1
        p["supply"] += 1
        reg["sea"].pop()
        p["sea"].append(tile)
        self._ev(type="fight", seat=s, region=r, tile=tile)
        self._push(s, D.SEA[tile]["reward"] + [{"op": "vp", "n": self.mods(s)["fight_vp_bonus"]}])

    def _point(self, s: int, text: str) -> None:
        """One point of a main action (DP-10)."""
        p = self.players[s]
        arg = text.split(":")
        kind = arg[0]
        if kind in ("offer", "deck"):
            self._draw(s, text)
        elif kind == "play":
            c = arg[1]
            self._pay(s, D.card_of(c)["cost"])
            p["hand"].remove(c)
            if c in p["known"]:
                p["known"].remove(c)
            p["play"].append(c)
            self._dirty = True
            self._ev(type="play", seat=s, card=c)
            self._push(s, D.card_of(c)["effect"])
        elif kind in ("farm", "city", "tower", "ship"):
            self._build(s, kind, arg[1:])
        elif kind == "step":
            self._ship_step(s, arg[1])
        elif kind == "recruit":
            k = min(D.C["warriors_per_expand_point"], p["supply"])
            p["supply"] -= k
            p["reserve"] += k
        elif kind == "deploy":
            k = int(arg[2])
            p["reserve"] -= k
            self._enter(s, int(arg[1]), k)
        elif kind == "march":
            k = int(arg[3])
            self.regions[int(arg[1])]["w"][s] -= k
            self._enter(s, int(arg[2]), k)

    def _build(self, s: int, kind: str, arg: list[str]) -> None:
        """Build one piece in the fixed order of rules §5.3."""
        p = self.players[s]
        self._dirty = True
        self._pay(s, D.BUILDINGS[kind]["cost"])
        if kind == "farm":
            r = int(arg[0])
            self.regions[r]["w"][s] -= 1
            p["supply"] += 1
        slot = D.PIECES_ON_BOARD[kind] - p["board"][kind]
        p["board"][kind] -= 1
        after: list[dict] = []
        if kind == "farm":
            icon = D.REGIONS[r]["icons"].index(arg[1])  # the two icons of a region are different goods
            self.regions[r]["farms"][icon] = s
            after = [{"op": "temp_good", "good": D.REGIONS[r]["icons"][icon], "n": 1}]
        elif kind == "city":
            r = int(arg[0])
            reg = self.regions[r]
            reg["city"] = s
            if reg["found"]:
                p["found"].append(reg["found"])
                after = list(D.FOUNDATIONS[reg["found"]]["effect"])
                reg["found"] = ""
        elif kind == "tower":
            self.regions[int(arg[0])]["tower"] = True
        else:
            route = arg[0]
            p["ships"][route] = self.mods(s)["ship_start_space"]
            after = [{"op": "_arrive", "route": route}]
        self._ev(type="build", seat=s, piece=kind, where=":".join(arg))
        # (4) the uncovered slot's effect, then (5) building income read when it resolves: at the ability level
        # that effect (or an income step it causes) may just have raised (§5.3, §9.3), then (6)
        self._push(s, list(D.UNCOVER[kind][slot]["on_uncover"]) + [{"op": "building_income"}] + after)
