"""Minos vases (rules §8): the conditions a seat's position is counted against, and the checkpoint that awards
vase slots to every seat meeting one."""

from __future__ import annotations

from typing import Final

from arena.games.minos import data as D
from arena.games.minos.position import MinosPosition

#: vase id -> (the kind counted, the count needed)
_CONDITION: Final[dict[str, tuple[str, int]]] = {
    v: (t["condition"]["kind"], t["condition"]["at_least"]) for v, t in D.VASES.items()}


def vase_value(st: MinosPosition, s: int, kind: str, doms: list[int] | None = None) -> int:
    """The seat's current count for a vase condition kind (§8)."""
    p = st.players[s]
    if kind == "regions_present":
        return sum(1 for reg in st.regions.values() if reg["w"][s])
    if kind == "regions_dominated":
        if doms is None:
            doms = [st.dominant(r) for r in st.regions]
        return doms.count(s)
    if kind == "sea_peoples_defeated":
        return len(p["sea"])
    if kind == "farms":
        return st.farms_on_map(s)
    if kind == "ships":
        return sum(1 for v in p["ships"].values() if v)
    if kind == "perm_goods":
        return sum(p["perm"].values())
    if kind == "palace_cards":
        return len(p["palace"])
    if kind == "play_area_plus_palace_cards":
        return len(p["palace"]) + len(p["play"])
    if kind == "progress_sum":
        return sum(p["tracks"].values())
    raise KeyError(kind)


def vase_counts(st: MinosPosition, kind: str, skip: list[int] | None = None) -> list[int]:
    """`vase_value` for every human seat at once (one pass over the map for the map-based kinds); the seats in
    `skip` may be left at 0 (their count is not needed)."""
    if kind == "regions_present":
        counts = [0] * st.nm
        for reg in st.regions.values():
            for s, k in enumerate(reg["w"]):
                if k:
                    counts[s] += 1
        return counts[:st.n]
    if kind == "regions_dominated":
        counts = [0] * st.nm
        for reg in st.regions.values():
            best = 0  # `dominant`, inline: the seat with strictly the most warriors, at least 1
            who = -1
            for s, k in enumerate(reg["w"]):
                if k > best:
                    best = k
                    who = s
                elif k == best:
                    who = -1  # a tie (or no warriors yet): nobody, unless a later seat has more
            if who >= 0:
                counts[who] += 1
        return counts[:st.n]
    if skip:
        return [0 if s in skip else vase_value(st, s, kind) for s in range(st.n)]
    return [vase_value(st, s, kind) for s in range(st.n)]


def checkpoint(st: MinosPosition) -> None:
    """Vases (§8): every human seat meeting a condition now achieves it; simultaneous achievers share.

    In the action phase `MinosState._advance` skips the check unless something a vase counts may have changed since
    the last one (`_dirty`, set by every change of warriors, farms, ships, permanent goods, tracks, play
    area, palace or defeated tiles): a skipped check could not have found a new achiever."""
    st._dirty = False
    for vase in st.vases:
        if len(vase["achieved"]) >= st.n:
            continue  # every human seat achieved it already: nobody is left to achieve it
        free = [sl for sl in vase["slots"] if sl[1] < 0]
        if not free:
            continue
        kind, need = _CONDITION[vase["id"]]
        counts = vase_counts(st, kind, vase["achieved"])  # those who achieved it are not asked again
        if max(counts) < need:
            continue
        achievers = [s for s in st._order_humans() if s not in vase["achieved"] and counts[s] >= need]
        if not achievers:
            continue
        free.sort(key=lambda sl: -sl[0])
        vp = free[0][0]
        for i, s in enumerate(achievers):
            if i < len(free):
                free[i][1] = s
            vase["achieved"].append(s)
            st._vp(s, vp, "vases")
            st._ev(type="vase", seat=s, vase=vase["id"], vp=vp)
