"""The final Sea Peoples combat after round 4 (rules §12.1, DP-13): region by region, the holder may fight
the top tile; Rhadamanthus always fights in solo games."""

from __future__ import annotations

from arena.games.minos import data as D
from arena.games.minos.position import BOT
from arena.games.minos.scoring import ScoringMixin


class FinalCombatMixin(ScoringMixin):
    """Final combat (phase `final_combat`), then final scoring. A mixin of `MinosState`: it adds no fields."""

    __slots__ = ()

    def _start_final(self) -> None:
        """Round 4 is over: remove Level I tiles, then the final Sea Peoples combat (§12.1)."""
        self.vp_cat = "final_combat"
        self.foraged = []
        for reg in self.regions.values():
            while reg["sea"] and D.SEA[reg["sea"][-1]]["level"] == 1:
                reg["sea"].pop()
        self.final_order = list(self.turn_order_round4)
        self.final_regions = sorted(r for r, reg in self.regions.items() if reg["sea"])
        self.step_i = 0
        self.phase = "final_combat"

    @property
    def turn_order_round4(self) -> list[int]:
        # the turn order of round 4 (the first player marker has already passed when final combat starts)
        k = 2 if self.solo else self.n
        first = (self.first - 1) % k
        return [(first + i) % k for i in range(k)]

    def _auto_final_combat(self) -> bool:
        while self.step_i < len(self.final_regions):
            r = self.final_regions[self.step_i]
            reg = self.regions[r]
            if not reg["sea"]:
                self.step_i += 1
                continue
            holder = self._final_holder(r)
            if holder == BOT and self.solo:
                tile = reg["sea"].pop()
                self.solo_bot()["sea"].append(tile)
                self._bot_vp(D.SEA[tile]["weapons"], "final_combat")
                self._ev(type="bot_final_fight", region=r, tile=tile)
                self.step_i += 1
                continue
            if holder < 0 or self.players[holder]["weapons"] < self._fight_cost(holder, reg["sea"][-1]):
                self.step_i += 1
                continue
            self.commits = {"holder": holder, "region": r}
            return True
        self._final_scoring()
        return False

    def _final_holder(self, r: int) -> int:
        w = self.regions[r]["w"]
        best = max(w)
        if best == 0:
            return -1
        tied = [s for s in range(self.nm) if w[s] == best]
        if self.solo:
            return BOT if BOT in tied else 0
        return min(tied, key=lambda s: (-self.players[s]["weapons"], self.final_order.index(s)))

    def _legal_final_combat(self) -> list[str]:
        return ["fight", "decline"]

    def _do_final_combat(self, s: int, text: str) -> None:
        r = self.commits["region"]
        self.commits = {}
        self.step_i += 1
        if text == "fight":
            p = self.players[s]
            reg = self.regions[r]
            tile = reg["sea"].pop()
            self._dirty = True
            p["weapons"] -= self._fight_cost(s, tile)
            reg["w"][s] -= 1
            p["supply"] += 1
            p["sea"].append(tile)
            self._ev(type="fight", seat=s, region=r, tile=tile)
            self._push(s, D.SEA[tile]["reward"] + [{"op": "vp", "n": self.mods(s)["fight_vp_bonus"]}])
