"""The final Sea Peoples combat after round 4 (rules §12.1, DP-13): region by region, the holder may fight
the top tile; Rhadamanthus always fights in solo games."""

from __future__ import annotations

from arena.games.minos import data as D
from arena.games.minos.position import BOT, MinosPosition
from arena.games.minos.scoring import final_scoring


def start_final(st: MinosPosition) -> None:
    """Round 4 is over: remove Level I tiles, then the final Sea Peoples combat (§12.1)."""
    st.vp_cat = "final_combat"
    st.foraged = []
    for reg in st.regions.values():
        while reg["sea"] and D.SEA[reg["sea"][-1]]["level"] == 1:
            reg["sea"].pop()
    st.final_order = turn_order_round4(st)
    st.final_regions = sorted(r for r, reg in st.regions.items() if reg["sea"])
    st.step_i = 0
    st.phase = "final_combat"


def turn_order_round4(st: MinosPosition) -> list[int]:
    # the turn order of round 4 (the first player marker has already passed when final combat starts)
    k = 2 if st.solo else st.n
    first = (st.first - 1) % k
    return [(first + i) % k for i in range(k)]


def auto_final_combat(st: MinosPosition) -> bool:
    while st.step_i < len(st.final_regions):
        r = st.final_regions[st.step_i]
        reg = st.regions[r]
        if not reg["sea"]:
            st.step_i += 1
            continue
        holder = _final_holder(st, r)
        if holder == BOT and st.solo:
            tile = reg["sea"].pop()
            st.solo_bot()["sea"].append(tile)
            st._bot_vp(D.SEA[tile]["weapons"], "final_combat")
            st._ev(type="bot_final_fight", region=r, tile=tile)
            st.step_i += 1
            continue
        if holder < 0 or st.players[holder]["weapons"] < st._fight_cost(holder, reg["sea"][-1]):
            st.step_i += 1
            continue
        st.commits = {"holder": holder, "region": r}
        return True
    final_scoring(st)
    return False


def _final_holder(st: MinosPosition, r: int) -> int:
    w = st.regions[r]["w"]
    best = max(w)
    if best == 0:
        return -1
    tied = [s for s in range(st.nm) if w[s] == best]
    if st.solo:
        return BOT if BOT in tied else 0
    return min(tied, key=lambda s: (-st.players[s]["weapons"], st.final_order.index(s)))


def legal_final_combat(st: MinosPosition) -> list[str]:
    return ["fight", "decline"]


def do_final_combat(st: MinosPosition, s: int, text: str) -> None:
    r = st.commits["region"]
    st.commits = {}
    st.step_i += 1
    if text == "fight":
        p = st.players[s]
        reg = st.regions[r]
        tile = reg["sea"].pop()
        st._dirty = True
        p["weapons"] -= st._fight_cost(s, tile)
        reg["w"][s] -= 1
        p["supply"] += 1
        p["sea"].append(tile)
        st._ev(type="fight", seat=s, region=r, tile=tile)
        st._push(s, D.SEA[tile]["reward"] + [{"op": "vp", "n": st.mod(s, "fight_vp_bonus")}])
