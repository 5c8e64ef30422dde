"""The end of a Minos round (rules §9-§11): income, weapons, the simultaneous palace decision (DP-12), then
interim scoring, the era switch and the next round (or the final combat after round 4)."""

from __future__ import annotations

from typing import Final

from arena.games.minos import data as D
from arena.games.minos.draft import start_round
from arena.games.minos.effects import cached_text, distinct_copies, draw_from_deck
from arena.games.minos.final_combat import start_final
from arena.games.minos.position import MinosPosition
from arena.games.minos.scoring import interim_scoring
from arena.games.minos.vases import checkpoint


def income_1(st: MinosPosition) -> None:
    for s in st._order_humans():
        p = st.players[s]
        sp = D.INCOME[p["income"]]
        p["coins"] += sp["coins"]
        st._vp(s, sp["vp"])
    checkpoint(st)
    st.foraged = []
    for s in st._order_humans():
        p = st.players[s]
        m = st.mods(s)
        for r in D.ROUTES:
            if p["ships"][r]:
                st.queue.append({"op": "coins", "n": m["ship_income_coins_per_ship"], "p": s})
                st.queue.append({"op": "vp", "n": m["ship_income_vp_per_ship"], "p": s})
                st.queue.extend(dict(op, p=s) for op in D.ROUTE_SPACES[r][p["ships"][r]]["income"])


def auto_income(st: MinosPosition) -> bool:
    # step 2 queue (ship income) has run; step 3 weapons; then the palace step
    checkpoint(st)
    for s in st._order_humans():
        p = st.players[s]
        p["weapons"] += D.WEAPON_INCOME[p["tracks"]["population"]] + st.mod(s, "weapon_income_bonus")
    checkpoint(st)
    st.phase = "palace"
    st.sim = st._order_humans()
    st.commits = {str(s): [] for s in st.sim}
    return False


def auto_palace(st: MinosPosition) -> bool:
    if st.sim:
        return True
    for s in st._order_humans():
        p = st.players[s]
        for c in st.commits[str(s)]:
            if c in p["play"]:
                p["play"].remove(c)
                p["palace_open"].append(c)
            else:
                p["hand"].remove(c)
                if c in p["known"]:
                    p["known"].remove(c)
                st._vp(s, -hand_palace_cost(st, s, c), "palace_moves")
            p["palace"].append(c)
            # public once applied, like every palace card (RULES.md E-20)
            st._ev(type="palace", seat=s, card=c, era=D.card_of(c)["era"])
    st.commits = {}
    checkpoint(st)
    end_round(st)
    return False


def palace_limit(st: MinosPosition, s: int) -> int:
    return D.PALACE_LIMIT[st.players[s]["tracks"]["influence"]] + st.mod(s, "palace_limit_bonus")


def hand_palace_cost(st: MinosPosition, s: int, c: str) -> int:
    return max(0, D.card_of(c)["vp"] - st.mod(s, "hand_palace_vp_discount"))


_MOVE: Final[dict[str, str]] = {}  # card instance -> its `move:` text (`cached_text`)


def legal_palace(st: MinosPosition) -> list[str]:
    s = st.sim[0]
    p = st.players[s]
    chosen = st.commits[str(s)]
    out = []
    if len(chosen) < palace_limit(st, s):
        spent = sum(hand_palace_cost(st, s, c) for c in chosen if c in p["hand"])
        out += [cached_text(_MOVE, "move:", c) for c in distinct_copies(set(p["play"]) - set(chosen))]
        out += [cached_text(_MOVE, "move:", c) for c in distinct_copies(set(p["hand"]) - set(chosen), p["known"])
                if hand_palace_cost(st, s, c) <= p["vp"] - spent]
    return sorted(set(out)) + ["stop"]


def do_palace(st: MinosPosition, s: int, text: str) -> None:
    if text == "stop":
        st.sim.pop(0)
    else:
        st.commits[str(s)].append(text.split(":")[1])


def end_round(st: MinosPosition) -> None:
    st.owner = {}
    st.rows = {r: [] for r in D.ROWS}
    st.retrieved = []
    nseats = 2 if st.solo else st.n
    st.first = (st.first + 1) % nseats
    st.turn_order = [(st.first + i) % nseats for i in range(nseats)]
    if st.round in D.C["scoring_after_rounds"]:
        interim_scoring(st)
    if st.round == D.C["era_switch_after_round"]:
        st.discard["I"].extend(c for c in st.offer if c)
        st.era = "II"
        st.offer = [draw_from_deck(st) or "" for _ in st.offer]
        if st.solo:
            st.solo_bot()["pop"] = D.SOLO["bot_population_scoring_space"]["round_4"]
        st._ev(type="era", era="II")
    if st.round == D.C["rounds"]:
        start_final(st)
        return
    st.round += 1
    start_round(st)
