"""The end of a Minos round (rules §9-§11): income, weapons, the simultaneous palace decision (DP-12), then
interim scoring, the era switch and the next round (or the final combat after round 4)."""

from __future__ import annotations

from arena.games.minos import data as D
from arena.games.minos.draft import DraftMixin
from arena.games.minos.effects import EffectsMixin, distinct_copies
from arena.games.minos.final_combat import FinalCombatMixin


class EndOfRoundMixin(FinalCombatMixin, DraftMixin, EffectsMixin):
    """End of round (phases `income`, `palace`), then the next round or the final combat. A mixin of
    `MinosState`: it adds no fields."""

    __slots__ = ()

    def _income_1(self) -> None:
        for s in self._order_humans():
            p = self.players[s]
            sp = D.INCOME[p["income"]]
            p["coins"] += sp["coins"]
            self._vp(s, sp["vp"])
        self._checkpoint()
        self.foraged = []
        for s in self._order_humans():
            p = self.players[s]
            m = self.mods(s)
            for r in D.ROUTES:
                if p["ships"][r]:
                    self.queue.append({"op": "coins", "n": m["ship_income_coins_per_ship"], "p": s})
                    self.queue.append({"op": "vp", "n": m["ship_income_vp_per_ship"], "p": s})
                    self.queue.extend(dict(op, p=s) for op in D.ROUTE_SPACES[r][p["ships"][r]]["income"])

    def _auto_income(self) -> bool:
        # step 2 queue (ship income) has run; step 3 weapons; then the palace step
        self._checkpoint()
        for s in self._order_humans():
            p = self.players[s]
            p["weapons"] += D.WEAPON_INCOME[p["tracks"]["population"]] + self.mods(s)["weapon_income_bonus"]
        self._checkpoint()
        self.phase = "palace"
        self.sim = self._order_humans()
        self.commits = {str(s): [] for s in self.sim}
        return False

    def _auto_palace(self) -> bool:
        if self.sim:
            return True
        for s in self._order_humans():
            p = self.players[s]
            for c in self.commits[str(s)]:
                if c in p["play"]:
                    p["play"].remove(c)
                    p["palace_open"].append(c)
                else:
                    p["hand"].remove(c)
                    if c in p["known"]:
                        p["known"].remove(c)
                    self._vp(s, -self._hand_palace_cost(s, c), "palace_moves")
                p["palace"].append(c)
                # public once applied, like every palace card (RULES.md E-20)
                self._ev(type="palace", seat=s, card=c, era=D.card_of(c)["era"])
        self.commits = {}
        self._checkpoint()
        self._end_round()
        return False

    def palace_limit(self, s: int) -> int:
        return D.PALACE_LIMIT[self.players[s]["tracks"]["influence"]] + self.mods(s)["palace_limit_bonus"]

    def _hand_palace_cost(self, s: int, c: str) -> int:
        return max(0, D.card_of(c)["vp"] - self.mods(s)["hand_palace_vp_discount"])

    def _legal_palace(self) -> list[str]:
        s = self.sim[0]
        p = self.players[s]
        chosen = self.commits[str(s)]
        out = []
        if len(chosen) < self.palace_limit(s):
            spent = sum(self._hand_palace_cost(s, c) for c in chosen if c in p["hand"])
            out += [f"move:{c}" for c in distinct_copies(set(p["play"]) - set(chosen))]
            out += [f"move:{c}" for c in distinct_copies(set(p["hand"]) - set(chosen), p["known"])
                    if self._hand_palace_cost(s, c) <= p["vp"] - spent]
        return sorted(set(out)) + ["stop"]

    def _do_palace(self, s: int, text: str) -> None:
        if text == "stop":
            self.sim.pop(0)
        else:
            self.commits[str(s)].append(text.split(":")[1])

    def _end_round(self) -> None:
        self.owner = {}
        self.rows = {r: [] for r in D.ROWS}
        self.retrieved = []
        nseats = 2 if self.solo else self.n
        self.first = (self.first + 1) % nseats
        self.turn_order = [(self.first + i) % nseats for i in range(nseats)]
        if self.round in D.C["scoring_after_rounds"]:
            self._interim_scoring()
        if self.round == D.C["era_switch_after_round"]:
            self.discard["I"].extend(c for c in self.offer if c)
            self.era = "II"
            self.offer = [self._draw_from_deck() or "" for _ in self.offer]
            if self.solo:
                self.solo_bot()["pop"] = D.SOLO["bot_population_scoring_space"]["round_4"]
            self._ev(type="era", era="II")
        if self.round == D.C["rounds"]:
            self._start_final()
            return
        self.round += 1
        self._start_round()
