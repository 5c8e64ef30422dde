"""Minos scoring (rules §11, §12): interim scoring after rounds 2 and 4, final scoring, and the results the
platform reads (scores, breakdowns, ranking, the solo verdict)."""

from __future__ import annotations

from typing import Any

from arena.games.base import rank_by_keys
from arena.games.minos import data as D
from arena.games.minos.position import BOT, MinosPosition


def interim_scoring(st: MinosPosition) -> None:
    st.vp_cat = "farms"
    for s in range(st.n):
        st._vp(s, D.FARM_VP[st.farms_on_map(s)], "farms")
    if st.solo:
        st._bot_vp(D.FARM_VP[st.farms_on_map(BOT)], "farms")
    for r in sorted(st.regions):
        dom = st.dominant(r)
        w = st.regions[r]["w"]
        for s in range(st.nm):
            if not w[s]:
                continue
            if st.solo and s == BOT:
                row = D.REGION_SCORING[st.solo_bot()["pop"]]
                st._bot_vp(row["dominance"] if dom == s else row["presence"], "regions")
                continue
            row = D.REGION_SCORING[st.players[s]["tracks"]["population"]]
            if dom == s:
                st._vp(s, row["dominance"] + st.mod(s, "tower_region_bonus"), "regions")
            else:
                st._vp(s, row["presence"], "regions")
    st._ev(type="scoring", round=st.round)
    st.vp_cat = "play"


def final_scoring(st: MinosPosition) -> None:
    div = D.C["final_resources_divisor"]
    for s in range(st.n):
        p = st.players[s]
        st._vp(s, (p["coins"] + p["weapons"] + len(p["hand"])) // div, "resources")
        st._vp(s, D.C["vp_per_play_area_card_at_end"] * len(p["play"]), "play_area")
        st._vp(s, sum(D.card_of(c)["vp"] for c in p["palace"]), "palace")
    if st.solo:
        b = st.solo_bot()
        fd = D.C["bot_face_down_card_vp"]
        st._bot_vp(sum(fd[D.card_of(c)["era"]] for c in b["down"]), "face_down_cards")
        st._bot_vp(sum(D.card_of(c)["vp"] for c in b["up"]), "face_up_cards")
        st._bot_vp(D.C["bot_vp_per_route_step"] * sum(sp - 1 for sp in b["ships"].values()), "ships")
    st.vp_cat = "play"
    st.phase = "over"
    st._ev(type="game_over", scores=scores(st))


def scores(st: MinosPosition) -> list[float]:
    return [float(p["vp"]) for p in st.players]


def score_breakdown(st: MinosPosition) -> list[dict[str, float]]:
    out = []
    for p in st.players:
        d = {k: float(v) for k, v in p["parts"].items()}
        d["total"] = float(p["vp"])
        out.append(d)
    return out


def bot_breakdown(st: MinosPosition) -> dict[str, float]:
    """Rhadamanthus' VP by part (solo only)."""
    d = {k: float(v) for k, v in st.solo_bot()["parts"].items()}
    d["total"] = float(st.solo_bot()["vp"])
    return d


def tiebreak(st: MinosPosition, s: int) -> int:
    p = st.players[s]
    return p["coins"] + p["weapons"] + len(p["hand"])


def ranking(st: MinosPosition) -> list[int]:
    """Most VP; ties broken by coins + weapons + hand cards, then shared (§12.4 [D-28]). Solo: rank 1 if the
    human beat Rhadamanthus (strictly more VP), else rank 2 (Rhadamanthus took first place)."""
    if st.solo:
        return [1 if solo_won(st) else 2]
    return rank_by_keys([(p["vp"], tiebreak(st, p["seat"])) for p in st.players])


def solo_won(st: MinosPosition) -> bool:
    """Solo: the human wins only with strictly more VP than Rhadamanthus (§12.4)."""
    return st.players[0]["vp"] > st.solo_bot()["vp"]


def engine_opponent_results(st: MinosPosition) -> list[dict[str, Any]]:
    """Solo: Rhadamanthus' VP and rank, first unless the human beat it (E-01)."""
    if not st.solo:
        return []
    return [{"name": "Rhadamanthus", "score": float(st.solo_bot()["vp"]), "rank": 2 if solo_won(st) else 1}]
