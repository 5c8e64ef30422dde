"""Minos scoring (rules §11, §12): interim scoring after rounds 2 and 4, final scoring, and the results the
platform reads (scores, breakdowns, ranking, the solo verdict)."""

from __future__ import annotations

from typing import Any

from arena.games.base import rank_by_keys
from arena.games.minos import data as D
from arena.games.minos.position import BOT, MinosPosition


class ScoringMixin(MinosPosition):
    """Interim and final scoring, and the results. A mixin of `MinosState` over the declared `MinosPosition`: it
    adds no fields."""

    __slots__ = ()

    def _interim_scoring(self) -> None:
        self.vp_cat = "farms"
        for s in range(self.n):
            self._vp(s, D.FARM_VP[self.farms_on_map(s)], "farms")
        if self.solo:
            self._bot_vp(D.FARM_VP[self.farms_on_map(BOT)], "farms")
        for r in sorted(self.regions):
            dom = self.dominant(r)
            w = self.regions[r]["w"]
            for s in range(self.nm):
                if not w[s]:
                    continue
                if self.solo and s == BOT:
                    row = D.REGION_SCORING[self.solo_bot()["pop"]]
                    self._bot_vp(row["dominance"] if dom == s else row["presence"], "regions")
                    continue
                row = D.REGION_SCORING[self.players[s]["tracks"]["population"]]
                if dom == s:
                    self._vp(s, row["dominance"] + self.mods(s)["tower_region_bonus"], "regions")
                else:
                    self._vp(s, row["presence"], "regions")
        self._ev(type="scoring", round=self.round)
        self.vp_cat = "play"

    def _final_scoring(self) -> None:
        div = D.C["final_resources_divisor"]
        for s in range(self.n):
            p = self.players[s]
            self._vp(s, (p["coins"] + p["weapons"] + len(p["hand"])) // div, "resources")
            self._vp(s, D.C["vp_per_play_area_card_at_end"] * len(p["play"]), "play_area")
            self._vp(s, sum(D.card_of(c)["vp"] for c in p["palace"]), "palace")
        if self.solo:
            b = self.solo_bot()
            fd = D.C["bot_face_down_card_vp"]
            self._bot_vp(sum(fd[D.card_of(c)["era"]] for c in b["down"]), "face_down_cards")
            self._bot_vp(sum(D.card_of(c)["vp"] for c in b["up"]), "face_up_cards")
            self._bot_vp(D.C["bot_vp_per_route_step"] * sum(sp - 1 for sp in b["ships"].values()), "ships")
        self.vp_cat = "play"
        self.phase = "over"
        self._ev(type="game_over", scores=self.scores())

    def scores(self) -> list[float]:
        return [float(p["vp"]) for p in self.players]

    def score_breakdown(self) -> list[dict[str, float]]:
        out = []
        for p in self.players:
            d = {k: float(v) for k, v in p["parts"].items()}
            d["total"] = float(p["vp"])
            out.append(d)
        return out

    def bot_breakdown(self) -> dict[str, float]:
        """Rhadamanthus' VP by part (solo only)."""
        d = {k: float(v) for k, v in self.solo_bot()["parts"].items()}
        d["total"] = float(self.solo_bot()["vp"])
        return d

    def tiebreak(self, s: int) -> int:
        p = self.players[s]
        return p["coins"] + p["weapons"] + len(p["hand"])

    def ranking(self) -> list[int]:
        """Most VP; ties broken by coins + weapons + hand cards, then shared (§12.4 [D-28]). Solo: rank 1 if the
        human beat Rhadamanthus (strictly more VP), else rank 2 (Rhadamanthus took first place)."""
        if self.solo:
            return [1 if self.solo_won() else 2]
        return rank_by_keys([(p["vp"], self.tiebreak(p["seat"])) for p in self.players])

    def engine_opponent_results(self) -> list[dict[str, Any]]:
        """Solo: Rhadamanthus' VP and rank, first unless the human beat it (E-01)."""
        if not self.solo:
            return []
        return [{"name": "Rhadamanthus", "score": float(self.solo_bot()["vp"]), "rank": 2 if self.solo_won() else 1}]

    def solo_won(self) -> bool:
        """Solo: the human wins only with strictly more VP than Rhadamanthus (§12.4)."""
        return self.players[0]["vp"] > self.solo_bot()["vp"]
